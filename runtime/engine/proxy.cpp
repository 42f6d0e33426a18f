// Implements proxy.h. Termination: when a rank's VDPs have all finished and its outbox is empty it
// sends DONE(sent counts per rank) to rank 0; once rank 0 has every DONE it tells each rank how
// many data messages to expect in total (TERMINATE); a rank leaves when it has received them all
// and its sends completed. So no message is left in flight when the run's communicator is freed.
#include "runtime/engine/proxy.h"

#include "runtime/engine/channel.h"
#include "runtime/engine/failure.h"
#include "runtime/engine/log.h"
#include "runtime/engine/trace.h"
#include "runtime/engine/worker.h"

#include <fmt/format.h>
#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace itrt {

namespace {
// IT_TRACE: what a proxy span says about one transfer.
std::string transfer_args(const Channel& channel, int peer, size_t bytes) {
  return fmt::format(R"("peer":{},"tag":{},"bytes":{},"channel":{})", peer, channel.tag(), bytes,
                     trace::quoted(channel.label() ? channel.label() : channel.key().str()));
}
}  // namespace

Proxy::Proxy(Transport& transport, int64_t local_vdps)
    : transport_(transport),
      rank_(transport.rank()),
      size_(transport.size()),
      unfinished_(local_vdps),
      sent_to_(static_cast<size_t>(size_), 0),
      expected_in_(static_cast<size_t>(size_), 0) {}

void Proxy::watch(const EngineActivity& activity, double seconds, std::function<std::string()> describe) {
  stall_clock_ = std::make_unique<StallClock>(activity);
  if (rank_ == 0) hang_ = std::make_unique<HangDetector>(size_, seconds);
  describe_ = std::move(describe);
}

void Proxy::add_incoming(Channel* channel) { incoming_[{channel->src_rank(), channel->tag()}] = channel; }

void Proxy::post(Channel* channel, const PacketRef& packet) {
  {
    std::lock_guard lock(mutex_);
    outbox_.emplace_back(channel, packet);
    cv_.notify_one();
  }
  try_progress();  // send it now, on this thread, unless someone else is making progress
}

bool Proxy::try_progress() {
  if (!open_.load(std::memory_order_acquire) || !workers_help_) return false;
  std::unique_lock lock(progress_, std::try_to_lock);
  if (!lock.owns_lock() || !open_.load(std::memory_order_relaxed)) return false;
  bool progress = drain_outbox();
  progress |= receive();
  return progress;
}

bool Proxy::poll_while_idle(const std::function<bool()>& woken) {
  if (!open_.load(std::memory_order_acquire) || !workers_help_) return false;
  if (worker_polling_.exchange(true, std::memory_order_acq_rel)) return false;
  // Poll while messages keep coming; after a quiet spell the worker sleeps and the proxy polls
  // again, so a rank that waits long burns no more than the proxy's own polling.
  constexpr auto kQuiet = std::chrono::microseconds(500);
  auto last = std::chrono::steady_clock::now();
  bool was_woken = false;
  for (;;) {
    if (woken()) {
      was_woken = true;
      break;
    }
    if (try_progress()) {
      last = std::chrono::steady_clock::now();
      continue;
    }
    if (std::chrono::steady_clock::now() - last > kQuiet) break;
    std::this_thread::yield();
  }
  worker_polling_.store(false, std::memory_order_release);
  poke();  // the proxy polls again
  return was_woken;
}

void Proxy::vdp_finished() {
  unfinished_.fetch_sub(1, std::memory_order_acq_rel);
  poke();
}

void Proxy::poke() {
  std::lock_guard lock(mutex_);
  poked_ = true;
  cv_.notify_one();
}

bool Proxy::drain_outbox() {
  std::vector<std::pair<Channel*, PacketRef>> batch;
  {
    std::lock_guard lock(mutex_);
    batch.swap(outbox_);
  }
  for (auto& [channel, packet] : batch) {
    ++sent_to_[channel->dst_rank()];
    ++stats_.data_sent;
    if (trace::enabled()) {
      const double begin = trace::now_us();
      const size_t bytes = packet->size();
      transport_.send(channel->dst_rank(), channel->tag(), std::move(packet));
      trace::span("mpi", "MPI send", begin, trace::now_us(), transfer_args(*channel, channel->dst_rank(), bytes));
      continue;
    }
    transport_.send(channel->dst_rank(), channel->tag(), std::move(packet));
  }
  return !batch.empty();
}

bool Proxy::receive() {
  bool any = false;
  Incoming in;
  while (transport_.poll(in)) {
    any = true;
    if (in.tag == kControlTag) {
      handle_control(in.source, *in.packet);
      continue;
    }
    auto it = incoming_.find({in.source, in.tag});
    if (it == incoming_.end())
      fail(fmt::format("internal error: message from rank {} with unknown channel tag {}", in.source, in.tag));
    ++stats_.data_received;
    if (trace::enabled()) {
      const double begin = trace::now_us();
      const size_t bytes = in.packet->size();
      it->second->deliver(std::move(in.packet));
      trace::span("mpi", "MPI receive", begin, trace::now_us(), transfer_args(*it->second, in.source, bytes));
      continue;
    }
    it->second->deliver(std::move(in.packet));
  }
  return any;
}

void Proxy::send_control(int dest, std::vector<int64_t> words) {
  ++stats_.control_sent;
  transport_.send(dest, kControlTag, Packet::copy_of(words.data(), words.size() * sizeof(int64_t)));
}

void Proxy::collect_done(int source, const int64_t* sent_counts) {
  for (int r = 0; r < size_; ++r) expected_in_[r] += sent_counts[r];
  // A rank that is done waits for the others: stalled, and it reports nothing more (watch_turn).
  if (hang_ && source != 0) hang_->set_stalled(source, true);
  if (++done_count_ < size_) return;
  log(LogSystem::proxy, LogLevel::debug, "all ranks done; sending TERMINATE");
  for (int r = 1; r < size_; ++r) send_control(r, {kTerminate, expected_in_[r]});
  terminate_received_ = true;
  expected_ = expected_in_[0];
}

void Proxy::handle_control(int source, const Packet& packet) {
  const int64_t* w = packet.as<int64_t>();
  switch (w[0]) {
    case kDone: collect_done(source, w + 1); break;
    case kTerminate:
      terminate_received_ = true;
      expected_ = w[1];
      break;
    case kStalled:
    case kActive:
      if (hang_) hang_->set_stalled(source, w[0] == kStalled);
      break;
    case kHung: print_waits_and_exit();
    case kAbort:
      detail::note_remote_abort();
      log(LogSystem::proxy, LogLevel::debug, "abort received from rank {}", source);
      std::fflush(nullptr);
      std::_Exit(1);
    default: fail(fmt::format("internal error: unknown control message {} from rank {}", w[0], source));
  }
}

void Proxy::abort_all() {
  // A worker that failed while polling in our place holds progress_ for good: after a bounded
  // wait, MPI_Abort is the last resort.
  std::unique_lock progress(progress_, std::defer_lock);
  const auto locked_by = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!progress.try_lock()) {
    if (std::chrono::steady_clock::now() > locked_by) transport_.kill_job();
    std::this_thread::yield();
  }
  for (int r = 0; r < size_; ++r)
    if (r != rank_) send_control(r, {kAbort});
  // Give the aborts a bounded time to leave; if they cannot, MPI_Abort is the last resort.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!transport_.idle()) {
    if (std::chrono::steady_clock::now() > deadline) transport_.kill_job();
    std::this_thread::yield();
  }
  // Let the other ranks act on the abort and exit by themselves before mpirun sees our exit and
  // starts killing processes (either way every rank ends non-zero; this keeps it orderly).
  std::this_thread::sleep_for(std::chrono::milliseconds(size_ > 1 ? 300 : 0));
  std::fflush(nullptr);
  std::_Exit(1);
}

void Proxy::watch_turn(bool data_moved) {
  // After DONE, rank 0 may end the run at any moment: a status sent then would reach it in a
  // later run over the same communicator (mpi_transport.h). Rank 0 counts a done rank stalled.
  if (rank_ != 0 && done_sent_) return;
  const bool stalled = stall_clock_->stalled(data_moved, transport_.in_flight());
  if (stalled != reported_stalled_) {
    reported_stalled_ = stalled;
    if (rank_ == 0)
      hang_->set_stalled(0, stalled);
    else
      send_control(0, {stalled ? kStalled : kActive});
  }
  if (hang_ && hang_->hung()) report_hang();
}

void Proxy::report_hang() {
  // Every other rank prints its own waits on kHung and exits; this rank's go into the one message.
  for (int r = 1; r < size_; ++r) send_control(r, {kHung});
  std::string waits = describe_ ? describe_() : std::string();
  if (!waits.empty() && waits.back() == '\n') waits.pop_back();  // fail() ends the line
  fail(fmt::format(
      "the run is hung: no rank has made progress for {} s (IT_WATCHDOG; 0 turns the watchdog off). "
      "What rank 0 waits for:\n{}",
      hang_->seconds(), waits.empty() ? "  (all its VDPs have finished; it waits for other ranks)" : waits));
}

void Proxy::print_waits_and_exit() {
  detail::note_remote_abort();
  std::string waits = describe_ ? describe_() : std::string();
  std::fprintf(stderr, "itrt: hung run, what rank %d waits for:\n%s", rank_,
               waits.empty() ? "  (all its VDPs have finished; it waits for other ranks)\n" : waits.c_str());
  std::fflush(nullptr);
  std::_Exit(1);
}

void Proxy::wait_for_work(uint64_t idle_rounds) {
  // Remote messages cannot wake us, so with peers we poll: yield while traffic is recent, then
  // sleep in growing steps (bounded so latency after a quiet period stays sub-millisecond).
  std::unique_lock lock(mutex_);
  if (!outbox_.empty() || poked_) {
    poked_ = false;
    return;
  }
  ++stats_.idle_waits;
  if (worker_polling_.load(std::memory_order_acquire)) {
    // A worker polls in our place and pokes us when it stops; the watchdog still gets its turns.
    cv_.wait_for(lock, std::chrono::milliseconds(1), [&] { return !outbox_.empty() || poked_; });
  } else if (!transport_.needs_polling() && !stall_clock_) {
    cv_.wait(lock, [&] { return !outbox_.empty() || poked_; });
  } else if (!transport_.needs_polling()) {
    // The watchdog needs turns even when nothing arrives.
    cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return !outbox_.empty() || poked_; });
  } else if (idle_rounds < 64) {
    lock.unlock();
    std::this_thread::yield();
    return;
  } else {
    // 10 us steps for a few ms of quiet, then 100 us, then 1 ms: an answer that comes soon is
    // seen soon, and a long-idle proxy wakes only ~1000 times per second.
    auto step = std::chrono::microseconds(idle_rounds < 512 ? 10 : idle_rounds < 2048 ? 100 : 1000);
    cv_.wait_for(lock, step, [&] { return !outbox_.empty() || poked_; });
  }
  poked_ = false;
}

void Proxy::run() {
  detail::FailureHooks hooks{std::this_thread::get_id(), [this] { poke(); }, [this] { abort_all(); }};
  detail::add_failure_hooks(&hooks);
  transport_.open();
  // ITRT_WORKER_POLL=0 leaves all traffic to this thread (the engine before workers helped).
  const char* help = std::getenv("ITRT_WORKER_POLL");
  workers_help_ = transport_.calls_from_any_thread() && transport_.needs_polling() && !(help && help[0] == '0');
  open_.store(true, std::memory_order_release);
  // Short sleeps are only short if the kernel's timer slack (default 50 us) allows it.
  int old_slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
  prctl(PR_SET_TIMERSLACK, 1000, 0, 0, 0);  // 1 us, in ns
  // A proxy that polls (other ranks) keeps a processor half busy: workers count it before spinning.
  const int polling = transport_.needs_polling() ? 1 : 0;
  detail::busy_engine_threads().fetch_add(polling, std::memory_order_relaxed);
  uint64_t idle_rounds = 0;
  for (;;) {
    if (detail::failure_requested()) abort_all();
    bool progress = false;
    {
      std::lock_guard lock(progress_);
      const uint64_t moved_before = stats_.data_sent + stats_.data_received;
      progress = drain_outbox();
      progress |= receive();
      if (stall_clock_) watch_turn(stats_.data_sent + stats_.data_received != moved_before);
      if (!done_sent_ && unfinished_.load(std::memory_order_acquire) == 0) {
        std::unique_lock outbox(mutex_);
        if (outbox_.empty()) {
          outbox.unlock();
          done_sent_ = true;
          progress = true;
          log(LogSystem::proxy, LogLevel::debug, "local VDPs finished; DONE ({} data sent)", stats_.data_sent);
          if (rank_ == 0) {
            collect_done(0, sent_to_.data());
          } else {
            std::vector<int64_t> words{kDone};
            words.insert(words.end(), sent_to_.begin(), sent_to_.end());
            send_control(0, std::move(words));
          }
        }
      }
      if (terminate_received_ && static_cast<int64_t>(stats_.data_received) == expected_ && transport_.idle()) {
        open_.store(false, std::memory_order_release);  // no worker calls the transport from now on
        break;
      }
      idle_rounds = progress ? 0 : transport_.in_flight() ? std::min<uint64_t>(idle_rounds + 1, 63) : idle_rounds + 1;
    }
    if (!progress) wait_for_work(idle_rounds);
  }
  detail::busy_engine_threads().fetch_sub(polling, std::memory_order_relaxed);
  transport_.close();
  if (old_slack > 0) prctl(PR_SET_TIMERSLACK, old_slack, 0, 0, 0);
  detail::remove_failure_hooks(&hooks);
  log(LogSystem::proxy, LogLevel::debug, "terminated: {} data sent, {} received", stats_.data_sent,
      stats_.data_received);
}

}  // namespace itrt
