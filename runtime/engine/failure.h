// Errors across ranks: itrt::fail(message) may be called from any thread of any rank; it prints
// one line "itrt: error on rank R: message" (plus where, when called from the program's native
// code) and makes every rank exit non-zero, never hang.
// Must not be used for expected control flow; it does not return.
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

namespace itrt {

// The text of an exception for an error message: its what(), except that running out of memory
// (std::bad_alloc, whose what() is only its name) says so in words.
std::string exception_text(const std::exception& e);

// An error seen by this rank (possibly by this rank only). Prints once, then the proxy broadcasts
// an abort to all ranks; with no proxy running, detail::end_job_after_failure ends the job.
[[noreturn]] void fail(std::string_view message);

// An error of a computation every rank runs alike when it happens on the main thread (the
// coordinator and what it calls: its values are the same on every rank) or on a task's own
// thread (its Initialize), there reported once as fail_collective does; on any other thread (an
// LPU's stage, a function it calls) as fail().
[[noreturn]] void fail_alike(std::string_view message);

// An error every rank detects identically (e.g. a bad command-line argument), called by every
// rank from its main thread (or a task's thread, see set_collective_failure_handler) outside a
// VSA run: only rank 0 prints, all ranks exit with status 1.
[[noreturn]] void fail_collective(std::string_view message);

// Generated code puts one around the IT program's native code (@Extern blocks): fail() called
// from inside names that block's file and line in its message.
class NativeCodeScope {
 public:
  NativeCodeScope(const char* file, int line);
  ~NativeCodeScope();
  NativeCodeScope(const NativeCodeScope&) = delete;
  NativeCodeScope& operator=(const NativeCodeScope&) = delete;

 private:
  const char* outer_file_;
  int outer_line_;
};

// Generated code puts one around a coordinator statement whose errors come from deep inside the
// runtime (`load`, `store`): a failure on this thread then starts with the statement's line and
// name, "prog.it:12: store: ...", unless its message already starts with that line.
class StatementScope {
 public:
  StatementScope(const char* where, const char* statement);
  ~StatementScope();
  StatementScope(const StatementScope&) = delete;
  StatementScope& operator=(const StatementScope&) = delete;

 private:
  const char* outer_where_;
  const char* outer_statement_;
};

namespace detail {

// The proxy of a running VSA registers how to reach it; fail() on another thread then asks it to
// run the abort protocol, and fail() on the proxy thread runs `abort_all` directly.
struct FailureHooks {
  std::thread::id proxy_thread;
  std::function<void()> poke;
  std::function<void()> abort_all;  // must not return
};
// Several VSAs may run at once (tasks that run concurrently): each proxy adds its hooks while it
// runs and removes them when it ends.
void add_failure_hooks(const FailureHooks* hooks);
void remove_failure_hooks(const FailureHooks* hooks);
// On a thread that is not the one that initialised MPI (a task's thread), fail_collective cannot
// finalize MPI itself: after printing it calls this thread's handler, which lets the main thread
// end the process once nothing else uses MPI. The handler must not return.
void set_collective_failure_handler(std::function<void()> handler);
bool has_collective_failure_handler();  // on this thread
// Called by fail_collective on the main thread before it finalizes MPI: waits until no other
// thread of this process is inside MPI (tasks still running end first). Null: nothing to wait for.
void set_before_finalize(std::function<void()> wait);
bool failure_requested();
// Ends this process after a failure that the other ranks may not have seen. Under Open MPI's
// mpirun, which ends the whole job when a process exits non-zero (its default), a plain exit:
// MPI_Abort would add Open MPI's abort banner to the one error line. Under another launcher, or
// with that default turned off, MPI_Abort, so that no rank waits forever for this one.
[[noreturn]] void end_job_after_failure();
// Another rank failed: silence any local message and let the caller exit.
void note_remote_abort();
void set_failure_rank(int rank, int size);
// The @Extern block the calling thread runs (NativeCodeScope), or null; async-signal-safe.
void native_code_site(const char** file, int* line);

}  // namespace detail
}  // namespace itrt
