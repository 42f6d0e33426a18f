// Implements crash_report.h. The handler runs on the thread that faulted, may only call
// async-signal-safe functions, and so composes its line by hand in a fixed buffer and write()s it.
#include "runtime/engine/crash_report.h"

#include "runtime/engine/failure.h"
#include "runtime/engine/trace.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace itrt {
namespace {

std::atomic<int> g_rank{0};
std::atomic<bool> g_reporting{false};

// Appends to a fixed buffer, dropping what does not fit.
struct Line {
  char text[1024];
  size_t size = 0;
  void add(const char* s) {
    for (; s && *s && size < sizeof text - 1; ++s) text[size++] = *s;
  }
  void add(int64_t v) {
    char digits[24];
    int n = 0;
    const bool negative = v < 0;
    uint64_t u = negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    do {
      digits[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u);
    if (negative) add("-");
    while (n > 0 && size < sizeof text - 1) text[size++] = digits[--n];
  }
};

const char* what_happened(int sig) {
  switch (sig) {
    case SIGSEGV: return "an invalid memory access (SIGSEGV)";
    case SIGBUS: return "an invalid memory access (SIGBUS)";
    case SIGFPE: return "an arithmetic fault (SIGFPE)";
    default: return "an illegal instruction (SIGILL)";
  }
}

void report_crash(int sig, siginfo_t*, void*) {
  // A second thread faulting meanwhile waits for the first to end the process.
  if (g_reporting.exchange(true)) {
    for (;;) pause();
  }
  Line line;
  line.add("itrt: error on rank ");
  line.add(g_rank.load());
  line.add(": the program stopped on ");
  line.add(what_happened(sig));
  const trace::RunningStage& stage = trace::running_stage();
  if (stage.site) {
    line.add(" in stage `");
    line.add(stage.site->stage);
    line.add("` of task `");
    line.add(stage.site->task);
    line.add("`, Space ");
    line.add(stage.site->space);
    line.add(", LPU [");
    for (int d = 0; d < stage.dims; ++d) {
      if (d) line.add(", ");
      line.add(stage.lpu[d]);
    }
    line.add("], called at ");
    line.add(stage.site->file);
    line.add(":");
    line.add(static_cast<int64_t>(stage.site->line));
  } else {
    line.add(" outside the program's stages (in the coordinator, an Initialize section or the runtime)");
  }
  const char* native_file = nullptr;
  int native_line = 0;
  detail::native_code_site(&native_file, &native_line);
  if (native_file) {
    line.add(", in the native code at ");
    line.add(native_file);
    line.add(":");
    line.add(static_cast<int64_t>(native_line));
  }
  if (sig == SIGSEGV || sig == SIGBUS)
    line.add(
        "; the usual cause is an index outside an array's part or a list: compile with `itc compile "
        "--debug` to have such an index reported with its line");
  line.add("\n");
  const char* p = line.text;
  size_t left = line.size;
  while (left > 0) {
    const ssize_t n = write(STDERR_FILENO, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<size_t>(n);
  }
  _exit(1);
}

}  // namespace

void prepare_thread_for_crash_report() {
  // Leaked on purpose: the engine's threads live as long as the process.
  static constexpr size_t kBytes = size_t{64} * 1024;
  stack_t alt{};
  alt.ss_sp = new char[kBytes];
  alt.ss_size = kBytes;
  sigaltstack(&alt, nullptr);
}

void install_crash_report(int rank) {
  g_rank.store(rank);
  prepare_thread_for_crash_report();
  struct sigaction action {};
  action.sa_sigaction = report_crash;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &action, nullptr);
}

}  // namespace itrt
