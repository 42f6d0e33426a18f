// Run traces (IT_TRACE=run.json): per-thread event buffers written, at the end of the program, as
// one Chrome trace-event / Perfetto JSON file by rank 0 — a track per worker thread and per
// main/proxy thread of each rank, spans (VDP firings, stage calls, idle waits, MPI transfers),
// async spans (an LPU waiting at a synchronisation) and flow events (one per channel packet).
// Recording takes no lock: each thread appends to its own buffer, handed over when the thread
// ends. With IT_TRACE unset every hook is one predictable branch on a global flag.
// Must not know IT syntax: stage and synchronisation names arrive as plain labels.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace itrt::trace {

namespace detail {
extern bool g_enabled;
}
// True when IT_TRACE named a file at start(); constant afterwards.
inline bool enabled() { return __builtin_expect(detail::g_enabled, 0); }

// Microseconds since the common origin (taken right after a barrier of all ranks in start()).
double now_us();

// Reads IT_TRACE; when set, checks on rank 0 that the file can be written (a clear error on
// every rank otherwise), aligns the clocks with a barrier and starts recording on the calling
// thread as the rank's main/proxy track. Collective over MPI_COMM_WORLD; call once after MPI is up.
void start(int rank, int size, const std::string& program);
// Gathers every rank's events on rank 0, which writes the file; `extra_members` are extra
// top-level JSON members (`"key": value, ...`, may be empty). Collective; no-op when disabled.
void finish(const std::string& extra_members);

// Records the calling thread's events on track `tid` (0: main/proxy, k: worker k-1) of this
// rank while it lives; the buffer joins the rank's events when it ends.
class ThreadScope {
 public:
  ThreadScope(int tid, const std::string& name);
  ~ThreadScope();
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

 private:
  bool active_ = false;
};

// A complete span ("X") on the calling thread's track; `args` are JSON object members.
void span(const char* cat, std::string name, double begin_us, double end_us, std::string args = {});
// An async span ("b"/"e") with id `id` (one track per id in viewers): an LPU's wait.
void async_begin(uint64_t id, const char* cat, const std::string& name, std::string args);
void async_end(uint64_t id, const char* cat, const std::string& name);
// A fresh id for async spans, unique across ranks.
uint64_t new_id();

// Channels: interned once per run (key = what both ranks of the channel can name it by);
// message `seq` of a channel starts a flow at its push and ends it at its pop.
uint32_t intern_channel(const std::string& key, const char* label);
void flow_send(uint32_t channel, uint64_t seq, size_t bytes);
void flow_receive(uint32_t channel, uint64_t seq, size_t bytes);
// Numbers VSA runs (every rank runs the same VSAs in the same order).
uint64_t next_run();

// Synchronisations the calling thread's LPUs are waiting at (the label of its idle spans).
void wait_pending(const char* label, int delta);
std::string pending_waits();

// JSON string literal of `s` (quotes included); JSON array of numbers.
std::string quoted(const std::string& s);
std::string json_list(const std::vector<int64_t>& v);

// Where a stage call is in the IT program: what its trace span says.
struct StageSite {
  const char* task;
  const char* space;
  const char* stage;
  const char* file;
  int line;
};

// The stage call the calling thread runs now, for the crash report (crash_report.h): its site
// and the first coordinates of its LPU. No site outside stage calls.
struct RunningStage {
  const StageSite* site = nullptr;
  int64_t lpu[4] = {};
  int dims = 0;
};
inline RunningStage& running_stage() {
  thread_local RunningStage stage;
  return stage;
}

// A span around one stage call of one LPU (generated code: one per call site); it also tells
// the crash report which stage runs.
class StageSpan {
 public:
  StageSpan(const StageSite& site, const std::vector<int64_t>& lpu) : outer_(running_stage()) {
    RunningStage& now = running_stage();
    now.site = &site;
    now.dims = static_cast<int>(std::min<size_t>(lpu.size(), 4));
    for (int d = 0; d < now.dims; ++d) now.lpu[d] = lpu[static_cast<size_t>(d)];
    if (enabled()) begin(site, lpu);
  }
  ~StageSpan() {
    if (site_) end();
    running_stage() = outer_;
  }
  StageSpan(const StageSpan&) = delete;
  StageSpan& operator=(const StageSpan&) = delete;

 private:
  void begin(const StageSite& site, const std::vector<int64_t>& lpu);
  void end();
  RunningStage outer_;
  const StageSite* site_ = nullptr;
  const std::vector<int64_t>* lpu_ = nullptr;
  double begin_us_ = 0;
};

}  // namespace itrt::trace
