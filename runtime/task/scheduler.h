// TaskScheduler: `execute` does not wait for the task (the language's semantics). Every rank's
// coordinator launches the same tasks in the same order; a task starts on a thread of its own
// once the tasks in flight that share an environment object with it (the same environment, or
// an array, scalar or list item two environments share, or the item a section view is of) have
// ended. The coordinator waits the same way before it touches an environment (Env calls
// `settle`), so everything it reads follows program order. Each task gets its own duplicate of
// MPI_COMM_WORLD, made in launch order on every rank, so the messages and collectives of tasks
// that run at once never meet. Without MPI_THREAD_MULTIPLE, tasks run one after the other.
#pragma once

#include "runtime/engine/thread_pool.h"

#include <mpi.h>

#include <condition_variable>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace itrt::task {

class Env;

class TaskScheduler {
 public:
  // `concurrent`: tasks may run on threads of their own (MPI provides MPI_THREAD_MULTIPLE).
  explicit TaskScheduler(bool concurrent);
  ~TaskScheduler();  // waits for every task
  TaskScheduler(const TaskScheduler&) = delete;
  TaskScheduler& operator=(const TaskScheduler&) = delete;

  // Coordinator only. Runs `body` (the task's run()) once no conflicting task is in flight.
  void launch(const std::string& task, Env& env, std::function<void()> body);
  // Coordinator only: returns once no task in flight uses `env` or an object it holds.
  void settle(const Env& env);
  void wait_all();
  // The communicator of the task the calling thread runs (MPI_COMM_WORLD outside tasks).
  static MPI_Comm task_comm();
  // Env's hook: settles `env` when the caller is the coordinator thread of the running program
  // (calls from a task's own threads never wait).
  static void settle_for_coordinator(const Env& env);
  // Before the coordinator writes `file` (`store`): waits for the tasks in flight that were
  // launched to read it (an input bound before `execute` is read when the task starts), so that
  // they read what the program wrote before them.
  static void settle_readers_for_coordinator(const std::string& file);

 private:
  struct InFlight {
    std::string task;
    std::string label;  // "#N `task`": the N-th task launched, for IT_TASKS
    const Env* env = nullptr;
    std::vector<const void*> objects;  // sorted: the environment and every object it holds
    std::vector<std::string> reads;    // the input files bound to its items, read when it starts
    std::function<void()> body;        // the task's run, holding its environment: freed only when
                                       // joined, so no other object can take an address in `objects`
    ThreadPool::Job thread;            // a thread of the pool, not pinned
    bool done = false;                 // guarded by mutex_
    bool failed = false;               // guarded by mutex_: stopped in fail_collective
  };
  bool conflicts(const InFlight& t, const Env& env, const std::vector<const void*>& objects) const;
  // Joins the tasks `pick` selects, in launch order; returns their names.
  std::vector<std::string> join_if(const std::function<bool(const InFlight&)>& pick);
  void wait_done(InFlight& t);
  [[noreturn]] void end_after_collective_failure();
  std::vector<std::string> settle_names(const Env& env);

  bool concurrent_;
  // IT_TASKS=1: one line per task on rank 0's stderr when it is launched (with the tasks it
  // waited for and those still running beside it) and when it ends, with times.
  bool log_ = false;
  std::thread::id coordinator_;
  std::list<std::unique_ptr<InFlight>> running_;  // touched by the coordinator thread only
  std::mutex mutex_;
  std::condition_variable changed_;
  bool collective_failure_ = false;  // guarded by mutex_: a task stopped every rank with an error
  double start_s_ = 0;
  int launched_ = 0;
};

}  // namespace itrt::task
