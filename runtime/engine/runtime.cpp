// Implements runtime.h. FUNNELED would suffice if run() is always called on the main thread, but
// SERIALIZED also allows the proxy to be some other single thread; MULTIPLE is never required.
#include "runtime/engine/runtime.h"

#include "runtime/engine/failure.h"
#include "runtime/engine/log.h"

#include <mpi.h>

namespace itrt {

Runtime::Runtime(int& argc, char**& argv) {
  int init = 0;
  MPI_Initialized(&init);
  if (!init) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    owns_mpi_ = true;
    if (provided < MPI_THREAD_FUNNELED)
      fail("the MPI library does not provide MPI_THREAD_FUNNELED, which the proxy needs");
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  log_set_rank(rank_);
  detail::set_failure_rank(rank_, size_);
}

Runtime::~Runtime() {
  if (owns_mpi_) MPI_Finalize();
}

}  // namespace itrt
