// Implements runtime.h. One VSA at a time needs SERIALIZED (its proxy is some single thread);
// MULTIPLE lets tasks run concurrently, each with its own VSAs. FUNNELED is the least we accept.
#include "runtime/engine/runtime.h"

#include "runtime/engine/crash_report.h"
#include "runtime/engine/failure.h"
#include "runtime/engine/log.h"

#include <mpi.h>

#include <csignal>
#include <cstdlib>
#include <string>

namespace itrt {

namespace {
bool started_by_launcher() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK") ||
         std::getenv("OMPI_MCA_orte_hnp_uri");
}

// Started without mpirun (`./prog key=value`): one process, nothing to connect to. Open MPI's
// singleton start-up would launch a daemon and open every transport (~0.4 s); an isolated
// singleton with only the self transport starts in about 15 milliseconds. Settings the user
// made win (setenv without overwrite); under mpirun nothing changes.
void prefer_light_singleton() {
  if (started_by_launcher()) return;
  setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
  setenv("OMPI_MCA_pml", "ob1", 0);
  setenv("OMPI_MCA_btl", "self", 0);
  // Open MPI's start-up loads the machine's topology with its PCI devices, reading every
  // device's configuration: a third of a one-process start (7 of 21 ms). Nothing here uses them.
  setenv("HWLOC_COMPONENTS", "-pci,-linuxio", 0);
}
}  // namespace

Runtime::Runtime(int& argc, char**& argv, bool several_vsas, bool mpi_when_alone) {
  // A file-size limit (ulimit -f) must turn an output write into an error the runtime reports
  // (EFBIG, with the file's name), not a signal that kills the process without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  int init = 0;
  MPI_Initialized(&init);
  const char* force = std::getenv("IT_ONE_PROCESS_MPI");
  if (!init && !mpi_when_alone && !(force && std::string(force) == "1") && !started_by_launcher()) {
    // The whole job is this process: MPI's start-up and shutdown (~11 ms with the light
    // singleton above) would be most of a small run's time, and nothing needs MPI.
    threads_multiple_ = true;
    log_set_rank(rank_);
    detail::set_failure_rank(rank_, size_);
    install_crash_report(rank_);
    return;
  }
  if (!init) {
    prefer_light_singleton();
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, several_vsas ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED, &provided);
    owns_mpi_ = true;
    if (provided < MPI_THREAD_FUNNELED)
      fail("the MPI library does not provide MPI_THREAD_FUNNELED, which the proxy needs");
    threads_multiple_ = provided >= MPI_THREAD_MULTIPLE;
  } else {
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    threads_multiple_ = provided >= MPI_THREAD_MULTIPLE;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  log_set_rank(rank_);
  detail::set_failure_rank(rank_, size_);
  install_crash_report(rank_);  // after MPI_Init: replaces MPI's handlers
}

Runtime::~Runtime() {
  if (owns_mpi_) MPI_Finalize();
}

}  // namespace itrt
