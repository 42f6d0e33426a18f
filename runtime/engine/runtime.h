// Runtime: process-wide setup of libitrt — MPI (MPI_THREAD_SERIALIZED: one VSA at a time calls
// MPI from one thread; MPI_THREAD_MULTIPLE when asked for several VSAs at once, e.g. tasks that
// run concurrently, if the library has it), rank-aware logging and error reporting.
// Must not parse program arguments (args.h does) nor build VSAs.
#pragma once

namespace itrt {

class Runtime {
 public:
  // `several_vsas`: VSAs may run at once in this process (asks for MPI_THREAD_MULTIPLE, which
  // makes every message slower: docs/runtime-engine.md, Threading).
  explicit Runtime(int& argc, char**& argv, bool several_vsas = false);
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
