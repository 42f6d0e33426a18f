// Implements program_help.h.
#include "runtime/task/program_help.h"

#include "runtime/support/nearest_name.h"

#include <algorithm>
#include <cstring>

namespace itrt::task {
namespace {

// Every environment variable libitrt reads (grep getenv in runtime/): name, value, effect.
// Keep in step with the getenv calls when adding one.
struct EnvVar {
  const char* name;
  const char* what;
};
constexpr EnvVar kEnvVars[] = {
    {"IT_STATS=1",
     "print the bytes of parts allocated per array and the peak alive at once (per rank) and, on rank 0, the bytes and "
     "messages each synchronisation moved within and between ranks"},
    {"IT_TRACE=FILE",
     "write a Chrome trace / Perfetto JSON timeline of the run to FILE (a track per worker and "
     "main/proxy thread of each rank, a span per stage call, waits, messages); `itc trace FILE "
     "-o FILE.svg` draws it and prints a summary"},
    {"IT_TASKS=1",
     "print on rank 0 when each task starts (which tasks it waited for, which still run beside "
     "it) and ends, with times"},
    {"IT_CONCURRENT_TASKS=0", "run tasks one after the other even when they share no environment object"},
    {"IT_ONE_PROCESS_MPI=1",
     "start MPI also when the program runs as one process without mpirun (by default such a run "
     "does without MPI and its start-up of about 10 ms)"},
    {"IT_PIN=0|1",
     "0: never pin worker threads; 1: pin thread k to the k-th processor even when the machine "
     "model numbers no processors (default: pin only to the model's `Processors`)"},
    {"ITRT_LOG=spec",
     "log levels per subsystem, e.g. `debug` or `engine:debug,proxy:info` (subsystems engine "
     "proxy reduce args pin; levels off error warn info debug trace; default warn)"},
    {"IT_WATCHDOG=s",
     "end a hung run: when no rank has made progress for s seconds (default 300; 0: never), "
     "every rank prints which LPUs wait at which synchronisation (IT line, peer) and all exit "
     "non-zero"},
    {"ITRT_WORKER_SPIN=n",
     "busy-wait n iterations before an idle worker thread sleeps (default 2000 when the engine's "
     "threads have processors of their own, 0 otherwise)"},
    {"ITRT_WORKER_POLL=0",
     "leave messages between processes to the proxy thread (by default worker threads send their "
     "own and an idle one polls for arrivals)"},
    {"OPENBLAS_NUM_THREADS=n",
     "threads of each OpenBLAS call made by stages compiled as gemm/gemv (default 1: every "
     "worker thread already runs LPUs of its own)"},
    {"ITRT_DENSE_STATS=1",
     "print at exit the calls of those stages to BLAS: count, GFLOP, time from the first to the "
     "last and time inside them"},
    {"IT_VERBOSE=1",
     "print, per task, each rank's worker threads and the processors they are pinned to (with a "
     "warning when they outnumber the usable processors) and each space's PPS and LPU count"},
};

// `text` as lines of at most `width` columns, each indented by `indent` spaces.
std::string wrapped(const std::string& text, size_t indent, size_t width) {
  std::string out, line;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
  return out;
}

std::string known_list(const std::vector<ArgSpec>& known) {
  if (known.empty()) return "the program reads no arguments";
  std::string s = "the program reads ";
  for (size_t i = 0; i < known.size(); ++i) s += (i ? ", " : "") + std::string(known[i].key);
  return s;
}

}  // namespace

bool wants_help(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

std::string usage_text(const std::string& program, const std::string& command, int64_t segments,
                       const std::string& machine_file, const std::vector<ArgSpec>* known) {
  std::string s = program + ": a compiled IT program\n\n";
  s += "Usage: mpirun -np N " + command + " key=value ...\n";
  if (segments == 1)
    s += "  N: 1 (machine model `" + machine_file + "` has one memory segment; `" + command +
         " key=value ...` runs it without mpirun)\n\n";
  else
    s += "  N: 1 to " + std::to_string(segments) + " processes (the memory segments of machine model `" + machine_file +
         "`)\n\n";
  if (!known) {
    s += "Arguments: as the program reads them (`key=value`)\n";
  } else if (known->empty()) {
    s += "Arguments: none (the coordinator reads no `args` keys)\n";
  } else {
    s += "Arguments (`args.key` in the coordinator; type it is converted to; IT lines reading it):\n";
    size_t kw = 0, tw = 0;
    for (const auto& a : *known) {
      kw = std::max(kw, std::strlen(a.key) + 6);
      tw = std::max(tw, std::strlen(a.type));
    }
    for (const auto& a : *known) {
      std::string k = std::string(a.key) + "=<...>";
      s += "  " + k + std::string(kw - k.size() + 2, ' ') + a.type + std::string(tw - std::strlen(a.type) + 2, ' ') +
           a.lines + "\n";
    }
  }
  s += "\nEnvironment variables of the runtime:\n";
  for (const auto& e : kEnvVars) s += "  " + std::string(e.name) + "\n" + wrapped(e.what, 6, 80);
  s += "\n--help, -h: print this text and exit.\n";
  return s;
}

std::string nearest_key(const std::string& key, const std::vector<ArgSpec>& known) {
  std::vector<std::string> keys;
  for (const auto& a : known) keys.push_back(a.key);
  return support::nearest_name(key, keys);
}

std::string check_arg_keys(int argc, const char* const* argv, const std::vector<ArgSpec>& known) {
  for (int i = 1; i < argc; ++i) {  // a key given twice is no error: the last one wins (Args)
    const std::string word = argv[i];
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const std::string key = word.substr(0, eq);
    if (std::none_of(known.begin(), known.end(), [&](const ArgSpec& a) { return key == a.key; })) {
      std::string msg = "unknown command-line argument `" + word + "`";
      if (std::string near = nearest_key(key, known); !near.empty()) msg += "; did you mean `" + near + "`?";
      return msg + " (" + known_list(known) + "; see --help)";
    }
  }
  return "";
}

}  // namespace itrt::task
