// A small program for the error-path tests (tests/runtime_engine/check_fail.sh): depending on
// mode=..., one rank fails inside a running VSA, all ranks hit a bad argument, or one rank fails
// outside any run, or the ranks deadlock (mode=hang, for the watchdog). Must print nothing else
// on the error path.
#include "runtime/engine/engine.h"
#include "tests/runtime_engine/watchdog.h"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <thread>

using namespace itrt;

int main(int argc, char** argv) {
  Runtime runtime(argc, argv);
  testing::install_watchdog(45, "fail_program");
  Args args;
  std::string mode;
  int bad_rank = 0;
  try {
    args = Args(argc, argv);
    mode = args.get_string("mode");
    bad_rank = args.has("rank") ? args.get_int("rank") : runtime.size() - 1;
    if (mode == "args") args.get_int("rows");  // the test passes rows=abc
  } catch (const ArgumentError& e) {
    fail_collective(e.what());
  }
  if (mode == "vdp") {
    // Every rank runs a consumer that waits for a packet; the producer on `bad_rank` fails instead
    // of pushing, so every other rank is blocked inside run() when the abort arrives.
    VsaConfig c;
    c.threads_per_rank = 2;
    c.mapping = [](const Tuple& t, int total) { return t[0] == 0 ? t[1] * 2 : (t[1] * 2 + 1) % total; };
    Vsa vsa(std::move(c));
    int n = runtime.size();
    VdpSpec p;
    p.tuple = {0, bad_rank};
    p.counter = 1;
    for (int r = 0; r < n; ++r) p.output(r, {1, r}, 0);
    p.function = [](Vdp&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      fail("deliberate failure in a VDP");
    };
    vsa.insert(std::move(p));
    for (int r = 0; r < n; ++r) {
      VdpSpec k;
      k.tuple = {1, r};
      k.counter = 1;
      k.input(0, {0, bad_rank}, r);
      k.function = [](Vdp& v) { v.pop(0); };
      vsa.insert(std::move(k));
    }
    vsa.run();
    std::puts("unreachable: run returned");
    return 0;
  }
  if (mode == "hang") {
    // A deadlock: every rank's consumer waits for a packet the producer on `bad_rank` never sends.
    // The run's watchdog (IT_WATCHDOG, set short by the test) must report it and end every rank.
    VsaConfig c;
    c.mapping = [](const Tuple& t, int total) { return t[0] == 0 ? t[1] : t[1] % total; };
    Vsa vsa(std::move(c));
    const int n = runtime.size();
    VdpSpec p;
    p.tuple = {0, bad_rank};
    p.label = "producer";
    for (int r = 0; r < n; ++r) p.output(r, {1, r}, 0);
    p.function = [](Vdp&) {};
    vsa.insert(std::move(p));
    for (int r = 0; r < n; ++r) {
      VdpSpec k;
      k.tuple = {1, r};
      k.label = "consumer " + std::to_string(r);
      k.input(0, {0, bad_rank}, r);
      k.function = [](Vdp& v) { v.pop(0); };
      vsa.insert(std::move(k));
    }
    vsa.run();
    std::puts("unreachable: run returned");
    return 0;
  }
  if (mode == "outside") {
    // No VSA is running: the failing rank has no proxy and falls back to MPI_Abort.
    if (runtime.rank() == bad_rank) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      fail("deliberate failure outside a run");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    std::puts("unreachable: barrier passed");
    return 0;
  }
  if (mode == "ok") {
    if (runtime.rank() == 0) std::puts("ok");
    return 0;
  }
  fail_collective("unknown mode '" + mode + "'");
}
