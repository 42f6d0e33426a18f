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
  // `mpi_when_alone`: start MPI also in a process not started by mpirun (or another launcher).
  // When false, such a process runs without MPI (rank 0 of 1; runtime/support/mpi_calls.h), unless
  // IT_ONE_PROCESS_MPI=1 asks for it.
  explicit Runtime(int& argc, char**& argv, bool several_vsas = false, bool mpi_when_alone = true);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Several threads may call MPI at once (several VSAs running in one process), or MPI is not
  // running.
  bool threads_multiple() const { return threads_multiple_; }

 private:
  bool threads_multiple_ = false;
  int rank_ = 0;
  int size_ = 1;
  bool owns_mpi_ = false;
};

}  // namespace itrt
