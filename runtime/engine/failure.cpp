// Implements failure.h. The first failing thread of a rank wins an atomic flag and prints; later
// failing threads park until the winner ends the process, so a rank prints at most one message.
#include "runtime/engine/failure.h"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <thread>
#include <string>
#include <vector>

namespace itrt {
namespace {

std::atomic<int> g_state{0};  // 0: running, 1: failing (local or remote)
// Set once the failing thread's message is on stderr: only then may the proxy end the process
// (it polls failure_requested()), else a fast proxy could _Exit before the line is written.
std::atomic<bool> g_requested{false};
std::atomic<bool> g_remote{false};
std::atomic<int> g_rank{0};
std::atomic<int> g_size{1};
std::mutex g_hooks_mutex;
std::vector<const detail::FailureHooks*> g_hooks;  // the proxies running now
thread_local std::function<void()> t_collective_failure;
std::function<void()> g_before_finalize;  // set and cleared by the main thread only
std::thread::id g_main_thread;            // the thread that set the rank (the coordinator's)

[[noreturn]] void park_then_exit() {
  // The winning thread is ending the process; if it somehow cannot, do not hang forever.
  std::this_thread::sleep_for(std::chrono::seconds(30));
  std::fflush(nullptr);
  std::_Exit(1);
}

bool mpi_usable() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

// The @Extern block this thread is running, if any (NativeCodeScope).
thread_local const char* t_native_file = nullptr;
thread_local int t_native_line = 0;

// The coordinator statement this thread is running, if any (StatementScope).
thread_local const char* t_statement_where = nullptr;
thread_local const char* t_statement = nullptr;

// `message`, started with the statement's line and name when a StatementScope is open and the
// message does not name that line already.
std::string with_statement(std::string_view message) {
  if (!t_statement_where || message.starts_with(t_statement_where)) return std::string(message);
  std::string out = std::string(t_statement_where) + ": ";
  if (!message.starts_with(std::string(t_statement) + ":")) out += std::string(t_statement) + ": ";
  return out + std::string(message);
}

}  // namespace

StatementScope::StatementScope(const char* where, const char* statement)
    : outer_where_(t_statement_where), outer_statement_(t_statement) {
  t_statement_where = where;
  t_statement = statement;
}

StatementScope::~StatementScope() {
  t_statement_where = outer_where_;
  t_statement = outer_statement_;
}

NativeCodeScope::NativeCodeScope(const char* file, int line) : outer_file_(t_native_file), outer_line_(t_native_line) {
  t_native_file = file;
  t_native_line = line;
}

NativeCodeScope::~NativeCodeScope() {
  t_native_file = outer_file_;
  t_native_line = outer_line_;
}

void detail::native_code_site(const char** file, int* line) {
  *file = t_native_file;
  *line = t_native_line;
}

std::string exception_text(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "out of memory: this process could not allocate the memory it needed (std::bad_alloc); use more "
           "processes or machines, smaller arrays, or check the ranges set in Initialize and the limits on the "
           "process (`ulimit -v`)";
  return e.what();
}

void fail(std::string_view message) {
  if (g_state.exchange(1) != 0) park_then_exit();
  if (!g_remote.load()) {
    std::string where;
    if (t_native_file)
      where =
          " (called from the native code at " + std::string(t_native_file) + ":" + std::to_string(t_native_line) + ")";
    std::string line =
        "itrt: error on rank " + std::to_string(g_rank.load()) + ": " + with_statement(message) + where + "\n";
    std::fputs(line.c_str(), stderr);
  }
  std::fflush(nullptr);
  g_requested.store(true, std::memory_order_release);
  std::vector<const detail::FailureHooks*> hooks;
  {
    std::lock_guard lock(g_hooks_mutex);
    hooks = g_hooks;
  }
  if (!hooks.empty()) {
    // Every running proxy polls the failure flag and runs the abort protocol; poke them all so
    // that the first to see it need not wait out an idle sleep.
    for (auto* h : hooks)
      if (std::this_thread::get_id() == h->proxy_thread) h->abort_all();
    for (auto* h : hooks) h->poke();
    park_then_exit();
  }
  if (g_size.load() > 1 && mpi_usable()) detail::end_job_after_failure();
  std::_Exit(1);
}

void fail_alike(std::string_view message) {
  // A task's own thread (set_collective_failure_handler) runs its Initialize and set-up, which
  // every rank runs alike, as the main thread runs the coordinator.
  if (std::this_thread::get_id() == g_main_thread || t_collective_failure) fail_collective(message);
  fail(message);
}

void fail_collective(std::string_view message) {
  if (g_state.exchange(1) != 0) park_then_exit();
  if (g_rank.load() == 0) {
    std::string line = "itrt: error: " + with_statement(message) + "\n";
    std::fputs(line.c_str(), stderr);
  }
  std::fflush(nullptr);
  if (t_collective_failure) t_collective_failure();  // does not return
  if (g_before_finalize) g_before_finalize();
  // Every rank got here with the same error: finalize cleanly so mpirun reports plain exit codes.
  if (mpi_usable()) MPI_Finalize();
  std::exit(1);
}

namespace detail {

void end_job_after_failure() {
  // OMPI_MCA_orte_hnp_uri is set in the processes Open MPI's mpirun starts (not under srun);
  // orte_abort_on_non_zero_status is the mpirun setting that ends the job on a non-zero exit.
  const char* hnp = std::getenv("OMPI_MCA_orte_hnp_uri");
  const char* ends_job = std::getenv("OMPI_MCA_orte_abort_on_non_zero_status");
  const bool mpirun_ends_job = hnp && *hnp && !(ends_job && std::string(ends_job) == "0");
  std::fflush(nullptr);
  if (!mpirun_ends_job && mpi_usable()) MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

void add_failure_hooks(const FailureHooks* hooks) {
  std::lock_guard lock(g_hooks_mutex);
  g_hooks.push_back(hooks);
}

void remove_failure_hooks(const FailureHooks* hooks) {
  std::lock_guard lock(g_hooks_mutex);
  std::erase(g_hooks, hooks);
}

void set_collective_failure_handler(std::function<void()> handler) { t_collective_failure = std::move(handler); }

bool has_collective_failure_handler() { return static_cast<bool>(t_collective_failure); }

void set_before_finalize(std::function<void()> wait) { g_before_finalize = std::move(wait); }

bool failure_requested() { return g_requested.load(std::memory_order_acquire); }

void note_remote_abort() {
  g_remote.store(true);
  g_state.store(1);
  g_requested.store(true);
}

void set_failure_rank(int rank, int size) {
  g_main_thread = std::this_thread::get_id();
  g_rank.store(rank);
  g_size.store(size);
}

}  // namespace detail
}  // namespace itrt
