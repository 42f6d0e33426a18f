// ThreadPool: the threads of the runtime's workers and tasks, kept between uses. A coordinator
// loop of small tasks (a conjugate-gradient iteration is four `execute`s) started and pinned a
// task thread and every worker thread anew for each task: about 0.1 ms of thread creation,
// pinning and teardown per `execute` on a 2-core VM. Here a thread that ends its job waits for
// the next one that asks for the same processors, already pinned to them.
// Knows nothing of tasks or VSAs: it runs functions.
#pragma once

#include <functional>
#include <vector>

namespace itrt {

class PooledThread;

// Busy-waits a little (up to ~0.1 ms) while `waiting()` holds, before the caller sleeps on its
// condition variable: only while a processor stays free for the thread that will end the wait
// (the spinner counts as a busy engine thread meanwhile), so on 2 cores one thread spins, not the
// three a task of two workers gives back at once.
void spin_while(const std::function<bool()>& waiting);

class ThreadPool {
 public:
  // One job on a pool thread; join() waits for it to end and gives the thread back.
  class Job {
   public:
    Job() = default;
    Job(Job&&) noexcept;
    Job& operator=(Job&&) noexcept;
    ~Job();  // joins
    bool joinable() const { return thread_ != nullptr; }
    void join();

   private:
    friend class ThreadPool;
    explicit Job(PooledThread* t) : thread_(t) {}
    PooledThread* thread_ = nullptr;
  };

  // The process's pool. Never destroyed: idle threads wait until the process ends, and a thread
  // whose job never ends (a task stopped by an error) keeps it until then.
  static ThreadPool& instance();

  // Runs `job` on an idle thread pinned to `cpus` (none: not pinned), or on a new one.
  // Throws std::system_error when no thread can be created.
  Job start(const std::vector<int>& cpus, std::function<void()> job);

 private:
  ThreadPool() = default;
  void give_back(PooledThread* t);
  struct State;
  State& state();
};

}  // namespace itrt
