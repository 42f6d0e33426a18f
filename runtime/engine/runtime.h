// Runtime: process-wide setup of libitrt — MPI with MPI_THREAD_SERIALIZED (only the proxy, or
// the main thread outside a run, ever calls MPI), rank-aware logging and error reporting.
// Must not parse program arguments (args.h does) nor build VSAs.
#pragma once

namespace itrt {

class Runtime {
 public:
  Runtime(int& argc, char**& argv);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0;
  int size_ = 1;
  bool owns_mpi_ = false;
};

}  // namespace itrt
