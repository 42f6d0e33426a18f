// Implements trace.h. Events are kept per thread as small structs and turned into JSON text only
// at finish(); rank 0 gathers every rank's text and gives each channel message (run, channel,
// sequence number) one flow id, so the push on one rank and the pop on another match exactly.
#include "runtime/engine/trace.h"

#include "runtime/engine/failure.h"
#include "runtime/support/mpi_calls.h"

#include <fmt/format.h>
#include <mpi.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

namespace itrt::trace {

namespace detail {
bool g_enabled = false;
}

namespace {

using Clock = std::chrono::steady_clock;

struct Event {
  char ph;          // X (span), b/e (async span), s/f (flow start/end)
  const char* cat;  // static string
  double ts, dur;
  std::string name;
  std::string args;  // JSON object members, without braces
  uint64_t id = 0;   // async spans
  uint32_t channel = 0;
  uint64_t seq = 0;  // flows: message number on the channel
};

struct ThreadBuffer {
  int tid = 0;
  std::vector<Event> events;
  std::map<std::string, int> pending;  // synchronisation label -> LPUs of this thread waiting
};

struct State {
  Clock::time_point origin;
  std::string file;
  std::string program;
  int rank = 0, size = 1;
  std::mutex mutex;  // guards what follows: taken when a thread ends or a channel is interned
  std::vector<ThreadBuffer> finished;
  std::map<int, std::string> thread_names;
  std::vector<std::string> channels;  // interned keys
  std::vector<std::string> channel_labels;
  std::atomic<uint64_t> next_id{1};
  uint64_t runs = 0;  // main thread only
};

State& state() {
  static State s;
  return s;
}

thread_local ThreadBuffer* t_buffer = nullptr;

void append_escaped(std::string& out, const std::string& s) {
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else
          out += c;
    }
  }
}

// One rank's events as JSON lines (each ending with ",\n"); flow ids are left as @F<key>@
// placeholders for rank 0 to number.
std::string rank_text(State& s) {
  std::string out;
  out += fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"tid":0,"args":{{"name":"rank {}"}}}},)", s.rank,
                     s.rank) +
         "\n";
  out += fmt::format(R"({{"ph":"M","name":"process_sort_index","pid":{},"tid":0,"args":{{"sort_index":{}}}}},)", s.rank,
                     s.rank) +
         "\n";
  for (auto& [tid, name] : s.thread_names) {
    out += fmt::format(R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":{}}}}},)", s.rank, tid,
                       quoted(name)) +
           "\n";
    out += fmt::format(R"({{"ph":"M","name":"thread_sort_index","pid":{},"tid":{},"args":{{"sort_index":{}}}}},)",
                       s.rank, tid, tid) +
           "\n";
  }
  for (ThreadBuffer& b : s.finished) {
    for (const Event& e : b.events) {
      out += fmt::format(R"({{"ph":"{}","cat":"{}","name":{},"pid":{},"tid":{},"ts":{:.3f})", e.ph, e.cat,
                         quoted(e.name), s.rank, b.tid, e.ts);
      if (e.ph == 'X') out += fmt::format(R"(,"dur":{:.3f})", e.dur);
      if (e.ph == 'b' || e.ph == 'e') out += fmt::format(R"(,"id":{})", e.id);
      if (e.ph == 's' || e.ph == 'f') {
        out += ",\"id\":@F";
        out += s.channels[e.channel];
        out += fmt::format("#{}@", e.seq);
        if (e.ph == 'f') out += R"(,"bp":"e")";
      }
      if (!e.args.empty()) out += ",\"args\":{" + e.args + "}";
      out += "},\n";
    }
  }
  return out;
}

// Replaces the flow placeholders by numbers: one per (run, channel, message), both ends alike.
std::string number_flows(const std::string& text) {
  std::unordered_map<std::string, uint64_t> ids;
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  for (;;) {
    size_t at = text.find("@F", pos);
    if (at == std::string::npos) break;
    size_t end = text.find('@', at + 2);
    out.append(text, pos, at - pos);
    auto [it, fresh] = ids.try_emplace(text.substr(at + 2, end - at - 2), ids.size() + 1);
    out += std::to_string(it->second);
    pos = end + 1;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

}  // namespace

double now_us() { return std::chrono::duration<double, std::micro>(Clock::now() - state().origin).count(); }

std::string quoted(const std::string& s) {
  std::string out = "\"";
  append_escaped(out, s);
  out += '"';
  return out;
}

void start(int rank, int size, const std::string& program) {
  const char* file = std::getenv("IT_TRACE");
  if (!file || !*file) return;
  State& s = state();
  s.rank = rank;
  s.size = size;
  s.file = file;
  s.program = program;
  // Fail now, not after a long run, if the trace cannot be written.
  int ok = 1;
  std::string why;
  if (rank == 0) {
    if (FILE* f = std::fopen(file, "w")) {
      std::fclose(f);
    } else {
      ok = 0;
      why = std::strerror(errno);
    }
  }
  mpi::bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok)
    fail_collective(
        fmt::format("IT_TRACE={}: cannot write the trace file ({}); name a writable file or "
                    "unset IT_TRACE",
                    file, why.empty() ? "see rank 0" : why));
  mpi::barrier(MPI_COMM_WORLD);
  s.origin = Clock::now();
  detail::g_enabled = true;
  static ThreadBuffer main_buffer;
  main_buffer.tid = 0;
  t_buffer = &main_buffer;
  std::lock_guard lock(s.mutex);
  s.thread_names[0] = "main / proxy";
}

ThreadScope::ThreadScope(int tid, const std::string& name) {
  if (!enabled() || t_buffer) return;
  active_ = true;
  t_buffer = new ThreadBuffer;
  t_buffer->tid = tid;
  std::lock_guard lock(state().mutex);
  state().thread_names.try_emplace(tid, name);
}

ThreadScope::~ThreadScope() {
  if (!active_) return;
  State& s = state();
  {
    std::lock_guard lock(s.mutex);
    s.finished.push_back(std::move(*t_buffer));
  }
  delete t_buffer;
  t_buffer = nullptr;
}

void span(const char* cat, std::string name, double begin_us, double end_us, std::string args) {
  if (!t_buffer) return;
  t_buffer->events.push_back(Event{'X', cat, begin_us, end_us - begin_us, std::move(name), std::move(args)});
}

void async_begin(uint64_t id, const char* cat, const std::string& name, std::string args) {
  if (!t_buffer) return;
  Event e{'b', cat, now_us(), 0, name, std::move(args)};
  e.id = id;
  t_buffer->events.push_back(std::move(e));
}

void async_end(uint64_t id, const char* cat, const std::string& name) {
  if (!t_buffer) return;
  Event e{'e', cat, now_us(), 0, name, {}};
  e.id = id;
  t_buffer->events.push_back(std::move(e));
}

uint64_t new_id() {
  // Rank in the high bits: unique across ranks, and below 2^53 (exact in JavaScript viewers).
  return (static_cast<uint64_t>(state().rank) << 32) | state().next_id.fetch_add(1, std::memory_order_relaxed);
}

uint32_t intern_channel(const std::string& key, const char* label) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.channels.push_back(key);
  s.channel_labels.push_back(label ? label : "message");
  return static_cast<uint32_t>(s.channels.size() - 1);
}

uint64_t next_run() { return ++state().runs; }

void flow_send(uint32_t channel, uint64_t seq, size_t bytes) {
  if (!t_buffer) return;
  State& s = state();
  // channel_labels only grows before the run that uses `channel` starts: no lock needed here.
  Event e{'s', "message", now_us(), 0, s.channel_labels[channel], fmt::format(R"("bytes":{})", bytes)};
  e.channel = channel;
  e.seq = seq;
  t_buffer->events.push_back(std::move(e));
}

void flow_receive(uint32_t channel, uint64_t seq, size_t bytes) {
  if (!t_buffer) return;
  State& s = state();
  Event e{'f', "message", now_us(), 0, s.channel_labels[channel], fmt::format(R"("bytes":{})", bytes)};
  e.channel = channel;
  e.seq = seq;
  t_buffer->events.push_back(std::move(e));
}

void wait_pending(const char* label, int delta) {
  if (!t_buffer) return;
  int& n = t_buffer->pending[label];
  n += delta;
  if (n <= 0) t_buffer->pending.erase(label);
}

std::string pending_waits() {
  if (!t_buffer) return {};
  std::string out;
  for (auto& [label, n] : t_buffer->pending) out += (out.empty() ? "" : " + ") + label;
  return out;
}

void StageSpan::begin(const StageSite& site, const std::vector<int64_t>& lpu) {
  site_ = &site;
  lpu_ = &lpu;
  begin_us_ = now_us();
}

std::string json_list(const std::vector<int64_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out + "]";
}

void StageSpan::end() {
  const double end_us = now_us();
  span("stage", site_->stage, begin_us_, end_us,
       fmt::format(R"("task":{},"space":{},"lpu":{},"stage":{},"line":{},"file":{})", quoted(site_->task),
                   quoted(site_->space), json_list(*lpu_), quoted(site_->stage), site_->line, quoted(site_->file)));
}

void finish(const std::string& extra_members) {
  if (!enabled()) return;
  State& s = state();
  {
    // The main thread's buffer joins the others (workers have ended: their scopes are gone).
    std::lock_guard lock(s.mutex);
    if (t_buffer) {
      s.finished.push_back(std::move(*t_buffer));
      t_buffer->events.clear();
    }
  }
  detail::g_enabled = false;
  t_buffer = nullptr;
  const std::string mine = rank_text(s);
  // Lengths first (as 64-bit numbers), then the text in chunks below INT_MAX if ever needed.
  long long len = static_cast<long long>(mine.size());
  std::vector<long long> lens(static_cast<size_t>(s.size));
  mpi::gather(&len, 1, MPI_LONG_LONG, lens.data(), 0, MPI_COMM_WORLD);
  std::string all;
  if (s.rank == 0) {
    all = mine;
    for (int r = 1; r < s.size; ++r) {
      std::string part(static_cast<size_t>(lens[static_cast<size_t>(r)]), '\0');
      MPI_Recv(part.data(), static_cast<int>(part.size()), MPI_CHAR, r, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      all += part;
    }
  } else {
    MPI_Send(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, 0, 77, MPI_COMM_WORLD);
  }
  if (s.rank != 0) return;
  all = number_flows(all);
  if (all.size() >= 2) all.resize(all.size() - 2);  // the last event's ",\n"
  std::string text = "{\"traceEvents\":[\n" + all + "\n],\n\"displayTimeUnit\":\"ms\",\n";
  text += fmt::format(
      "\"otherData\":{{\"program\":{},\"ranks\":\"{}\",\"clock\":\"steady_clock, origin at a "
      "barrier of all ranks\"}}",
      quoted(s.program), s.size);
  if (!extra_members.empty()) text += ",\n" + extra_members;
  text += "\n}\n";
  FILE* f = std::fopen(s.file.c_str(), "w");
  bool written = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f && std::fclose(f) != 0) written = false;
  if (!written)
    fail(
        fmt::format("IT_TRACE={}: writing the trace file failed ({}); check the disk space and the file's "
                    "directory",
                    s.file, std::strerror(errno)));
}

}  // namespace itrt::trace
