// Runs a task's flow as a VSA: one VDP per LPU of every space with work in the flow, channels for
// exactly the synchronisations of the task plan, and a driver that resumes each LPU's coroutine
// until it waits for packets of other LPUs.
//
// Padding exchange: for every piece (cells some LPU holds and another owns, see refresh_plan) the
// owning LPU packs a packet at the synchronisation. LPUs on its own rank receive only the cells
// they hold; for every other rank one packet goes to a *lead* LPU there, which forwards the same
// packet (a pointer move) to the other LPUs of its rank that need it. Cells therefore cross
// between ranks once per destination rank: exactly the analytical ghost volume. The lead waits
// for its direct packets (phase 1) before the forwarded ones (phase 2), so no cycle of waits.
//
// Entry into / exit from a space whose parent shares an array with it: empty packets from the
// parent LPU to its LPUs there, or back (the data itself is shared memory: views).
//
// Reductions: every invoking LPU sends its partial to its ancestor LPU in the target space, through
// one combiner VDP per other rank holding several of them; the target combines in a fixed order
// (deterministic for a fixed mapping), then sends the result down to the LPUs that read it.
//
// Movements between spaces (gather up, scatter down, redistribution, replica broadcast): every
// pair of a sender and a receiver LPU whose parts meet gets a channel and a transfer schedule
// (the cells the sender owns that the receiver holds). At the synchronisation a sender whose part
// changed since it last went to the receiving space packs and sends them; one that did not sends
// an empty packet. Scalars move the same way between the LPUs' own copies.
#include "runtime/engine/mpi_transport.h"
#include "runtime/data/transfer_schedule.h"
#include "runtime/task/boxes.h"
#include "runtime/task/program.h"
#include "runtime/task/task_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace itrt::task {

using namespace boxes;

namespace {

// One piece inside a packet: which refresh piece, the cells packed, where they start.
struct Packed {
  int piece;
  Box box;
  size_t offset;
};
struct Layout {
  std::vector<Packed> pieces;
  size_t bytes = 0;
};

struct OutEdge {
  int slot;
  Layout layout;  // padding: what to pack; reduction: empty
  bool inter;
  bool to_combiner = false;                               // reduction: ends with an empty packet when the flow ends
  std::shared_ptr<const TransferSchedule> schedule = {};  // move: the cells to send
};
// Cells a receiver copies out of a packet: `packed` starts at `offset` in it, `region` (inside
// `packed`) is what this LPU holds. Worked out when the VSA is built, not per packet.
struct Copy {
  Box packed;
  size_t offset;
  Box region;
};
struct InEdge {
  int slot;                                   // -1: this LPU's own partial (a reduction into its own space)
  int phase;                                  // 1: direct, 2: forwarded by a lead
  std::vector<Copy> copies;                   // padding: what to take out of the packet (empty: token/reduction)
  std::vector<std::pair<int, bool>> forward;  // lead: (output slot, inter) to pass the packet on
  std::shared_ptr<const TransferSchedule> schedule = {};  // move: where the cells go
};

// The part one LPU plays in one synchronisation.
struct Role {
  std::vector<OutEdge> outs;               // padding: data to send; reduction: partial to the target
  std::vector<InEdge> ins;                 // padding: phases 1 and 2; reduction: partials or the result
  std::vector<std::pair<int, bool>> down;  // reduction target: result to readers below
  std::vector<std::byte> own_partial;      // reduction into the invoking space itself
};

Layout layout_of(const std::vector<std::pair<int, Box>>& boxes, size_t elem) {
  Layout l;
  for (auto& [piece, box] : boxes) {
    l.pieces.push_back({piece, box, l.bytes});
    l.bytes += static_cast<size_t>(box_size(box)) * elem;
  }
  return l;
}

}  // namespace

// Per-LPU state: the VDP's local store.
struct LpuState {
  TaskInstance* task = nullptr;
  const Lpu* lpu = nullptr;
  Vdp* vdp = nullptr;
  FlowContext ctx{*this};
  LpuFlow flow;
  std::map<int, Role> roles;  // by sync
  // The synchronisation being waited for (-1: none).
  int wait = -1;
  int phase = 0;
  bool armed = false;
  void* result = nullptr;
  bool* reduced = nullptr;  // collect/receive: whether any contributor ran its stage
  // A movement of a value of variable size (move_bytes): takes the packet instead of `result`.
  std::function<void(const std::byte*, size_t)> sink;
  std::vector<PacketRef> received;  // reduction partials of the current collect, by in-edge

  struct Counters {
    std::atomic<uint64_t> v[4];  // intra bytes, intra messages, inter bytes, inter messages
  };
  Counters* counters = nullptr;  // per sync, shared by the rank's LPUs
  // Scalars this LPU wrote: write count, and the count when it last went to a space.
  std::map<int, uint64_t> scalar_writes;
  std::map<std::pair<int, int>, uint64_t> scalar_sent;
  // IT_TRACE: this LPU's async track, and whether the current wait is being traced.
  uint64_t trace_id = 0;
  bool wait_traced = false;

  void send(int sync, int slot, const PacketRef& p, bool inter) {
    if (task->s_->drop_for_test_[static_cast<size_t>(sync)]) return;
    vdp->push(slot, p);
    auto& c = counters[sync];
    c.v[inter ? 2 : 0].fetch_add(p->size(), std::memory_order_relaxed);
    c.v[inter ? 3 : 1].fetch_add(1, std::memory_order_relaxed);
  }

  // Starts waiting at `sync` (the flow suspends unless !suspends: then finish_wait() follows at
  // once); `result` takes a reduction's or scalar's value.
  void start_wait(int sync, void* result, bool suspends = true);
  // The current wait: true when every packet of it has arrived and been handled.
  bool progress();
  void unpack(int sync, const InEdge& in, const Packet& p);
  void finish_wait();
};

// A per-rank reduction combiner: fires when every contributor of its rank has sent a partial,
// combines them in LPU order and sends one packet to the target; empty packets (the
// contributors' flows ended) finish it.
namespace {
VdpFunction combiner_function(Combiner c, int inputs, int sync) {
  return [c, inputs, sync](Vdp& v) {
    std::vector<PacketRef> in;
    for (int i = 0; i < inputs; ++i) in.push_back(v.pop(i));
    if (in[0]->size() == 0) {
      v.finish();
      return;
    }
    // A partial is the value and one byte: whether a contributor ran its stage (contribute).
    PacketRef out = Packet::create_uninitialized(c.value_size + 1);
    c.fill_identity(out->data(), 1);
    std::byte ran{0};
    for (auto& p : in) {
      c.combine(out->data(), p->data(), 1);
      ran |= static_cast<const std::byte*>(p->data())[c.value_size];
    }
    static_cast<std::byte*>(out->data())[c.value_size] = ran;
    v.push(0, out);
    auto* counters = v.local<LpuState::Counters*>();
    counters[sync].v[2].fetch_add(c.value_size + 1, std::memory_order_relaxed);
    counters[sync].v[3].fetch_add(1, std::memory_order_relaxed);
  };
}
}  // namespace

// Builds every LPU's roles and channel declarations. Runs identically on every rank (all LPUs,
// not only local ones), so both ends of an inter-rank channel agree on slot numbers.
class FlowBuilder {
 public:
  FlowBuilder(TaskInstance& t, const std::vector<std::pair<int, SpaceFlow>>& spaces) : t_(t) {
    vdp_.assign(t.s_->grid_.size(), {});
    for (auto& [lps, fn] : spaces) {
      auto& g = t.s_->grid_[static_cast<size_t>(lps)];
      auto& v = vdp_[static_cast<size_t>(lps)];
      for (const Lpu& u : g) {
        v.push_back(static_cast<int>(specs_.size()));
        specs_.emplace_back();
        specs_.back().tuple = Tuple{u.lps, static_cast<int>(u.id)};
        if (trace::enabled())  // what its firings are called in the trace
          specs_.back().label = "Space " + t.s_->lps_[static_cast<size_t>(lps)].name + " " +
                                Tuple(std::vector<int32_t>(u.coords.begin(), u.coords.end())).str();
        specs_.back().counter = 0;
        lpus_.push_back(&u);
      }
    }
    roles_.resize(specs_.size());
    out_slots_.assign(specs_.size(), 0);
    in_slots_.assign(specs_.size(), 0);
    for (size_t k = 0; k < t.s_->syncs_.size(); ++k) {
      const auto& s = t.s_->syncs_[k];
      label_ = s.name.c_str();
      switch (s.kind) {
        case TaskInstance::SyncDesc::Kind::padding: padding(static_cast<int>(k), s); break;
        case TaskInstance::SyncDesc::Kind::reduction: reduction(static_cast<int>(k), s); break;
        case TaskInstance::SyncDesc::Kind::token: token(static_cast<int>(k), s); break;
        case TaskInstance::SyncDesc::Kind::move: move(static_cast<int>(k), s); break;
        case TaskInstance::SyncDesc::Kind::scalar: scalar(static_cast<int>(k), s); break;
      }
    }
  }

  size_t count() const { return specs_.size(); }
  // Per-rank reduction combiners: spec, and the global thread it must be placed on.
  std::vector<std::pair<VdpSpec, int>>& combiners() { return combiners_; }
  const Lpu& lpu(size_t i) const { return *lpus_[i]; }
  VdpSpec& spec(size_t i) { return specs_[i]; }
  std::map<int, Role>& roles(size_t i) { return roles_[i]; }

 private:
  int vdp(int lps, int64_t id) const {
    const auto& v = vdp_[static_cast<size_t>(lps)];
    if (v.empty())
      fail("itrt: internal error: task `" + t_.name_ + "` synchronises space " +
           t_.s_->lps_[static_cast<size_t>(lps)].name + ", which has no flow");
    return v[static_cast<size_t>(id)];
  }
  // A channel from VDP a to VDP b; returns (output slot of a, input slot of b).
  std::pair<int, int> connect(int a, int b) {
    int so = out_slots_[static_cast<size_t>(a)]++;
    int si = in_slots_[static_cast<size_t>(b)]++;
    specs_[static_cast<size_t>(a)].output(so, specs_[static_cast<size_t>(b)].tuple, si, label_);
    specs_[static_cast<size_t>(b)].input(si, specs_[static_cast<size_t>(a)].tuple, so, false, label_);
    return {so, si};
  }
  Role& role(int v, int sync) { return roles_[static_cast<size_t>(v)][sync]; }

  // Every sender/receiver pair whose parts meet: one channel with its transfer schedule.
  // A `whole` movement (what the task starts with: every replica holds the same cells) takes
  // each cell from one replica only, on the receiver's rank when one is there. Later movements
  // hear every replica: only the one that wrote has changed cells to send.
  void move(int k, const TaskInstance::SyncDesc& s) {
    const auto& S = t_.s_->grid_[static_cast<size_t>(s.from)];
    const auto& D = t_.s_->grid_[static_cast<size_t>(s.to)];
    // Per sender, once: what it may hand on, and (whole movements) the LPUs holding the same part.
    std::vector<Part> owning;
    std::map<std::string, std::vector<const Lpu*>> replicas;  // sender part -> its LPUs
    std::vector<const std::vector<const Lpu*>*> replicas_of;
    for (const Lpu& u : S) {
      owning.push_back(t_.owning_part(s.array, s.from, u.id));
      if (s.whole) replicas[t_.part_of(s.array, s.from, u.id).to_string()].push_back(&u);
    }
    if (s.whole)
      for (const Lpu& u : S) replicas_of.push_back(&replicas.at(t_.part_of(s.array, s.from, u.id).to_string()));
    for (const Lpu& d : D) {
      role(vdp(s.to, d.id), k);  // a receiver takes part even when no sender meets its part
      const Part& held = t_.part_of(s.array, s.to, d.id);
      for (const Lpu& u : S) {
        if (s.from == s.to && u.id == d.id) continue;
        if (s.whole) {
          const auto& same = *replicas_of[static_cast<size_t>(u.id)];
          const Lpu* pick = same.front();
          for (const Lpu* r : same)
            if (r->rank == d.rank) {
              pick = r;
              break;
            }
          if (pick != &u) continue;
        }
        schedule_edge(k, vdp(s.from, u.id), vdp(s.to, d.id), owning[static_cast<size_t>(u.id)], held, u.rank != d.rank);
      }
    }
    for (const Lpu& u : S) role(vdp(s.from, u.id), k);
  }

  // A channel from VDP `uv` to VDP `dv` for sync `k` carrying the cells `owned` hands to `held`
  // (none when they do not meet).
  void schedule_edge(int k, int uv, int dv, const Part& owned, const Part& held, bool inter) {
    auto ts = std::make_shared<const TransferSchedule>(TransferSchedule::owned_to_held(owned, held));
    if (ts->empty()) return;
    auto [so, si] = connect(uv, dv);
    OutEdge out{so, {}, inter};
    out.schedule = ts;
    role(uv, k).outs.push_back(std::move(out));
    InEdge in{si, 1, {}, {}};
    in.schedule = ts;
    role(dv, k).ins.push_back(std::move(in));
  }

  // A scalar goes from each LPU of `from` to the LPUs of `to` that read the same value: below
  // it, its ancestor, or every LPU of an unrelated space (or of the same space: the others).
  // A value one LPU wrote under Where/If goes from every LPU to every LPU.
  void scalar(int k, const TaskInstance::SyncDesc& s) {
    auto link = [&](const Lpu& u, const Lpu& d) {
      const int uv = vdp(s.from, u.id), dv = vdp(s.to, d.id);
      auto [so, si] = connect(uv, dv);
      role(uv, k).outs.push_back({so, {}, u.rank != d.rank});
      role(dv, k).ins.push_back({si, 1, {}, {}});
    };
    const auto& S = t_.s_->grid_[static_cast<size_t>(s.from)];
    const auto& D = t_.s_->grid_[static_cast<size_t>(s.to)];
    if (s.from != s.to && !s.every_lpu && t_.is_ancestor(s.from, s.to)) {
      for (const Lpu& d : D) link(t_.ancestor(d, s.from), d);
    } else if (s.from != s.to && !s.every_lpu && t_.is_ancestor(s.to, s.from)) {
      for (const Lpu& u : S) link(u, t_.ancestor(u, s.to));
    } else {
      for (const Lpu& d : D)
        for (const Lpu& u : S)
          if (s.from != s.to || u.id != d.id) link(u, d);
    }
    for (const Lpu& u : S) role(vdp(s.from, u.id), k);
    for (const Lpu& d : D) role(vdp(s.to, d.id), k);
  }

  void padding(int k, const TaskInstance::SyncDesc& s) {
    const int h = s.home;
    const auto& H = t_.s_->grid_[static_cast<size_t>(h)];
    for (const Lpu& g : H)
      if (!is_interval_part(t_.part_of(s.array, h, g.id))) return strided_padding(k, s);
    auto& pieces = t_.refresh_plan(s.array, h, s.lps);
    const size_t es = t_.arrays[static_cast<size_t>(s.array)]->elem_size;
    std::map<int64_t, std::vector<int>> by_src;
    for (size_t p = 0; p < pieces.size(); ++p) by_src[pieces[p].src].push_back(static_cast<int>(p));
    for (auto& [g, list] : by_src) {
      const int src = vdp(h, g);
      const int sr = H[static_cast<size_t>(g)].rank;
      // Destinations on the sender's rank: only the cells each of them holds.
      std::map<int64_t, std::vector<std::pair<int, Box>>> local;
      std::map<int, std::vector<int>> remote;  // rank -> pieces with a destination there
      for (int p : list) {
        const auto& pc = pieces[static_cast<size_t>(p)];
        for (int64_t d : pc.dst) {
          if (H[static_cast<size_t>(d)].rank == sr) {
            Box region = intersect(pc.box, held_box(t_.part_of(s.array, h, d)));
            if (!empty(region)) local[d].push_back({p, region});
          }
        }
        for (int r : pc.dst_ranks)
          if (r != sr) remote[r].push_back(p);
      }
      for (auto& [d, boxes] : local) {
        Layout l = layout_of(boxes, es);
        auto [so, si] = connect(src, vdp(h, d));
        role(src, k).outs.push_back({so, l, false});
        role(vdp(h, d), k).ins.push_back({si, 1, copies_for(l, pieces, s.array, h, d), {}});
      }
      // Other ranks: whole pieces once to a lead, forwarded there to the others.
      for (auto& [r, plist] : remote) {
        std::vector<std::pair<int, Box>> boxes;
        std::vector<int64_t> dsts;
        for (int p : plist) {
          const auto& pc = pieces[static_cast<size_t>(p)];
          boxes.push_back({p, pc.box});
          for (int64_t d : pc.dst)
            if (H[static_cast<size_t>(d)].rank == r) dsts.push_back(d);
        }
        std::sort(dsts.begin(), dsts.end());
        dsts.erase(std::unique(dsts.begin(), dsts.end()), dsts.end());
        Layout l = layout_of(boxes, es);
        const int lead = vdp(h, dsts[0]);
        auto [so, si] = connect(src, lead);
        role(src, k).outs.push_back({so, l, true});
        InEdge in{si, 1, copies_for(l, pieces, s.array, h, dsts[0]), {}};
        for (size_t f = 1; f < dsts.size(); ++f) {
          const int follower = vdp(h, dsts[f]);
          auto [fo, fi] = connect(lead, follower);
          in.forward.push_back({fo, false});
          role(follower, k).ins.push_back({fi, 2, copies_for(l, pieces, s.array, h, dsts[f]), {}});
        }
        role(lead, k).ins.push_back(std::move(in));
      }
    }
  }

  // The padding of space `s.lps` in parts of storage space `s.home` that stride() or
  // block_stride() cut below it (no boxes): each storage LPU receives, from every storage LPU
  // below a sibling of its own `s.lps` LPU, the cells it holds that that one owns (its chain of
  // owned parts, as a movement hands cells on), element by element through transfer schedules.
  void strided_padding(int k, const TaskInstance::SyncDesc& s) {
    const int h = s.home;
    const auto& H = t_.s_->grid_[static_cast<size_t>(h)];
    std::vector<Part> owning;
    for (const Lpu& u : H) owning.push_back(t_.owning_part(s.array, h, u.id));
    for (const Lpu& d : H) {
      const int dv = vdp(h, d.id);
      role(dv, k);
      const Lpu& p = t_.ancestor(d, s.lps);
      const Part& held = t_.part_of(s.array, h, d.id);
      for (const Lpu& u : H) {
        const Lpu& q = t_.ancestor(u, s.lps);
        if (q.id == p.id || q.parent != p.parent) continue;
        schedule_edge(k, vdp(h, u.id), dv, owning[static_cast<size_t>(u.id)], held, u.rank != d.rank);
      }
    }
  }

  // The pieces of a packet laid out as `l` that home LPU `d` is a destination of, cut to what it holds.
  std::vector<Copy> copies_for(const Layout& l, const std::vector<TaskInstance::Piece>& pieces, int array, int h,
                               int64_t d) const {
    std::vector<Copy> out;
    const Box held = held_box(t_.part_of(array, h, d));
    for (const Packed& pk : l.pieces) {
      const auto& pc = pieces[static_cast<size_t>(pk.piece)];
      if (std::find(pc.dst.begin(), pc.dst.end(), d) == pc.dst.end()) continue;
      Box region = intersect(pk.box, held);
      if (!empty(region)) out.push_back({pk.box, pk.offset, std::move(region)});
    }
    return out;
  }

  // One empty packet per LPU of the child space and its ancestor in the parent space.
  void token(int k, const TaskInstance::SyncDesc& s) {
    for (const Lpu& y : t_.s_->grid_[static_cast<size_t>(s.target)]) {
      const Lpu& p = t_.ancestor(y, s.invoking);
      int from = vdp(s.invoking, p.id), to = vdp(s.target, y.id);
      if (!s.down) std::swap(from, to);
      auto [so, si] = connect(from, to);
      role(from, k).outs.push_back({so, {}, p.rank != y.rank});
      role(to, k).ins.push_back({si, 1, {}, {}});
    }
  }

  void reduction(int k, const TaskInstance::SyncDesc& s) {
    const auto& X = t_.s_->grid_[static_cast<size_t>(s.target)];
    std::vector<std::vector<int64_t>> under(X.size());
    for (const Lpu& y : t_.s_->grid_[static_cast<size_t>(s.invoking)])
      under[static_cast<size_t>(t_.ancestor(y, s.target).id)].push_back(y.id);
    for (const Lpu& x : X) {
      const int xv = vdp(s.target, x.id);
      role(xv, k);  // the target collects even when nothing reduces into it
      // Contributors on the target's rank send directly; those of another rank meet first in a
      // combiner VDP there, which sends the target one partial per rank (tree over threads,
      // then across ranks).
      const auto& Y = t_.s_->grid_[static_cast<size_t>(s.invoking)];
      std::map<int, std::vector<int64_t>> by_rank;
      for (int64_t y : under[static_cast<size_t>(x.id)]) {
        if (s.invoking == s.target) {
          role(xv, k).ins.push_back({-1, 1, {}, {}});
          continue;
        }
        by_rank[Y[static_cast<size_t>(y)].rank].push_back(y);
      }
      if (by_rank.count(x.rank))
        for (int64_t y : by_rank.at(x.rank)) {
          const int yv = vdp(s.invoking, y);
          auto [so, si] = connect(yv, xv);
          role(yv, k).outs.push_back({so, {}, false});
          role(xv, k).ins.push_back({si, 1, {}, {}});
        }
      for (auto& [r, ys] : by_rank) {
        if (r == x.rank) continue;
        if (ys.size() == 1) {
          const int yv = vdp(s.invoking, ys[0]);
          auto [so, si] = connect(yv, xv);
          role(yv, k).outs.push_back({so, {}, true});
          role(xv, k).ins.push_back({si, 1, {}, {}});
          continue;
        }
        VdpSpec comb;
        comb.tuple = Tuple{-1 - k, static_cast<int>(x.id), r};
        comb.counter = 0;
        for (size_t i = 0; i < ys.size(); ++i) {
          const int yv = vdp(s.invoking, ys[i]);
          int so = out_slots_[static_cast<size_t>(yv)]++;
          specs_[static_cast<size_t>(yv)].output(so, comb.tuple, static_cast<int>(i), label_);
          comb.input(static_cast<int>(i), specs_[static_cast<size_t>(yv)].tuple, so, true, label_);
          role(yv, k).outs.push_back({so, {}, false, true});
        }
        int si = in_slots_[static_cast<size_t>(xv)]++;
        comb.output(0, specs_[static_cast<size_t>(xv)].tuple, si, label_);
        specs_[static_cast<size_t>(xv)].input(si, comb.tuple, 0, false, label_);
        if (trace::enabled()) comb.label = std::string("reduction combiner: ") + label_;
        role(xv, k).ins.push_back({si, 1, {}, {}});
        const Lpu& first = Y[static_cast<size_t>(ys[0])];
        comb.function = combiner_function(s.combiner, static_cast<int>(ys.size()), k);
        combiners_.push_back({std::move(comb), first.rank * t_.threads_ + first.thread});
      }
      for (int r : s.readers) {
        if (r == s.target) continue;
        for (const Lpu& v : t_.s_->grid_[static_cast<size_t>(r)]) {
          if (t_.ancestor(v, s.target).id != x.id) continue;
          const int rv = vdp(r, v.id);
          auto [so, si] = connect(xv, rv);
          role(xv, k).down.push_back({so, v.rank != x.rank});
          role(rv, k).ins.push_back({si, 1, {}, {}});
        }
      }
    }
  }

  TaskInstance& t_;
  const char* label_ = nullptr;  // the synchronisation being built: its channels' trace label
  std::vector<std::pair<VdpSpec, int>> combiners_;
  std::vector<std::vector<int>> vdp_;  // [lps][lpu id] -> VDP index
  std::vector<VdpSpec> specs_;
  std::vector<const Lpu*> lpus_;
  std::vector<std::map<int, Role>> roles_;
  std::vector<int> out_slots_, in_slots_;
};

// How many epoch versions of a part move (padding refreshes, movements between spaces): all but
// the oldest. A reader of `at (current - k)` runs inside an Epoch, whose entry ages every version
// by one first, so the oldest one at the time of the move is never read; an array without epochs
// moves its one version.
static int moved_versions(const PartStorage& ps) { return std::max<int>(1, static_cast<int>(ps.versions.size()) - 1); }

// --- LpuFlow / FlowContext ----------------------------------------------------------------------

void LpuFlow::resume() {
  h_.resume();
  if (h_.promise().error) std::rethrow_exception(std::exchange(h_.promise().error, nullptr));
}

const Lpu& FlowContext::lpu() const { return *state_.lpu; }
TaskInstance& FlowContext::task() const { return *state_.task; }

// The cells of `schedule` from every version a movement carries (moved_versions), one version
// after another in one packet.
static PacketRef pack_scheduled(const TransferSchedule& schedule, PartStorage& mine, size_t es) {
  const int nv = moved_versions(mine);
  const size_t bytes = static_cast<size_t>(schedule.element_count()) * es;
  PacketRef p = Packet::create_uninitialized(bytes * static_cast<size_t>(nv));
  for (int v = 0; v < nv; ++v)
    schedule.pack(mine.version(v), es, static_cast<std::byte*>(p->data()) + bytes * static_cast<size_t>(v));
  return p;
}

FlowWait FlowContext::exchange(int sync) {
  auto it = state_.roles.find(sync);
  if (it == state_.roles.end()) return {true};
  TaskInstance& t = *state_.task;
  const auto& s = t.s_->syncs_[static_cast<size_t>(sync)];
  if (s.kind == TaskInstance::SyncDesc::Kind::token) {
    for (const OutEdge& o : it->second.outs) state_.send(sync, o.slot, Packet::create(0), o.inter);
  } else if (!it->second.outs.empty()) {
    const size_t es = t.arrays[static_cast<size_t>(s.array)]->elem_size;
    PartStorage& mine = t.storage(s.array, *state_.lpu);
    const int nv = moved_versions(mine);
    for (const OutEdge& o : it->second.outs) {
      if (o.schedule) {  // strided parts: element by element (strided_padding)
        state_.send(sync, o.slot, pack_scheduled(*o.schedule, mine, es), o.inter);
        continue;
      }
      PacketRef p = Packet::create_uninitialized(o.layout.bytes * static_cast<size_t>(nv));
      for (int v = 0; v < nv; ++v) {
        Dense src = dense_of(mine.version(v), mine.part);
        auto* base = static_cast<std::byte*>(p->data()) + o.layout.bytes * static_cast<size_t>(v);
        for (const Packed& pk : o.layout.pieces) copy_region(src, dense_of(base + pk.offset, pk.box), pk.box, es);
      }
      state_.send(sync, o.slot, p, o.inter);
    }
  }
  if (it->second.ins.empty()) return {true};
  state_.start_wait(sync, nullptr);
  return {false};
}

FlowWait FlowContext::move(int sync) {
  auto it = state_.roles.find(sync);
  if (it == state_.roles.end()) return {true};
  TaskInstance& t = *state_.task;
  const auto& s = t.s_->syncs_[static_cast<size_t>(sync)];
  if (!it->second.outs.empty()) {
    const size_t es = t.arrays[static_cast<size_t>(s.array)]->elem_size;
    PartStorage& mine = t.storage(s.array, *state_.lpu);
    const uint64_t writes = mine.writes.load(std::memory_order_acquire);
    uint64_t& sent = mine.sent[s.to];
    const bool changed = writes > sent || s.whole || (s.written_in_task && writes > mine.writes_at_launch);
    sent = writes;
    for (const OutEdge& o : it->second.outs) {
      PacketRef p = changed ? pack_scheduled(*o.schedule, mine, es) : Packet::create(0);
      state_.send(sync, o.slot, p, o.inter);
    }
  }
  if (it->second.ins.empty()) return {true};
  state_.start_wait(sync, nullptr);
  return {false};
}

FlowWait FlowContext::move(int sync, void* value) {
  return move_value(sync, value, state_.task->s_->syncs_[static_cast<size_t>(sync)].bytes, value, nullptr);
}

FlowWait FlowContext::move_bytes(int sync, const std::vector<std::byte>& out,
                                 std::function<void(const std::byte*, size_t)> in) {
  // A serialised value is never empty, so an empty packet still means "unchanged".
  return move_value(sync, out.data(), out.size(), nullptr, std::move(in));
}

// Sends `n` bytes at `out` if this LPU wrote the value since it last went to the receiving
// space (an empty packet otherwise), then waits for the writer's value: copied to `result`, or
// handed to `sink` when it has no fixed size.
FlowWait FlowContext::move_value(int sync, const void* out, size_t n, void* result,
                                 std::function<void(const std::byte*, size_t)> sink) {
  auto it = state_.roles.find(sync);
  if (it == state_.roles.end()) return {true};
  const auto& s = state_.task->s_->syncs_[static_cast<size_t>(sync)];
  if (!it->second.outs.empty()) {
    const uint64_t writes = state_.scalar_writes[s.scalar];
    uint64_t& sent = state_.scalar_sent[{s.scalar, s.to}];
    const bool changed = writes > sent;
    sent = writes;
    for (const OutEdge& o : it->second.outs)
      state_.send(sync, o.slot, changed ? Packet::copy_of(out, n) : Packet::create(0), o.inter);
  }
  if (it->second.ins.empty()) return {true};
  state_.start_wait(sync, result);
  state_.sink = std::move(sink);
  return {false};
}

void FlowContext::wrote(int array) {
  TaskInstance& t = *state_.task;
  const Lpu& u = *state_.lpu;
  const int st = t.storage_space(array, u.lps);
  t.storage(array, st == u.lps ? u : t.ancestor(u, st)).writes.fetch_add(1, std::memory_order_release);
}

void FlowContext::wrote_scalar(int scalar) { ++state_.scalar_writes[scalar]; }

void FlowContext::contribute(int sync, const void* partial, bool ran) {
  auto it = state_.roles.find(sync);
  if (it == state_.roles.end()) return;
  const size_t vs = state_.task->s_->syncs_[static_cast<size_t>(sync)].combiner.value_size;
  auto& own = it->second.own_partial;
  own.assign(static_cast<const std::byte*>(partial), static_cast<const std::byte*>(partial) + vs);
  own.push_back(std::byte{ran});
  for (const OutEdge& o : it->second.outs) state_.send(sync, o.slot, Packet::copy_of(own.data(), vs + 1), o.inter);
}

FlowWait FlowContext::collect(int sync, void* result, bool* reduced) {
  auto it = state_.roles.find(sync);
  state_.reduced = reduced;
  if (reduced) *reduced = true;
  if (it == state_.roles.end()) return {true};
  // Nothing to wait for: complete now (the LPUs below contribute nothing or only this one does).
  bool remote = std::any_of(it->second.ins.begin(), it->second.ins.end(), [](const InEdge& e) { return e.slot >= 0; });
  state_.start_wait(sync, result, remote);
  if (!remote) {
    state_.finish_wait();
    return {true};
  }
  return {false};
}

FlowWait FlowContext::receive(int sync, void* result, bool* reduced) {
  auto it = state_.roles.find(sync);
  state_.reduced = reduced;
  if (reduced) *reduced = true;
  if (it == state_.roles.end() || it->second.ins.empty()) return {true};
  state_.start_wait(sync, result);
  return {false};
}

void FlowContext::advance_epoch(int array) {
  TaskInstance& t = *state_.task;
  PartStorage& ps = t.storage(array, *state_.lpu);
  if (ps.versions.size() < 2) return;
  ps.writes.fetch_add(1, std::memory_order_relaxed);  // the versions changed: movements send them
  ps.age(t.arrays[static_cast<size_t>(array)]->elem_size);
}

// Versions k >= 1 after a rotation are exactly the versions k - 1 before it, so only the new
// current version needs values: the stage writes its box, complete_epoch copies the rest.
void FlowContext::rotate_epoch(int array) {
  PartStorage& ps = state_.task->storage(array, *state_.lpu);
  if (ps.versions.size() < 2) return;
  ps.epoch_written.clear();
  ps.epoch_copied = !is_box(ps.part);
  if (ps.epoch_copied) {
    advance_epoch(array);
    return;
  }
  ps.writes.fetch_add(1, std::memory_order_relaxed);  // the versions changed: movements send them
  ps.current = (ps.current + 1) % static_cast<int>(ps.versions.size());
}

void FlowContext::complete_epoch(int array) {
  TaskInstance& t = *state_.task;
  PartStorage& ps = t.storage(array, *state_.lpu);
  if (ps.versions.size() < 2) return;
  const size_t es = t.arrays[static_cast<size_t>(array)]->elem_size;
  Box written = std::move(ps.epoch_written);
  ps.epoch_written.clear();
  if (std::exchange(ps.epoch_copied, false)) return;
  if (written.empty()) {
    std::memcpy(ps.version(0), ps.version(1), static_cast<size_t>(ps.part.element_count()) * es);
    return;
  }
  copy_outside(dense_of(ps.version(1), ps.part), dense_of(ps.version(0), ps.part), held_box(ps.part), written, es);
}

void FlowContext::publish(int slot, const void* bytes, size_t n) {
  TaskInstance& t = *state_.task;
  std::lock_guard<std::mutex> lk(t.s_->published_mutex_);
  t.s_->published_[slot].assign(static_cast<const std::byte*>(bytes), static_cast<const std::byte*>(bytes) + n);
}

// --- the driver ---------------------------------------------------------------------------------

void LpuState::unpack(int sync, const InEdge& in, const Packet& p) {
  TaskInstance& t = *task;
  const auto& s = t.s_->syncs_[static_cast<size_t>(sync)];
  if (in.schedule) {            // a movement, or a padding exchange of strided parts
    if (p.size() == 0) return;  // the sender's part did not change
    PartStorage& mine = t.storage(s.array, *lpu);
    const int nv = moved_versions(mine);
    const size_t bytes = p.size() / static_cast<size_t>(nv);
    for (int v = 0; v < nv; ++v)
      in.schedule->unpack(static_cast<const std::byte*>(p.data()) + bytes * static_cast<size_t>(v),
                          t.arrays[static_cast<size_t>(s.array)]->elem_size, mine.version(v));
    return;
  }
  if (s.kind == TaskInstance::SyncDesc::Kind::scalar) {
    if (sink) {
      if (p.size() > 0) sink(static_cast<const std::byte*>(p.data()), p.size());
    } else if (p.size() == s.bytes) {
      std::memcpy(result, p.data(), s.bytes);
    }
    return;
  }
  const std::vector<Copy>& copies = in.copies;
  if (copies.empty()) return;  // a token, or nothing of the packet is held here
  const size_t es = t.arrays[static_cast<size_t>(s.array)]->elem_size;
  PartStorage& mine = t.storage(s.array, *lpu);
  const int nv = moved_versions(mine);
  const size_t bytes = p.size() / static_cast<size_t>(nv);
  for (int v = 0; v < nv; ++v) {
    Dense dst = dense_of(mine.version(v), mine.part);
    auto* base = const_cast<std::byte*>(static_cast<const std::byte*>(p.data())) + bytes * static_cast<size_t>(v);
    for (const Copy& c : copies) copy_region(dense_of(base + c.offset, c.packed), dst, c.region, es);
  }
}

void LpuState::start_wait(int sync, void* value, bool suspends) {
  wait = sync;
  phase = 1;
  armed = false;
  result = value;
  if (!trace::enabled() || !suspends) return;
  // The LPU's wait is an async span on its own track; the thread's idle spans name the
  // synchronisations its LPUs wait at.
  const std::string& name = task->s_->syncs_[static_cast<size_t>(sync)].name;
  trace::async_begin(
      trace_id, "wait", name,
      fmt::format(R"("task":{},"space":{},"lpu":{})", trace::quoted(task->name_),
                  trace::quoted(task->s_->lps_[static_cast<size_t>(lpu->lps)].name), trace::json_list(lpu->coords)));
  trace::wait_pending(name.c_str(), 1);
  wait_traced = true;
}

void LpuState::finish_wait() {
  TaskInstance& t = *task;
  const auto& s = t.s_->syncs_[static_cast<size_t>(wait)];
  if (wait_traced) {
    trace::async_end(trace_id, "wait", s.name);
    trace::wait_pending(s.name.c_str(), -1);
    wait_traced = false;
  }
  Role& r = roles.at(wait);
  if (s.kind == TaskInstance::SyncDesc::Kind::reduction) {
    const Combiner& c = s.combiner;
    bool target = s.target == lpu->lps;
    if (target) {
      // No contributor at all: the identity (an empty reduction); else whether any ran.
      std::vector<std::byte> acc(c.value_size + 1);
      c.fill_identity(acc.data(), 1);
      acc[c.value_size] = std::byte{r.ins.empty()};
      for (size_t e = 0; e < r.ins.size(); ++e) {
        const auto* partial =
            r.ins[e].slot < 0 ? r.own_partial.data() : static_cast<const std::byte*>(received[e]->data());
        c.combine(acc.data(), partial, 1);
        acc[c.value_size] |= partial[c.value_size];
      }
      std::memcpy(result, acc.data(), c.value_size);
      if (reduced) *reduced = acc[c.value_size] != std::byte{0};
      for (auto& [slot, inter] : r.down) send(wait, slot, Packet::copy_of(acc.data(), acc.size()), inter);
    } else {
      std::memcpy(result, received[0]->data(), c.value_size);
      if (reduced) *reduced = static_cast<const std::byte*>(received[0]->data())[c.value_size] != std::byte{0};
    }
  }
  received.clear();
  wait = -1;
  result = nullptr;
  reduced = nullptr;
}

bool LpuState::progress() {
  Role& r = roles.at(wait);
  // Padding and token packets are handled as they are popped; reduction partials all at once.
  const bool padding = task->s_->syncs_[static_cast<size_t>(wait)].kind != TaskInstance::SyncDesc::Kind::reduction;
  for (;;) {
    bool any = false, all = true;
    for (const InEdge& e : r.ins) {
      if (e.phase != phase || e.slot < 0) continue;
      any = true;
      if (!armed) vdp->channel_on(e.slot);
      if (vdp->queued(e.slot) == 0) all = false;
    }
    armed = true;
    if (any && !all) return false;  // fired again when every armed input holds a packet
    if (any) {
      if (!padding) received.assign(r.ins.size(), PacketRef{});
      for (size_t e = 0; e < r.ins.size(); ++e) {
        const InEdge& in = r.ins[e];
        if (in.phase != phase || in.slot < 0) continue;
        PacketRef p = vdp->pop(in.slot);
        vdp->channel_off(in.slot);
        if (padding) {
          unpack(wait, in, *p);
          for (auto& [slot, inter] : in.forward) send(wait, slot, p, inter);
        } else {
          received[e] = p;
        }
      }
    }
    if (phase == 2 || !padding) break;
    phase = 2;
    armed = false;
  }
  finish_wait();
  return true;
}

namespace {
void drive(Vdp& v) {
  LpuState& s = *v.local<std::shared_ptr<LpuState>>();
  s.vdp = &v;
  for (;;) {
    if (s.wait >= 0 && !s.progress()) return;
    if (s.flow.done()) {
      // Combiners of other ranks count rounds by packets: tell them this flow has ended.
      for (auto& [sync, role] : s.roles)
        for (const OutEdge& o : role.outs)
          if (o.to_combiner) v.push(o.slot, Packet::create(0));
      v.finish();
      return;
    }
    s.flow.resume();
  }
}
}  // namespace

// --- TaskInstance: synchronisations and the run ----------------------------------------------------

int TaskInstance::padding_sync(int array, int home, int lps, const std::string& sync) {
  SyncDesc d;
  d.kind = SyncDesc::Kind::padding;
  d.array = array;
  d.home = home;
  d.lps = lps;
  d.name = sync;
  s_->syncs_.push_back(std::move(d));
  return static_cast<int>(s_->syncs_.size()) - 1;
}

int TaskInstance::move_sync(int array, int from, int to, MoveSenders senders, const std::string& sync) {
  SyncDesc d;
  d.kind = SyncDesc::Kind::move;
  d.whole = senders == MoveSenders::every;
  d.written_in_task = senders == MoveSenders::written_in_task;
  d.array = array;
  d.from = from;
  d.to = to;
  d.name = sync;
  s_->syncs_.push_back(std::move(d));
  return static_cast<int>(s_->syncs_.size()) - 1;
}

int TaskInstance::scalar_sync(int scalar, int from, int to, size_t bytes, const std::string& sync,
                              ScalarSenders senders) {
  SyncDesc d;
  d.kind = SyncDesc::Kind::scalar;
  d.every_lpu = senders == ScalarSenders::every_lpu;
  d.scalar = scalar;
  d.from = from;
  d.to = to;
  d.bytes = bytes;
  d.name = sync;
  s_->syncs_.push_back(std::move(d));
  return static_cast<int>(s_->syncs_.size()) - 1;
}

int TaskInstance::token_sync(int parent, int child, bool down, const std::string& sync) {
  SyncDesc d;
  d.kind = SyncDesc::Kind::token;
  d.invoking = parent;
  d.target = child;
  d.down = down;
  d.name = sync;
  s_->syncs_.push_back(std::move(d));
  return static_cast<int>(s_->syncs_.size()) - 1;
}

int TaskInstance::reduction_sync(int invoking, int target, Combiner combiner, std::vector<int> readers,
                                 const std::string& sync) {
  SyncDesc d;
  d.kind = SyncDesc::Kind::reduction;
  d.invoking = invoking;
  d.target = target;
  d.combiner = combiner;
  d.readers = std::move(readers);
  d.name = sync;
  s_->syncs_.push_back(std::move(d));
  return static_cast<int>(s_->syncs_.size()) - 1;
}

std::string TaskInstance::describe_wait(Vdp& v) const {
  auto* state = std::any_cast<std::shared_ptr<LpuState>>(&v.local_store());
  if (!state) return {};
  const LpuState& s = **state;
  const Lpu& u = *s.lpu;
  std::string out = "(task `" + name_ + "`, Space " + s_->lps_[static_cast<size_t>(u.lps)].name + " LPU " +
                    Tuple(std::vector<int32_t>(u.coords.begin(), u.coords.end())).str() + ")";
  if (s.wait < 0) return out + " is not at a synchronisation";
  const auto k = static_cast<size_t>(s.wait);
  out += " waits at `" + s_->syncs_[k].name + "`";
  if (k < s_->sync_lines_.size()) out += " (" + prog_.name() + ":" + std::to_string(s_->sync_lines_[k]) + ")";
  return out;
}

void TaskInstance::run_flow(const std::vector<std::pair<int, SpaceFlow>>& spaces) {
  const int me = prog_.rank();
  // ITRT_TEST_DROP_SYNC=<text>: packets of the synchronisations whose name contains <text> are
  // never sent, so their receivers wait forever. Only the watchdog's tests set it.
  s_->drop_for_test_.assign(s_->syncs_.size(), 0);
  if (const char* text = std::getenv("ITRT_TEST_DROP_SYNC"); text && *text)
    for (size_t k = 0; k < s_->syncs_.size(); ++k)
      s_->drop_for_test_[k] = s_->syncs_[k].name.find(text) != std::string::npos;
  std::unique_ptr<FlowBuilder> b;
  try {
    b = std::make_unique<FlowBuilder>(*this, spaces);
  } catch (const std::exception& e) {
    fail(task_label() + "`: " + exception_text(e));
  }
  std::vector<LpuState::Counters> counters(s_->syncs_.size());
  for (auto& c : counters)
    for (auto& v : c.v) v.store(0);
  VsaConfig cfg;
  cfg.threads_per_rank = threads_;
  cfg.mapping = [this](const Tuple& t, int) {
    const Lpu& u = s_->grid_[static_cast<size_t>(t[0])][static_cast<size_t>(t[1])];
    return u.rank * threads_ + u.thread;
  };
  cfg.cpus = s_->thread_cpus_;
  cfg.describe_wait = [this](Vdp& v) { return describe_wait(v); };
  cfg.transport = transport_for(comm_);
  Vsa vsa(std::move(cfg));
  for (auto& [spec, thread] : b->combiners()) vsa.place(spec.tuple, thread);
  for (auto& [spec, thread] : b->combiners()) {
    if (thread / threads_ != me) continue;
    spec.local = counters.data();
    vsa.insert(std::move(spec));
  }
  std::map<int, const SpaceFlow*> fn;
  for (auto& [lps, f] : spaces) fn[lps] = &f;
  for (size_t i = 0; i < b->count(); ++i) {
    const Lpu& u = b->lpu(i);
    if (u.rank != me) continue;
    auto state = std::make_shared<LpuState>();
    state->task = this;
    state->lpu = &u;
    state->roles = std::move(b->roles(i));
    state->counters = counters.data();
    if (trace::enabled()) state->trace_id = trace::new_id();
    state->flow = (*fn.at(u.lps))(state->ctx);
    VdpSpec& spec = b->spec(i);
    spec.local = state;
    spec.function = drive;
    vsa.insert(std::move(spec));
  }
  b.reset();
  const double begin = trace::enabled() ? trace::now_us() : 0;
  vsa.run();
  if (trace::enabled()) trace::span("task", "task " + name_, begin, trace::now_us());
  if (vsa.discarded_packets() != 0)
    fail("itrt: internal error: task `" + name_ + "` ended with " + std::to_string(vsa.discarded_packets()) +
         " undelivered packets");
  for (size_t k = 0; k < s_->syncs_.size(); ++k) {
    prog_.count(s_->syncs_[k].name, false, counters[k].v[0].load(), counters[k].v[1].load());
    prog_.count(s_->syncs_[k].name, true, counters[k].v[2].load(), counters[k].v[3].load());
  }
}

std::vector<std::byte> TaskInstance::published_bytes(int slot, int lps) {
  const int me = prog_.rank(), np = prog_.size();
  const auto& g = s_->grid_[static_cast<size_t>(lps)];
  if (g.empty()) return {};
  const int owner = g[0].rank;
  std::vector<std::vector<char>> pairs(static_cast<size_t>(np), std::vector<char>(static_cast<size_t>(np), 0));
  for (int d = 0; d < np; ++d)
    if (d != owner) pairs[static_cast<size_t>(owner)][static_cast<size_t>(d)] = 1;
  std::vector<std::vector<std::byte>> send(static_cast<size_t>(np));
  std::vector<std::byte> mine;
  if (me == owner) {
    auto it = s_->published_.find(slot);
    if (it == s_->published_.end()) fail("itrt: internal error: task result was not published");
    mine = it->second;
    for (int d = 0; d < np; ++d)
      if (d != owner) send[static_cast<size_t>(d)] = mine;
  }
  auto recv = prog_.exchange("task " + name_ + ": results to the coordinator", pairs, std::move(send), comm_);
  return me == owner ? mine : recv[static_cast<size_t>(owner)];
}

void TaskInstance::published(int slot, int lps, void* bytes, size_t n) {
  if (s_->grid_[static_cast<size_t>(lps)].empty()) return;
  std::vector<std::byte> v = published_bytes(slot, lps);
  if (v.size() != n) fail("itrt: internal error: task result of the wrong size");
  std::memcpy(bytes, v.data(), n);
}

}  // namespace itrt::task
