// Implements worker.h. The sleep protocol is Dekker-style on two seq_cst atomics: the worker
// publishes `sleeping_` then re-reads `signal_`; a poker bumps `signal_` then reads `sleeping_`.
// At least one of them sees the other, so a wake-up is never lost.
#include "runtime/engine/worker.h"

#include "runtime/engine/failure.h"
#include "runtime/engine/log.h"
#include "runtime/engine/pinning.h"
#include "runtime/engine/proxy.h"
#include "runtime/engine/trace.h"
#include "runtime/engine/vdp.h"
#include "runtime/engine/watchdog.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string>
#include <system_error>

namespace itrt {

namespace {

// Busy-wait iterations (`pause`, ~40-140 cycles each) before an idle worker sleeps.
constexpr int kSpinWhenAlone = 2000;

// Spinning before sleeping saves the wake-up of the thread (tens of microseconds on a VM), but
// only when every busy engine thread of the process has a processor to itself; otherwise it
// steals the processor the sender needs (measured: 2000 spins made intra-rank ping-pong 3x
// slower on 2 shared cores). ITRT_WORKER_SPIN=n forces n (0: never spin).
int spin_limit() {
  static const int forced = [] {
    const char* env = std::getenv("ITRT_WORKER_SPIN");
    return env ? std::max(0, std::atoi(env)) : -1;
  }();
  if (forced >= 0) return forced;
  return detail::busy_engine_threads().load(std::memory_order_relaxed) <= processors_per_process() ? kSpinWhenAlone : 0;
}

}  // namespace

std::atomic<int>& detail::busy_engine_threads() {
  static std::atomic<int> n{0};
  return n;
}

Worker::Worker(int global_id, int local_id, std::vector<Vdp*> vdps, std::vector<int> cpus, Proxy* proxy,
               EngineActivity& activity)
    : global_id_(global_id),
      local_id_(local_id),
      vdps_(std::move(vdps)),
      cpus_(std::move(cpus)),
      proxy_(proxy),
      activity_(activity) {}

void Worker::start() {
  try {
    thread_ = ThreadPool::instance().start(cpus_, [this] { loop(); });
  } catch (const std::system_error& e) {
    // Out of threads or of memory for their stacks (a machine model with more cores per segment
    // than this host runs, or a ulimit): an error that says so, not std::terminate.
    fail("cannot start worker thread " + std::to_string(local_id_ + 1) + " of this process (" + exception_text(e) +
         "): the machine model asks for more worker threads per process than the system lets it create; "
         "use a model of this machine (`itc machine`), or raise the process's thread or memory limits");
  }
}

void Worker::join() { thread_.join(); }

void Worker::poke() {
  signal_.fetch_add(1, std::memory_order_seq_cst);
  if (sleeping_.load(std::memory_order_seq_cst)) {
    std::lock_guard lock(mutex_);
    cv_.notify_one();
  }
}

void Worker::make_candidate(Vdp* vdp) {
  // The flag makes a VDP appear at most once in the list; it is cleared before the VDP is checked,
  // so an input arriving during the check queues it again and cannot be missed.
  if (vdp->candidate_.exchange(true, std::memory_order_seq_cst)) return;
  {
    std::lock_guard lock(candidates_mutex_);
    candidates_.push_back(vdp);
  }
  poke();
}

bool Worker::sweep() {
  batch_.clear();
  {
    std::lock_guard lock(candidates_mutex_);
    batch_.swap(candidates_);
  }
  bool fired = false;
  for (Vdp* v : batch_) {
    v->candidate_.store(false, std::memory_order_seq_cst);
    if (v->finished() || !v->ready()) continue;
    bool done = false;
    double fire_begin = 0;
    if (trace::enabled()) {
      fire_begin = trace::now_us();
      end_idle(fire_begin);
    }
    activity_.started.fetch_add(1);
    try {
      done = v->fire();
    } catch (const std::exception& e) {
      fail(fmt::format("VDP {}: {}", v->tuple().str(), exception_text(e)));
    }
    if (trace::enabled())
      trace::span("vdp", v->label().empty() ? v->tuple().str() : v->label(), fire_begin, trace::now_us());
    ++firings_;
    fired = true;
    if (done) {
      if (log_enabled(LogSystem::engine, LogLevel::debug))  // (the tuple's text costs a string per VDP)
        log(LogSystem::engine, LogLevel::debug, "VDP {} finished after {} firings", v->tuple().str(), v->fired());
      --unfinished_;
      proxy_->vdp_finished();
    } else {
      make_candidate(v);  // it may still be ready (more packets queued, inputs switched)
    }
    activity_.ended.fetch_add(1);  // after the firing's effects, for the watchdog's report
  }
  return fired;
}

void Worker::end_idle(double now_us) {
  if (idle_since_ < 0) return;
  trace::span("wait", "wait", idle_since_, now_us,
              idle_reason_.empty() ? std::string() : R"("syncs":)" + trace::quoted(idle_reason_));
  idle_since_ = -1;
}

void Worker::loop() {
  trace::ThreadScope trace_scope(local_id_ + 1, fmt::format("worker {}", local_id_));
  detail::busy_engine_threads().fetch_add(1, std::memory_order_relaxed);
  struct Leaving {
    ~Leaving() { detail::busy_engine_threads().fetch_sub(1, std::memory_order_relaxed); }
  } leaving;
  unfinished_ = vdps_.size();
  for (Vdp* v : vdps_) make_candidate(v);  // tuple order: deterministic first sweep
  while (unfinished_ > 0) {
    uint64_t seen = signal_.load(std::memory_order_seq_cst);
    if (sweep()) continue;
    if (trace::enabled() && idle_since_ < 0) {
      idle_since_ = trace::now_us();
      idle_reason_ = trace::pending_waits();
    }
    // Between ranks, poll for the packet in the proxy's place rather than sleep until it wakes us.
    if (proxy_ && proxy_->poll_while_idle([&] { return signal_.load(std::memory_order_seq_cst) != seen; })) continue;
    // A short busy spin before sleeping when the engine's threads have processors of their own.
    bool changed = false;
    const int spins = spin_limit();
    for (int spin = 0; spin < spins && !changed; ++spin) {
      cpu_relax();
      changed = signal_.load(std::memory_order_seq_cst) != seen;
    }
    if (changed) continue;
    std::unique_lock lock(mutex_);
    sleeping_.store(true, std::memory_order_seq_cst);
    if (signal_.load(std::memory_order_seq_cst) == seen) {
      ++sleeps_;
      cv_.wait(lock, [&] { return signal_.load(std::memory_order_seq_cst) != seen; });
    }
    sleeping_.store(false, std::memory_order_seq_cst);
  }
  log(LogSystem::engine, LogLevel::debug, "worker {} done ({} firings, {} sleeps)", global_id_, firings_, sleeps_);
}

}  // namespace itrt
