// Runtime: process-wide setup of libitrt — MPI (MPI_THREAD_MULTIPLE when the library has it:
// tasks that run at once each have a proxy and a thread calling MPI; one VSA alone needs only
// MPI_THREAD_SERIALIZED), rank-aware logging and error reporting.
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
  // Several threads may call MPI at once (several VSAs running in one process).
  bool threads_multiple() const { return threads_multiple_; }

 private:
  bool threads_multiple_ = false;
  int rank_ = 0;
  int size_ = 1;
  bool owns_mpi_ = false;
};

}  // namespace itrt
