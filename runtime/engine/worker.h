// Worker: one OS thread of a rank that owns a fixed list of VDPs and fires those that are ready,
// sleeping on a condition variable when none is (an idle worker must not burn a core). It only
// re-examines *candidate* VDPs (an input arrived, or it just fired), so a wake-up costs O(changed),
// not O(all VDPs).
// Touches MPI only through its proxy (Proxy::post, Proxy::poll_while_idle); must not decide the
// mapping of VDPs.
#pragma once

#include <atomic>
#include "runtime/engine/thread_pool.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace itrt {

class Vdp;
class Proxy;
struct EngineActivity;

namespace detail {
// The engine threads of this process that may be busy now: running workers of every VSA, and
// proxies that poll for messages of other ranks. Workers spin before sleeping only while these
// fit the processors the process has (worker.cpp).
std::atomic<int>& busy_engine_threads();
}  // namespace detail

class Worker {
 public:
  // `local_id`: the thread's number on its rank (0, 1, ...), its trace track.
  // `activity` counts the rank's firings for the watchdog (shared by its workers).
  Worker(int global_id, int local_id, std::vector<Vdp*> vdps, std::vector<int> cpus, Proxy* proxy,
         EngineActivity& activity);
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void start();
  void join();
  // An input of `vdp` (one of ours) changed: re-check it. Callable from any thread.
  void make_candidate(Vdp* vdp);
  // Wake the thread if it sleeps. Callable from any thread.
  void poke();
  int global_id() const { return global_id_; }
  uint64_t firings() const { return firings_; }
  uint64_t sleeps() const { return sleeps_; }

 private:
  void loop();
  bool sweep();                  // fires each ready candidate once; true if any fired
  void end_idle(double now_us);  // IT_TRACE: records the idle span that ends now, if any

  int global_id_;
  int local_id_;
  double idle_since_ = -1;   // IT_TRACE: when the thread found nothing to fire (-1: busy)
  std::string idle_reason_;  // IT_TRACE: the synchronisations its VDPs were waiting at then
  std::vector<Vdp*> vdps_;
  std::vector<int> cpus_;
  Proxy* proxy_;
  EngineActivity& activity_;
  ThreadPool::Job thread_;  // a pool thread pinned to cpus_
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<uint64_t> signal_{0};
  std::atomic<bool> sleeping_{false};
  std::mutex candidates_mutex_;
  std::vector<Vdp*> candidates_;  // guarded by candidates_mutex_
  std::vector<Vdp*> batch_;       // worker thread only
  size_t unfinished_ = 0;         // worker thread only
  uint64_t firings_ = 0;
  uint64_t sleeps_ = 0;
};

}  // namespace itrt
