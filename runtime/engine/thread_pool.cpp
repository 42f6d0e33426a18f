// Implements thread_pool.h. Each pooled thread has its own mutex and condition variable: the
// starter hands it a job and wakes it, join() waits for `done`. Idle threads are listed per set
// of processors, so a worker always finds a thread already pinned where the machine model puts it.
#include "runtime/engine/thread_pool.h"

#include "runtime/engine/crash_report.h"
#include "runtime/engine/failure.h"
#include "runtime/engine/pinning.h"
#include "runtime/engine/worker.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace itrt {

class PooledThread {
 public:
  explicit PooledThread(std::vector<int> cpus) : cpus_(std::move(cpus)) {
    std::thread([this] { loop(); }).detach();  // lives as long as the process: the pool is never destroyed
  }

  const std::vector<int>& cpus() const { return cpus_; }

  void run(std::function<void()> job) {
    {
      std::lock_guard lock(mutex_);
      job_ = std::move(job);
      done_ = false;
      has_job_.store(true, std::memory_order_release);
    }
    cv_.notify_all();
  }

  void wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return done_; });
  }

 private:
  void loop() {
    prepare_thread_for_crash_report();
    if (!cpus_.empty()) pin_current_thread(cpus_);
    std::unique_lock lock(mutex_);
    for (;;) {
      if (!job_) {
        lock.unlock();
        spin_for_job();
        lock.lock();
      }
      cv_.wait(lock, [&] { return static_cast<bool>(job_); });
      has_job_.store(false, std::memory_order_relaxed);
      std::function<void()> job = std::move(job_);
      job_ = nullptr;
      lock.unlock();
      job();
      job = nullptr;  // whatever the job holds is released before join() returns
      // Thread-local state a job may leave behind is the job's own, not the next one's.
      detail::set_collective_failure_handler(nullptr);
      lock.lock();
      done_ = true;
      cv_.notify_all();
    }
  }

  // A coordinator loop of small tasks hands the next job out tens of microseconds after the last
  // ended, and waking a sleeping thread costs about as much on a VM: a loop of one-worker tasks
  // ran 2x faster when the thread spun first.
  void spin_for_job() {
    spin_while([&] { return !has_job_.load(std::memory_order_acquire); });
  }

  std::vector<int> cpus_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::function<void()> job_;  // guarded by mutex_
  bool done_ = true;           // guarded by mutex_
  std::atomic<bool> has_job_{false};
};

struct ThreadPool::State {
  std::mutex mutex;
  std::map<std::vector<int>, std::vector<PooledThread*>> idle;  // guarded by mutex
};

void spin_while(const std::function<bool()>& waiting) {
  // `pause` steps (40-140 cycles each): 50-150 microseconds.
  constexpr int kSpins = 3000;
  auto& busy = detail::busy_engine_threads();
  if (busy.fetch_add(1, std::memory_order_relaxed) + 2 <= processors_per_process())
    for (int spin = 0; spin < kSpins && waiting(); ++spin) cpu_relax();
  busy.fetch_sub(1, std::memory_order_relaxed);
}

ThreadPool& ThreadPool::instance() {
  static ThreadPool* pool = new ThreadPool;  // never destroyed (see the header)
  return *pool;
}

ThreadPool::State& ThreadPool::state() {
  static State* s = new State;
  return *s;
}

ThreadPool::Job ThreadPool::start(const std::vector<int>& cpus, std::function<void()> job) {
  // The processors the process may use are read once, from the affinity of a thread that is not
  // pinned: the caller's, before the first pool thread pins itself (read by a pinned worker, every
  // worker would count one processor and never spin: the LU benchmark's one-process run took
  // 0.20 s instead of 0.11 s).
  (void)processors_per_process();
  PooledThread* t = nullptr;
  {
    std::lock_guard lock(state().mutex);
    auto it = state().idle.find(cpus);
    if (it != state().idle.end() && !it->second.empty()) {
      t = it->second.back();
      it->second.pop_back();
    }
  }
  if (!t) t = new PooledThread(cpus);  // std::thread throws std::system_error when it cannot
  t->run(std::move(job));
  return Job(t);
}

void ThreadPool::give_back(PooledThread* t) {
  std::lock_guard lock(state().mutex);
  state().idle[t->cpus()].push_back(t);
}

ThreadPool::Job::Job(Job&& o) noexcept : thread_(std::exchange(o.thread_, nullptr)) {}

ThreadPool::Job& ThreadPool::Job::operator=(Job&& o) noexcept {
  if (this != &o) {
    if (thread_) join();
    thread_ = std::exchange(o.thread_, nullptr);
  }
  return *this;
}

ThreadPool::Job::~Job() {
  if (thread_) join();
}

void ThreadPool::Job::join() {
  PooledThread* t = std::exchange(thread_, nullptr);
  if (!t) return;
  t->wait();
  ThreadPool::instance().give_back(t);
}

}  // namespace itrt
