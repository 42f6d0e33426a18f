// Implements the process side of program.h: arguments, machine arithmetic, the one-shot channel
// exchange used between tasks, IT_STATS and environments.
// Must not know IT syntax; the task launch itself is in task_instance.cpp.
#include "runtime/task/program.h"

#include "runtime/engine/mpi_transport.h"
#include "runtime/support/mpi_calls.h"
#include "runtime/engine/pinning.h"
#include "runtime/engine/watchdog.h"
#include "runtime/task/boxes.h"

#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string_view>

namespace itrt::task {

// --- ArgValue ----------------------------------------------------------------------------------

int32_t ArgValue::as_int() const {
  constexpr long long lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  bool outside = false;
  try {
    // Decimal digits with an optional sign, nothing else (stoll would skip leading blanks).
    if (text_.empty() || !(std::isdigit(static_cast<unsigned char>(text_[0])) || text_[0] == '-' || text_[0] == '+'))
      fail_collective("argument `" + key_ + "=" + text_ + "`: expected an Integer");
    size_t used = 0;
    long long v = std::stoll(text_, &used);
    if (used == text_.size() && v >= lo && v <= hi) return static_cast<int32_t>(v);
    outside = used == text_.size();
  } catch (const std::out_of_range&) {
    outside = true;
  } catch (...) {
  }
  if (outside)
    fail_collective("argument `" + key_ + "=" + text_ + "`: outside the range of an Integer (" + std::to_string(lo) +
                    " to " + std::to_string(hi) + ")");
  fail_collective("argument `" + key_ + "=" + text_ + "`: expected an Integer");
}

// A value too small for the type is the nearest one (0 or a subnormal), as in data files; one too
// large is an error, as for Integers.
double ArgValue::as_double() const {
  const char* s = text_.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  // A decimal number, or `nan` / `inf` as text data files write them; strtod alone also takes
  // hexadecimal (`0x10`) and leading blanks.
  std::string lower = text_;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string_view unsigned_part = !lower.empty() && (lower[0] == '-' || lower[0] == '+')
                                             ? std::string_view(lower).substr(1)
                                             : std::string_view(lower);
  const bool decimal = !text_.empty() && text_.find_first_not_of("0123456789+-.eE") == std::string::npos;
  const bool non_finite = unsigned_part == "nan" || unsigned_part == "inf" || unsigned_part == "infinity";
  if (!(decimal || non_finite) || end != s + text_.size())
    fail_collective("argument `" + key_ + "=" + text_ + "`: expected a Real number");
  if (errno == ERANGE && std::isinf(v))
    fail_collective("argument `" + key_ + "=" + text_ + "`: outside the range of a Real double-precision (magnitude " +
                    "at most " + fmt::format("{}", std::numeric_limits<double>::max()) + ")");
  return v;
}

float ArgValue::as_float() const {
  const double v = as_double();
  if (std::isfinite(v) && std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()))
    fail_collective("argument `" + key_ + "=" + text_ + "`: outside the range of a Real single-precision (magnitude " +
                    "at most " + fmt::format("{}", std::numeric_limits<float>::max()) + ")");
  return static_cast<float>(v);
}

bool ArgValue::as_bool() const {
  if (text_ == "1" || text_ == "TRUE" || text_ == "true") return true;
  if (text_ == "0" || text_ == "FALSE" || text_ == "false") return false;
  fail_collective("argument `" + key_ + "=" + text_ + "`: expected a Boolean (1, 0, TRUE or FALSE)");
}

char ArgValue::as_char() const {
  if (text_.size() == 1) return text_[0];
  fail_collective("argument `" + key_ + "=" + text_ + "`: expected a single Character");
}

// --- MachineDesc -------------------------------------------------------------------------------

int64_t MachineDesc::total(int level) const {
  int64_t n = 1;
  for (int l = top; l >= level && l >= 1; --l) n *= fanout[static_cast<size_t>(l)];
  return n;
}

int64_t MachineDesc::per_parent(int level, int above) const {
  if (level >= above) return 1;
  return total(level) / total(above);
}

// --- Program -----------------------------------------------------------------------------------

struct Program::Counters {
  std::mutex mutex;
  std::vector<std::pair<std::string, SyncCounters>> stats;  // in first-use order
  std::map<std::string, uint64_t> memory;                   // bytes allocated for each array's parts, all tasks
};

namespace part_memory {
namespace {
std::atomic<int64_t> live{0};
std::atomic<int64_t> most{0};
}  // namespace
void add(int64_t bytes) {
  const int64_t now = live.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  int64_t seen = most.load(std::memory_order_relaxed);
  while (now > seen && !most.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}
uint64_t peak() { return static_cast<uint64_t>(std::max<int64_t>(most.load(std::memory_order_relaxed), 0)); }
}  // namespace part_memory

namespace {
Program* running = nullptr;  // set by the constructor, cleared by the destructor

// The runtime's switches (listed by --help) read only the values they document; any other value
// is a slip (`IT_STATS=yes`) that would otherwise be ignored without a word.
void warn_about_environment() {
  static const char* const kSwitches[] = {
      "IT_PIN",           "IT_STATS",        "IT_TASKS", "IT_VERBOSE", "IT_CONCURRENT_TASKS", "IT_ONE_PROCESS_MPI",
      "ITRT_WORKER_POLL", "ITRT_DENSE_STATS"};
  for (const char* name : kSwitches)
    if (const char* v = std::getenv(name); v && std::string(v) != "0" && std::string(v) != "1")
      std::fprintf(stderr, "itrt: warning: %s=%s: expected 0 or 1 (see --help)\n", name, v);
  if (const char* v = std::getenv("ITRT_WORKER_SPIN")) {
    const std::string text(v);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
      std::fprintf(stderr, "itrt: warning: ITRT_WORKER_SPIN=%s: expected a number of iterations, 0 or more\n", v);
  }
  if (const char* v = std::getenv("IT_WATCHDOG"); v && *v) {
    char* end = nullptr;
    const double s = std::strtod(v, &end);
    if (*end != '\0' || !std::isfinite(s) || s < 0)
      std::fprintf(stderr, "itrt: warning: IT_WATCHDOG=%s is not a number of seconds; using %g\n", v,
                   kDefaultWatchdogSeconds);
  }
}
}  // namespace

Program& Program::current() {
  if (!running) fail("internal: no program is running");
  return *running;
}

Program::Program(int& argc, char**& argv, MachineDesc machine, std::string program_name,
                 std::optional<std::vector<ArgSpec>> known_args, bool concurrent_tasks)
    : machine_(std::move(machine)), name_(std::move(program_name)), counters_(std::make_unique<Counters>()) {
  running = this;
  runtime_ = std::make_unique<Runtime>(argc, argv, concurrent_tasks, /*mpi_when_alone=*/false);
  scheduler_ = std::make_unique<TaskScheduler>(runtime_->threads_multiple());
  // Help before any check, so that it works whatever else is on the command line; every rank
  // finalizes MPI (runtime_.reset()) so that mpirun sees plain exit statuses.
  if (wants_help(argc, argv)) {
    if (rank() == 0) {
      std::fputs(usage_text(name_, argc > 0 ? argv[0] : "./prog", machine_.segments(), machine_.file,
                            known_args ? &*known_args : nullptr)
                     .c_str(),
                 stdout);
      std::fflush(stdout);
    }
    runtime_.reset();
    std::exit(0);
  }
  if (machine_.segments() < size())
    fail_collective("`mpirun -np " + std::to_string(size()) + "` asks for more processes than the " +
                    (machine_.segments() == 1 ? std::string("one memory segment")
                                              : std::to_string(machine_.segments()) + " memory segments") +
                    " of machine model `" + machine_.file + "`; run with " +
                    (machine_.segments() == 1 ? std::string("one process (no -np, or -np 1)")
                                              : "-np 1 to " + std::to_string(machine_.segments())));
  try {
    args_ = Args(argc, argv);
  } catch (const std::exception& e) {
    fail_collective(exception_text(e));
  }
  if (known_args)
    if (std::string bad = check_arg_keys(argc, argv, *known_args); !bad.empty()) fail_collective(bad);
  if (rank() == 0) warn_about_environment();
  trace::start(rank(), size(), name_);
}

Program::~Program() {
  if (running == this) running = nullptr;
}

ArgValue Program::arg(const std::string& key) const {
  if (!args_.has(key))
    fail_collective("missing command-line argument `" + key + "=...` (the program reads `args." + key + "`)");
  return ArgValue(key, args_.get_string(key));
}

void Program::count(const std::string& sync, bool inter, uint64_t bytes, uint64_t messages) {
  std::lock_guard<std::mutex> lk(counters_->mutex);
  auto it = std::find_if(counters_->stats.begin(), counters_->stats.end(), [&](auto& p) { return p.first == sync; });
  if (it == counters_->stats.end()) {
    counters_->stats.push_back({sync, {}});
    it = counters_->stats.end() - 1;
  }
  if (inter) {
    it->second.inter_bytes += bytes;
    it->second.inter_messages += messages;
  } else {
    it->second.intra_bytes += bytes;
    it->second.intra_messages += messages;
  }
}

void Program::note_memory(const std::string& what, uint64_t bytes) {
  std::lock_guard<std::mutex> lk(counters_->mutex);
  counters_->memory[what] += bytes;
}

std::vector<std::vector<std::byte>> Program::exchange(const std::string& sync,
                                                      const std::vector<std::vector<char>>& pairs,
                                                      std::vector<std::vector<std::byte>> send, MPI_Comm comm) {
  const int n = size(), me = rank();
  std::vector<std::vector<std::byte>> recv(static_cast<size_t>(n));
  bool any = false;
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d)
      if (pairs[s][d] && s != d) any = true;
  if (!any) return recv;
  struct State {
    std::vector<std::vector<std::byte>>* send;
    std::vector<std::vector<std::byte>>* recv;
  };
  VsaConfig cfg;
  cfg.threads_per_rank = 1;
  cfg.mapping = [](const Tuple& t, int) { return static_cast<int>(t[0]); };
  cfg.transport = transport_for(comm);
  Vsa vsa(std::move(cfg));
  for (int r = 0; r < n; ++r) {
    VdpSpec spec;
    spec.tuple = Tuple{r};
    bool has_in = false;
    for (int s = 0; s < n; ++s)
      if (s != r && pairs[s][r]) {
        spec.input(s, Tuple{s}, r, false, sync.c_str());
        has_in = true;
      }
    for (int d = 0; d < n; ++d)
      if (d != r && pairs[r][d]) spec.output(d, Tuple{d}, r, sync.c_str());
    if (trace::enabled()) spec.label = "rank " + std::to_string(r) + " exchange";
    spec.counter = has_in ? 2 : 1;
    spec.local = State{&send, &recv};
    std::vector<int> ins, outs;
    for (int s = 0; s < n; ++s)
      if (s != r && pairs[s][r]) ins.push_back(s);
    for (int d = 0; d < n; ++d)
      if (d != r && pairs[r][d]) outs.push_back(d);
    spec.function = [ins, outs](Vdp& v) {
      State& st = v.local<State>();
      if (v.fired() == 0) {
        for (int d : outs) {
          auto& b = (*st.send)[static_cast<size_t>(d)];
          v.push(d, Packet::copy_of(b.empty() ? nullptr : b.data(), b.size()));
        }
        for (int s : ins) v.channel_on(s);
      } else {
        for (int s : ins) {
          PacketRef p = v.pop(s);
          auto* b = static_cast<const std::byte*>(p->data());
          (*st.recv)[static_cast<size_t>(s)].assign(b, b + p->size());
        }
      }
    };
    vsa.insert(std::move(spec));
  }
  const double begin = trace::enabled() ? trace::now_us() : 0;
  vsa.run();
  if (trace::enabled()) trace::span("task", sync, begin, trace::now_us());
  for (int d = 0; d < n; ++d)
    if (d != me && pairs[me][d]) count(sync, true, send[static_cast<size_t>(d)].size(), 1);
  return recv;
}

void Program::finish() {
  scheduler_->wait_all();
  for (auto& f : at_exit) f();
  at_exit.clear();
  const char* st = std::getenv("IT_STATS");
  const bool print_stats = st && std::string(st) == "1";
  if (!print_stats && !trace::enabled()) return;
  const std::vector<SyncTotals> summed = gather_sync_counters();
  if (trace::enabled()) {
    // The trace carries the same per-synchronisation totals as IT_STATS (`itc trace` prints them).
    std::string syncs;
    for (auto& [name, v] : summed)
      syncs +=
          fmt::format(R"({}{{"name":{},"intra_bytes":{},"intra_messages":{},"inter_bytes":{},"inter_messages":{}}})",
                      syncs.empty() ? "" : ",\n", trace::quoted(name), v[0], v[1], v[2], v[3]);
    trace::finish("\"itcSyncs\":[\n" + syncs + "\n]");
  }
  if (!print_stats) return;
  print_stats_lines(summed);
}

std::vector<Program::SyncTotals> Program::gather_sync_counters() {
  // Ranks may have met different synchronisations (a rank without traffic in one never names
  // it), so rank 0 sums the lines by name: every rank sends "name\tn1\tn2\tn3\tn4\n" lines.
  std::string mine;
  for (auto& [name, c] : counters_->stats)
    mine += name + "\t" + std::to_string(c.intra_bytes) + "\t" + std::to_string(c.intra_messages) + "\t" +
            std::to_string(c.inter_bytes) + "\t" + std::to_string(c.inter_messages) + "\n";
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<size_t>(size())), offs(static_cast<size_t>(size()));
  mpi::gather(&len, 1, MPI_INT, lens.data(), 0, MPI_COMM_WORLD);
  std::string all;
  if (rank() == 0) {
    int total_len = 0;
    for (int r = 0; r < size(); ++r) {
      offs[static_cast<size_t>(r)] = total_len;
      total_len += lens[static_cast<size_t>(r)];
    }
    all.resize(static_cast<size_t>(std::max(total_len, 1)));
  }
  mpi::gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), 0, MPI_COMM_WORLD);
  std::vector<SyncTotals> summed;  // rank 0's order, then new names
  if (rank() == 0) {
    size_t pos = 0;
    const size_t end = static_cast<size_t>(offs.back()) + static_cast<size_t>(lens.back());
    while (pos < end) {
      size_t nl = all.find('\n', pos);
      std::string line = all.substr(pos, nl - pos);
      pos = nl + 1;
      size_t tab = line.find('\t');
      std::string name = line.substr(0, tab);
      std::array<uint64_t, 4> v{};
      size_t at = tab + 1;
      for (auto& x : v) {
        size_t next = line.find('\t', at);
        x = std::stoull(line.substr(at, next == std::string::npos ? std::string::npos : next - at));
        at = next + 1;
      }
      auto it = std::find_if(summed.begin(), summed.end(), [&](auto& e) { return e.first == name; });
      if (it == summed.end())
        summed.push_back({name, v});
      else
        for (int k = 0; k < 4; ++k) it->second[static_cast<size_t>(k)] += v[static_cast<size_t>(k)];
    }
  }
  return summed;
}

void Program::print_stats_lines(const std::vector<SyncTotals>& summed) {
  const uint64_t peak = part_memory::peak();
  // Per array memory of every rank.
  std::string mem;
  for (auto& [what, bytes] : counters_->memory) mem += " " + what + "=" + std::to_string(bytes);
  for (int r = 0; r < size(); ++r) {
    if (r == rank()) {
      std::fprintf(stderr, "IT_STATS rank %d memory:%s peak=%llu\n", r, mem.c_str(),
                   static_cast<unsigned long long>(peak));
      std::fflush(stderr);
    }
    mpi::barrier(MPI_COMM_WORLD);
  }
  if (rank() != 0) return;
  std::fprintf(stderr, "IT_STATS %s: %d ranks\n", name_.c_str(), size());
  std::fprintf(stderr, "IT_STATS %-48s %14s %10s %14s %10s\n", "synchronisation", "intra-bytes", "intra-msgs",
               "inter-bytes", "inter-msgs");
  // Per task: the sum of its synchronisations (names are `task T: ...`).
  std::vector<std::pair<std::string, std::array<uint64_t, 4>>> tasks;
  for (auto& [name, v] : summed) {
    std::string task = name.substr(0, name.find(':'));
    auto it = std::find_if(tasks.begin(), tasks.end(), [&](auto& t) { return t.first == task; });
    if (it == tasks.end()) {
      tasks.push_back({task, {0, 0, 0, 0}});
      it = tasks.end() - 1;
    }
    for (int k = 0; k < 4; ++k) it->second[static_cast<size_t>(k)] += v[static_cast<size_t>(k)];
  }
  auto line = [](const std::string& what, const std::array<uint64_t, 4>& t) {
    std::fprintf(stderr, "IT_STATS %-48s %14llu %10llu %14llu %10llu\n", what.c_str(),
                 static_cast<unsigned long long>(t[0]), static_cast<unsigned long long>(t[1]),
                 static_cast<unsigned long long>(t[2]), static_cast<unsigned long long>(t[3]));
  };
  for (auto& [task, t] : tasks) line(task + " (all)", t);
  for (auto& [name, v] : summed) line(name, v);
}

// --- Env ---------------------------------------------------------------------------------------

// Every rank reads `file`, rank 0 first: a `store` rank 0 made before has then finished (no rank
// reads a file half written, or not there yet), and every rank stops alike, with rank 0's message
// after `what`, when the file is bad. Collective on MPI_COMM_WORLD: the coordinator's thread only.
// Rank 0's outcome (`ok`, and `error` when not) on every rank.
static void share_root_outcome(Program& prog, int& ok, std::string& error) {
  if (prog.size() <= 1) return;
  uint64_t n = error.size();
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  error.resize(static_cast<size_t>(n));
  MPI_Bcast(error.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
}

void write_on_root(Program& prog, const std::string& file, const std::function<void()>& write) {
  std::string error;
  int ok = 1;
  if (prog.rank() == 0) {
    try {
      write();
    } catch (const std::exception& e) {
      ok = 0;
      error = exception_text(e);
    }
  }
  share_root_outcome(prog, ok, error);
  if (ok) return;
  // The data layer's messages start with the file's name: it is named once.
  if (file.empty()) fail_collective("writing an output: the file name is empty");
  const std::string named = file + ": ";
  fail_collective("writing `" + file + "`: " + (error.rfind(named, 0) == 0 ? error.substr(named.size()) : error));
}

// Why rank 0 could not create `file` now (its directory missing or not writable, or the file a
// directory or read-only), or "".
static std::string unwritable_reason(const std::string& file) {
  if (file.empty()) return "the file name is empty";
  const std::filesystem::path path(file);
  const std::filesystem::path dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "it is a directory";
  if (!std::filesystem::is_directory(dir, ec)) return "the directory `" + dir.string() + "` does not exist";
  if (std::filesystem::exists(path, ec) && access(path.c_str(), W_OK) != 0) return "the file is read-only";
  // The file is written beside itself and renamed into place (atomic_output.h): the directory
  // must take a new file, which only making one shows (`/proc` passes access(2)).
  std::string probe = (dir / ".itrt-output-check-XXXXXX").string();
  const int fd = mkstemp(probe.data());
  if (fd < 0) return "the directory `" + dir.string() + "` takes no new file: " + std::strerror(errno);
  close(fd);
  unlink(probe.c_str());
  return "";
}

std::string input_label(const ArrayData& a, const std::string& item, const std::string& task) {
  return (a.input_site.empty() ? std::string() : a.input_site + ": ") + "input for `" + item + "` of task `" + task +
         "`";
}

void check_output_writable(Program& prog, const std::string& file, const std::string& what) {
  std::string error;
  int ok = 1;
  if (prog.rank() == 0) {
    error = unwritable_reason(file);
    ok = error.empty();
  }
  share_root_outcome(prog, ok, error);
  if (!ok)
    fail_collective(what + ": cannot write `" + file + "`: " + error +
                    "; give a path the program can write (checked before any task computes the output)");
}

static DataCollection read_on_every_rank(const std::string& file, const ElementCodec& codec,
                                         const FileExpectation& expect, const std::string& what) {
  Program& prog = Program::current();
  DataCollection c;
  std::string error;
  int ok = 1;
  if (prog.rank() == 0) {
    try {
      c = read_data_file(file, codec, expect);
    } catch (const std::exception& e) {
      ok = 0;
      error = exception_text(e);
    }
  }
  share_root_outcome(prog, ok, error);
  if (!ok) fail_collective(what + error);
  if (prog.rank() != 0) {
    try {
      c = read_data_file(file, codec, expect);
    } catch (const std::exception& e) {
      fail(what + exception_text(e) + " (rank 0 read the file without error)");  // e.g. not on a shared file system
    }
  }
  return c;
}

// (In a task's set-up, possibly on a task's thread beside the coordinator's MPI calls: no
// collective here. Every rank reads the same input file, which the run does not write.)
DataCollection Env::read_list_file(const std::string& item, const std::string& file, const ElementCodec& codec,
                                   const FileExpectation& expect) {
  try {
    return read_data_file(file, codec, expect);
  } catch (const std::exception& e) {
    fail_collective("input for list `" + item + "` of task `" + task_ + "`: " + exception_text(e));
  }
}

void write_collection(Program& prog, const DataCollection& c, const ElementCodec& codec, const std::string& file) {
  write_on_root(prog, file, [&] { write_data_file(file, codec, c); });
}

void store_collection(Program& prog, const DataCollection& c, const ElementCodec& codec, const std::string& file) {
  prog.note_stored(file);
  write_collection(prog, c, codec, file);
}

void Program::note_stored(const std::string& file) {
  stored_files_.insert(file);
  if (auto o = output_owners.find(file); o != output_owners.end()) warn_store_overwritten(file, o->second.first);
}

void Program::note_bound_output(const std::string& file, const std::string& owner) {
  if (stored_files_.count(file)) warn_store_overwritten(file, owner);
}

void Program::warn_store_overwritten(const std::string& file, const std::string& owner) {
  if (!overwrite_warned_.insert(file).second || rank() != 0) return;
  std::fprintf(stderr,
               "itrt: warning: `%s` is written by `store` and is also bound as the output of %s: the bound output "
               "is written when the program ends and replaces what `store` wrote; use different files to keep "
               "both\n",
               file.c_str(), owner.c_str());
}

DataCollection load_collection(const ElementCodec& codec, const std::string& file, const FileExpectation& expect) {
  return read_on_every_rank(file, codec, expect, "load: ");
}

void Env::fail_no_value(const std::string& item, const char* where) const {
  fail_alike((where ? std::string(where) + ": " : std::string()) + "environment item `" + item + "` of task `" + task_ +
             "` has no value (no task has produced it and nothing was assigned to it)");
}

void Env::fail_per_lpu(const std::string& item, const char* where, const std::string& space) const {
  fail_alike(std::string(where) + ": environment item `" + item + "` of task `" + task_ +
             "` is a Reduction result made per LPU of " + space +
             ", which had several LPUs: there is no one value to read here; reduce into `Space Root: " + item +
             "` to read it in the coordinator");
}

std::vector<std::string> Env::pending_inputs() const {
  std::vector<std::string> files;
  for (auto& [item, a] : arrays_)
    if (a && !a->pending_input.empty()) files.push_back(a->pending_input);
  return files;
}

std::vector<const void*> Env::footprint() const {
  std::vector<const void*> objects{this};
  for (auto& [item, a] : arrays_)
    for (const ArrayData* d = a.get(); d; d = d->section ? d->section->of.get() : nullptr) objects.push_back(d);
  for (auto& [item, s] : scalars_) objects.push_back(s.get());
  for (auto& [item, l] : lists_) objects.push_back(l.get());
  std::erase(objects, nullptr);
  std::sort(objects.begin(), objects.end());
  return objects;
}

void Env::share(const std::string& item, Env& other, const std::string& other_item) {
  settle();
  other.settle();
  auto& list = other.lists_[other_item];
  if (!list) list = std::make_shared<ListData>();
  lists_[item] = list;
  auto& src = other.arrays_[other_item];
  if (!src) {  // created later by a task of `other`: shared then
    src = std::make_shared<ArrayData>();
    src->name = other_item;
  }
  arrays_[item] = src;
}

void Env::share_scalar(const std::string& item, Env& other, const std::string& other_item) {
  settle();
  other.settle();
  auto& src = other.scalars_[other_item];
  if (!src) src = std::make_shared<ScalarData>();  // given a value later: shared then
  scalars_[item] = src;
}

void Env::section(const std::string& item, Env& other, const std::string& other_item, std::vector<SectionDim> dims,
                  const char* where) {
  settle();
  other.settle();
  auto& of = other.arrays_[other_item];
  if (!of) {  // produced later by a task of `other`
    of = std::make_shared<ArrayData>();
    of->name = other_item;
  }
  auto view = std::make_shared<ArrayData>();
  view->name = item;
  if (of->section) {
    // A view of a view is a view of the array underneath: a view keeps that array's indices,
    // so this section's ranges are in them already; a dimension the outer view dropped stays
    // dropped, and `...` keeps the outer view's range.
    const Section& outer = *of->section;
    std::vector<SectionDim> composed;
    size_t next = 0;
    for (size_t d = 0; d < outer.dims.size() || next < dims.size(); ++d) {
      const SectionDim o = d < outer.dims.size() ? outer.dims[d] : SectionDim{};
      if (o.kind == SectionDim::index) {
        composed.push_back(o);
        continue;
      }
      const SectionDim mine = next < dims.size() ? dims[next] : SectionDim{};
      ++next;
      if (o.kind == SectionDim::range && mine.kind != SectionDim::whole) {
        const int64_t lo = std::min(o.first, o.last), hi = std::max(o.first, o.last);
        // An index item (`b.m[2]`) names one index, in `first`.
        const int64_t last = mine.kind == SectionDim::index ? mine.first : mine.last;
        for (int64_t i : {mine.first, last})
          if (i < lo || i > hi)
            fail_collective((where && *where ? std::string(where) + ": " : std::string()) + "environment item `" +
                            item + "` of task `" + task_ + "`: index " + std::to_string(i) + " of dimension " +
                            std::to_string(next) + " is outside the view `" + other_item + "` it is taken from (" +
                            std::to_string(o.first) + "..." + std::to_string(o.last) + ")");
      }
      composed.push_back(mine.kind == SectionDim::whole ? o : mine);
    }
    view->section = std::make_shared<const Section>(Section{outer.of, std::move(composed), where});
  } else {
    view->section = std::make_shared<const Section>(Section{of, std::move(dims), where});
  }
  arrays_[item] = view;
}

RangeValue Env::range(Program& prog, const std::string& item, int dims, int d, const ElementCodec& codec) {
  settle();
  auto& a = arrays_[item];
  if (a && a->section) {
    // The section's own ranges: those of its subscripts, the dropped dimensions left out.
    const ArrayData& of = *a->section->of;
    int k = -1;
    for (size_t i = 0; i < of.ranges.size(); ++i) {
      const SectionDim sd = i < a->section->dims.size() ? a->section->dims[i] : SectionDim{};
      if (sd.kind == SectionDim::index || ++k != d) continue;
      if (sd.kind == SectionDim::range)
        return RangeValue{static_cast<int32_t>(sd.first), static_cast<int32_t>(sd.last)};
      return RangeValue{static_cast<int32_t>(of.ranges[i].min), static_cast<int32_t>(of.ranges[i].max)};
    }
    fail_collective("environment item `" + item + "` of task `" + task_ + "` is a view of a section of `" + of.name +
                    "`, which has no dimension " + std::to_string(d + 1) + " yet");
  }
  if (a && !a->has_ranges && !a->pending_input.empty()) {
    // Bound to an input no task has read yet: its shape comes from the file.
    FileExpectation expect;
    expect.kind = Collection::array;
    expect.rank = dims;
    std::vector<int64_t> lengths(static_cast<size_t>(dims), 0);
    std::string error;
    try {
      if (boxes::extension(a->pending_input) == ".bin") {
        lengths = read_array_shape(MPI_COMM_WORLD, a->pending_input, codec, expect);
      } else if (prog.rank() == 0) {
        lengths = read_data_file(a->pending_input, codec, expect).shape;
      }
    } catch (const std::exception& e) {
      error = exception_text(e);
    }
    int bad = error.empty() ? 0 : 1;
    mpi::allreduce_in_place(&bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) fail_collective(input_label(*a, item, task_) + ": " + (error.empty() ? "unreadable" : error));
    mpi::bcast(lengths.data(), dims, MPI_INT64_T, 0, MPI_COMM_WORLD);
    a->ranges.clear();
    for (int64_t n : lengths) a->ranges.push_back(DimRange{0, n - 1});
    a->dims = dims;
    a->has_ranges = true;
    // The element type too: a view of the item may be linked before any task reads the file.
    a->elem_size = codec.memory_size();
    a->codec = &codec;
  }
  if (!a || !a->has_ranges || d >= static_cast<int>(a->ranges.size()))
    fail_collective("environment item `" + item + "` of task `" + task_ + "` has no dimension " +
                    std::to_string(d + 1) + " yet: no task has created or produced it, and no input is bound to it");
  const DimRange& r = a->ranges[static_cast<size_t>(d)];
  return RangeValue{static_cast<int32_t>(r.min), static_cast<int32_t>(r.max)};
}

void Env::bind_input(Program&, const std::string& item, const std::string& file, const char* where) {
  settle();
  // (An empty name would read as "no input bound", reported only when a task links the item.)
  if (file.empty())
    fail_collective((where ? std::string(where) + ": " : std::string()) + "the input file name for `" + item +
                    "` of task `" + task_ + "` is empty; give the path of a data file (`.txt` or `.bin`)");
  // The file gives the item an array of its own, as `env.x = a` does: an environment that shared
  // the old one (`k.x = env.x`), or viewed it, keeps it; a view is no longer one.
  auto& a = arrays_[item];
  a = std::make_shared<ArrayData>();
  a->name = item;
  a->pending_input = file;
  a->input_site = where ? where : "";
  a->has_ranges = false;
}

}  // namespace itrt::task
