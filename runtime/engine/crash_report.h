// A program that crashes (an invalid memory access, an arithmetic fault) prints one line saying
// so in the runtime's words, with the IT stage it was running, and exits with status 1, instead
// of dying on the signal with a bare "Segmentation fault" or MPI's backtrace of addresses. The
// usual cause is an index outside an array's part, which only `itc compile --debug` checks.
#pragma once

namespace itrt {

// Installs the handlers of SIGSEGV, SIGBUS, SIGFPE and SIGILL (after MPI_Init, so that they
// replace MPI's own) and gives the calling thread a stack to report from.
void install_crash_report(int rank);
// Gives the calling thread a stack of its own for the report, so that a stack overflow (a huge
// local array, deep recursion in native code) is reported too. Every long-lived thread calls it
// once.
void prepare_thread_for_crash_report();

}  // namespace itrt
