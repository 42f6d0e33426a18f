// Implements vsa.h: insertion with channel joining, validation, tag numbering, and the run.
// Construction errors (bad mapping, a channel declared twice, a missing local end) are reported
// with itrt::fail, since they are bugs of the program that built the VSA.
#include "runtime/engine/vsa.h"

#include "runtime/engine/failure.h"
#include "runtime/engine/log.h"
#include "runtime/engine/mpi_transport.h"
#include "runtime/engine/trace.h"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>

namespace itrt {
namespace {

std::unique_ptr<Transport> default_transport() { return transport_for(MPI_COMM_WORLD); }

}  // namespace

Vsa::Vsa(VsaConfig config) : config_(std::move(config)) {
  if (config_.threads_per_rank < 1) fail("VSA: threads_per_rank must be at least 1");
  if (!config_.mapping) fail("VSA: no mapping function given");
  if (!config_.transport) config_.transport = default_transport();
  rank_ = config_.transport->rank();
  size_ = config_.transport->size();
}

Vsa::~Vsa() = default;

void Vsa::place(const Tuple& tuple, int global_thread) {
  if (global_thread < 0 || global_thread >= total_threads())
    fail(fmt::format("VSA: placement of {} on thread {} outside [0, {})", tuple.str(), global_thread, total_threads()));
  placements_[tuple] = global_thread;
}

int Vsa::thread_of(const Tuple& tuple) const {
  if (auto it = placements_.find(tuple); it != placements_.end()) return it->second;
  int t = config_.mapping(tuple, total_threads());
  if (t < 0 || t >= total_threads())
    fail(fmt::format("VSA: mapping sent VDP {} to thread {}, outside [0, {})", tuple.str(), t, total_threads()));
  return t;
}

Channel* Vsa::channel_for(const ChannelKey& key) {
  auto& slot = channels_[key];
  if (!slot) {
    slot = std::make_unique<Channel>(key);
    slot->src_rank_ = rank_of(key.src);
    slot->dst_rank_ = rank_of(key.dst);
  }
  return slot.get();
}

void Vsa::insert(VdpSpec spec) {
  if (ran_) fail("VSA: insert after run");
  int thread = thread_of(spec.tuple);
  if (thread / config_.threads_per_rank != rank_) return;
  if (by_tuple_.count(spec.tuple)) fail(fmt::format("VSA: VDP {} inserted twice", spec.tuple.str()));
  auto inputs = std::move(spec.inputs);
  auto outputs = std::move(spec.outputs);
  auto vdp = std::make_unique<Vdp>(std::move(spec), rank_, thread);
  for (const ChannelDecl& d : inputs) {
    if (d.key.dst != vdp->tuple())
      fail(fmt::format("VSA: VDP {} declares input {} that does not end at it", vdp->tuple().str(), d.key.str()));
    Channel* c = channel_for(d.key);
    if (c->dst_vdp_) fail(fmt::format("VSA: channel {} declared twice as input", d.key.str()));
    c->dst_vdp_ = vdp.get();
    c->active_ = d.active;
    if (d.label) c->label_ = d.label;
    auto& in = vdp->inputs_;
    if (in.size() <= static_cast<size_t>(d.key.dst_slot)) in.resize(d.key.dst_slot + 1, nullptr);
    if (in[d.key.dst_slot])
      fail(fmt::format("VSA: VDP {} declares input slot {} twice", vdp->tuple().str(), d.key.dst_slot));
    in[d.key.dst_slot] = c;
  }
  for (const ChannelDecl& d : outputs) {
    if (d.key.src != vdp->tuple())
      fail(fmt::format("VSA: VDP {} declares output {} that does not start at it", vdp->tuple().str(), d.key.str()));
    Channel* c = channel_for(d.key);
    if (c->src_vdp_) fail(fmt::format("VSA: channel {} declared twice as output", d.key.str()));
    c->src_vdp_ = vdp.get();
    if (d.label) c->label_ = d.label;
    auto& out = vdp->outputs_;
    if (out.size() <= static_cast<size_t>(d.key.src_slot)) out.resize(d.key.src_slot + 1, nullptr);
    if (out[d.key.src_slot])
      fail(fmt::format("VSA: VDP {} declares output slot {} twice", vdp->tuple().str(), d.key.src_slot));
    out[d.key.src_slot] = c;
  }
  by_tuple_[vdp->tuple()] = vdp.get();
  vdps_.push_back(std::move(vdp));
}

void Vsa::validate_and_number() {
  // Every end that lives on this rank must have been declared by its VDP.
  std::map<int, std::vector<Channel*>> by_peer;
  for (auto& [key, c] : channels_) {
    if (c->src_rank_ == rank_ && !c->src_vdp_)
      fail(fmt::format("VSA: channel {}: source VDP {} (mapped to this rank) was never inserted", key.str(),
                       key.src.str()));
    if (c->dst_rank_ == rank_ && !c->dst_vdp_)
      fail(
          fmt::format("VSA: channel {}: destination VDP {} (mapped to this rank) was never "
                      "inserted",
                      key.str(), key.dst.str()));
    if (c->inter_rank()) by_peer[c->src_rank_ == rank_ ? c->dst_rank_ : c->src_rank_].push_back(c.get());
  }
  // Both ranks of a pair see the same set of channels between them, so sorting by key gives
  // both the same consecutive numbering without any message (PULSAR §3.6).
  for (auto& [peer, list] : by_peer) {
    std::sort(list.begin(), list.end(), [](const Channel* a, const Channel* b) { return a->key() < b->key(); });
    int64_t last = kFirstChannelTag + static_cast<int64_t>(list.size()) - 1;
    if (last > config_.transport->max_tag())
      fail(fmt::format("VSA: {} channels between ranks {} and {} exceed the MPI tag limit {}", list.size(), rank_, peer,
                       config_.transport->max_tag()));
    int tag = kFirstChannelTag;
    for (Channel* c : list) c->tag_ = tag++;
  }
}

void Vsa::run() {
  if (ran_) fail("VSA: run called twice");
  ran_ = true;
  validate_and_number();
  proxy_ = std::make_unique<Proxy>(*config_.transport, static_cast<int64_t>(vdps_.size()));
  // Per local thread, its VDPs in tuple order so firing order within a sweep is deterministic.
  int tpr = config_.threads_per_rank;
  std::vector<std::vector<Vdp*>> lists(tpr);
  for (auto& v : vdps_) lists[v->thread() % tpr].push_back(v.get());
  for (auto& l : lists) std::sort(l.begin(), l.end(), [](Vdp* a, Vdp* b) { return a->tuple() < b->tuple(); });
  for (int t = 0; t < tpr; ++t) {
    std::vector<int> cpus = t < static_cast<int>(config_.cpus.size()) ? config_.cpus[t] : std::vector<int>{};
    workers_.push_back(
        std::make_unique<Worker>(rank_ * tpr + t, t, std::move(lists[t]), std::move(cpus), proxy_.get(), activity_));
  }
  if (trace::enabled()) {
    // Both ends of a channel name it by (run, key): rank 0 matches their flow events by it.
    const uint64_t run = trace::next_run();
    for (auto& [key, c] : channels_)
      c->trace_channel_ = trace::intern_channel(fmt::format("{}|{}", run, key.str()), c->label_);
  }
  for (auto& [key, c] : channels_) {
    c->proxy_ = proxy_.get();
    if (c->dst_vdp_) {
      c->dst_worker_ = workers_[c->dst_vdp_->thread() % tpr].get();
      if (c->inter_rank()) proxy_->add_incoming(c.get());
    }
  }
  log(LogSystem::engine, LogLevel::debug, "run: {} VDPs, {} channels, {} threads", vdps_.size(), channels_.size(), tpr);
  if (auto seconds = watchdog_seconds()) proxy_->watch(activity_, *seconds, [this] { return describe_waits(); });
  for (auto& w : workers_) w->start();
  proxy_->run();
  for (auto& w : workers_) w->join();
  for (auto& [key, c] : channels_) discarded_ += c->discard();
  if (discarded_) log(LogSystem::engine, LogLevel::debug, "{} packets left unread in channels", discarded_);
}

std::string Vsa::describe_waits() const {
  constexpr int kMaxVdps = 16, kMaxPeers = 4;
  std::string out;
  int shown = 0, more = 0;
  for (auto& v : vdps_) {
    if (v->finished()) continue;
    if (shown == kMaxVdps) {
      ++more;
      continue;
    }
    ++shown;
    std::string line = "  " + (v->label().empty() ? v->tuple().str() : v->label());
    if (config_.describe_wait) {
      const std::string where = config_.describe_wait(*v);
      if (!where.empty()) line += " " + where;
    }
    std::vector<std::string> peers;
    for (size_t slot = 0; slot < v->inputs_.size(); ++slot) {
      const Channel* c = v->inputs_[slot];
      if (!c || !c->active() || c->queued() > 0) continue;
      peers.push_back(fmt::format("{} (rank {})", c->key().src.str(), c->src_rank()));
    }
    if (!peers.empty()) {
      line += "; no packet yet from ";
      for (size_t i = 0; i < peers.size() && i < kMaxPeers; ++i) line += (i ? ", " : "") + peers[i];
      if (peers.size() > kMaxPeers) line += fmt::format(" and {} more", peers.size() - kMaxPeers);
    }
    out += line + "\n";
  }
  if (more) out += fmt::format("  ... and {} more waiting VDPs\n", more);
  return out;
}

Vdp* Vsa::find(const Tuple& tuple) const {
  auto it = by_tuple_.find(tuple);
  return it == by_tuple_.end() ? nullptr : it->second;
}

std::vector<const Channel*> Vsa::channels() const {
  std::vector<const Channel*> out;
  for (auto& [key, c] : channels_) out.push_back(c.get());
  std::sort(out.begin(), out.end(), [](const Channel* a, const Channel* b) { return a->key() < b->key(); });
  return out;
}

CommStats Vsa::comm_stats() const {
  CommStats s;
  for (auto& [key, c] : channels_) {
    if (!c->src_vdp_) continue;
    uint64_t m = c->stats().messages.load(), b = c->stats().bytes.load();
    if (c->inter_rank()) {
      s.inter_messages += m;
      s.inter_bytes += b;
    } else {
      s.intra_messages += m;
      s.intra_bytes += b;
    }
  }
  return s;
}

}  // namespace itrt
