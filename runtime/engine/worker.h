// Worker: one OS thread of a rank that owns a fixed list of VDPs and fires those that are ready,
// sleeping on a condition variable when none is (an idle worker must not burn a core).
// Must not touch MPI (that is the proxy's job) nor decide the mapping of VDPs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace itrt {

class Vdp;
class Proxy;

class Worker {
 public:
  Worker(int global_id, std::vector<Vdp*> vdps, std::vector<int> cpus, Proxy* proxy);
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void start();
  void join();
  // Some input of one of our VDPs changed: re-check readiness. Callable from any thread.
  void poke();
  int global_id() const { return global_id_; }
  uint64_t firings() const { return firings_; }
  uint64_t sleeps() const { return sleeps_; }

 private:
  void loop();
  bool sweep(size_t& unfinished);  // fires each ready VDP at most once; true if any fired

  int global_id_;
  std::vector<Vdp*> vdps_;
  std::vector<int> cpus_;
  Proxy* proxy_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<uint64_t> signal_{0};
  std::atomic<bool> sleeping_{false};
  uint64_t firings_ = 0;
  uint64_t sleeps_ = 0;
};

}  // namespace itrt
