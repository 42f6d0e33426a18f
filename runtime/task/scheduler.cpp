// Implements scheduler.h. Only the coordinator thread launches, settles and joins, so the list of
// tasks in flight needs no lock; a task's thread reports its end under `mutex_`.
#include "runtime/task/scheduler.h"

#include "runtime/engine/failure.h"
#include "runtime/engine/mpi_transport.h"
#include "runtime/support/mpi_calls.h"
#include "runtime/task/program.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace itrt::task {
namespace {

TaskScheduler* g_scheduler = nullptr;
thread_local MPI_Comm t_comm = MPI_COMM_NULL;

// More tasks than this in flight only add threads competing for the same cores: the coordinator
// then waits for the oldest before it launches another.
constexpr size_t kMaxInFlight = 8;

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

bool intersects(const std::vector<const void*>& a, const std::vector<const void*>& b) {
  auto i = a.begin(), j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    if (*i < *j)
      ++i;
    else
      ++j;
  }
  return false;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

int world_rank() { return mpi::rank(MPI_COMM_WORLD); }

}  // namespace

TaskScheduler::TaskScheduler(bool concurrent)
    : concurrent_(concurrent), coordinator_(std::this_thread::get_id()), start_s_(now_s()) {
  const char* log = std::getenv("IT_TASKS");
  log_ = log && std::string(log) == "1" && world_rank() == 0;
  // IT_CONCURRENT_TASKS=0 runs tasks one after the other (to compare, or to rule concurrency out).
  if (const char* c = std::getenv("IT_CONCURRENT_TASKS"); c && std::string(c) == "0") concurrent_ = false;
  g_scheduler = this;
  // An error the coordinator reports on every rank (fail_collective) finalizes MPI: the tasks in
  // flight end first, so that no thread is inside MPI then.
  itrt::detail::set_before_finalize([this] {
    if (std::this_thread::get_id() != coordinator_) return;
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      return std::all_of(running_.begin(), running_.end(), [](auto& t) { return t->done || t->failed; });
    });
  });
}

TaskScheduler::~TaskScheduler() {
  wait_all();
  itrt::detail::set_before_finalize(nullptr);
  if (g_scheduler == this) g_scheduler = nullptr;
}

MPI_Comm TaskScheduler::task_comm() { return t_comm == MPI_COMM_NULL ? MPI_COMM_WORLD : t_comm; }

void TaskScheduler::settle_for_coordinator(const Env& env) {
  TaskScheduler* s = g_scheduler;
  if (!s || std::this_thread::get_id() != s->coordinator_ || s->running_.empty()) return;
  s->settle(env);
}

// Two names of one file compare equal (`./x.txt` and `x.txt`).
static std::string file_key(const std::string& file) {
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(file, ec);
  return ec ? file : p.string();
}

void TaskScheduler::settle_readers_for_coordinator(const std::string& file) {
  TaskScheduler* s = g_scheduler;
  if (!s || std::this_thread::get_id() != s->coordinator_ || s->running_.empty()) return;
  const std::string key = file_key(file);
  s->join_if([&](const InFlight& t) { return std::find(t.reads.begin(), t.reads.end(), key) != t.reads.end(); });
}

bool TaskScheduler::conflicts(const InFlight& t, const Env& env, const std::vector<const void*>& objects) const {
  return t.env == &env || intersects(t.objects, objects);
}

void TaskScheduler::wait_done(InFlight& t) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return t.done || collective_failure_; });
  if (collective_failure_) {
    lock.unlock();
    end_after_collective_failure();
  }
}

std::vector<std::string> TaskScheduler::join_if(const std::function<bool(const InFlight&)>& pick) {
  std::vector<std::string> names;
  for (auto it = running_.begin(); it != running_.end();) {
    if (!pick(**it)) {
      ++it;
      continue;
    }
    wait_done(**it);
    (*it)->thread.join();
    names.push_back((*it)->label);
    it = running_.erase(it);
  }
  return names;
}

std::vector<std::string> TaskScheduler::settle_names(const Env& env) {
  // First the tasks running on `env` itself: until they end, its item map may change under us.
  std::vector<std::string> names = join_if([&](const InFlight& t) { return t.env == &env; });
  const std::vector<const void*> objects = env.footprint();
  for (auto& n : join_if([&](const InFlight& t) { return conflicts(t, env, objects); })) names.push_back(n);
  return names;
}

void TaskScheduler::settle(const Env& env) { settle_names(env); }

void TaskScheduler::wait_all() {
  if (std::this_thread::get_id() != coordinator_) return;
  join_if([](const InFlight&) { return true; });
}

void TaskScheduler::launch(const std::string& task, Env& env, std::function<void()> body) {
  if (!concurrent_) {
    const std::string label = "#" + std::to_string(++launched_) + " `" + task + "`";
    if (log_)
      std::fprintf(stderr, "IT_TASKS %.3f start %s (tasks run one after the other)\n", now_s() - start_s_,
                   label.c_str());
    body();
    if (log_) std::fprintf(stderr, "IT_TASKS %.3f end %s\n", now_s() - start_s_, label.c_str());
    return;
  }
  const std::vector<std::string> after = settle_names(env);
  // Tasks that have ended are joined now, so that the list stays short; then at most
  // kMaxInFlight - 1 others may run beside the new one.
  join_if([&](const InFlight& t) {
    std::lock_guard lock(mutex_);
    return t.done;
  });
  while (running_.size() >= kMaxInFlight) {
    const InFlight* oldest = running_.front().get();
    join_if([&](const InFlight& t) { return &t == oldest; });
  }
  std::vector<std::string> beside;
  for (auto& t : running_) beside.push_back(t->label);

  auto rec = std::make_unique<InFlight>();
  rec->task = task;
  rec->label = "#" + std::to_string(++launched_) + " `" + task + "`";
  rec->env = &env;
  rec->objects = env.footprint();
  for (const std::string& f : env.pending_inputs()) rec->reads.push_back(file_key(f));
  // Collective, so made here: every rank launches in the same order, and no other thread makes
  // communicators (mpi_transport.h: Open MPI deadlocks when threads make them at once).
  MPI_Comm comm = mpi::dup_comm(MPI_COMM_WORLD);
  MpiTransport::prepare_runs(comm);
  if (log_)
    std::fprintf(stderr, "IT_TASKS %.3f start %s after %s; running beside it: %s\n", now_s() - start_s_,
                 rec->label.c_str(), joined(after).c_str(), joined(beside).c_str());
  InFlight* r = rec.get();
  rec->body = std::move(body);
  try {
    rec->thread = ThreadPool::instance().start({}, [this, r, comm]() mutable {
      t_comm = comm;
      itrt::detail::set_collective_failure_handler([this, r] {
        {
          std::lock_guard lock(mutex_);
          r->failed = true;
          collective_failure_ = true;
        }
        changed_.notify_all();
        for (;;) std::this_thread::sleep_for(std::chrono::hours(1));  // the coordinator ends the process
      });
      try {
        r->body();
      } catch (const std::exception& e) {
        fail("task `" + r->task + "`: " + exception_text(e));
      }
      MpiTransport::release_runs(comm);
      mpi::free_comm(comm);
      t_comm = MPI_COMM_NULL;  // the pool's thread may next run a worker, outside any task
      const double end = now_s() - start_s_;
      {
        std::lock_guard lock(mutex_);
        r->done = true;
      }
      changed_.notify_all();
      if (log_) std::fprintf(stderr, "IT_TASKS %.3f end %s\n", end, r->label.c_str());
    });
  } catch (const std::system_error& e) {
    fail("cannot start the thread of task " + rec->label + " (" + exception_text(e) +
         "): raise the process's thread or memory limits");
  }
  running_.push_back(std::move(rec));
}

void TaskScheduler::end_after_collective_failure() {
  // Every rank's copy of the task stopped with the same error (rank 0 printed it). The other tasks
  // in flight do not depend on it: let them end, so that no thread is inside MPI, then finalize
  // as fail_collective does on the main thread. The failed task's thread sleeps until exit.
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    return std::all_of(running_.begin(), running_.end(), [](auto& t) { return t->done || t->failed; });
  });
  lock.unlock();
  std::fflush(nullptr);
  if (mpi::started()) MPI_Finalize();
  std::exit(1);
}

}  // namespace itrt::task
