// Implements reduction_tree.h: two combiner VDP kinds (per rank and root) built on the engine.
#include "tests/runtime_engine/reduction_tree.h"

#include "runtime/engine/failure.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace itrt {
namespace {

struct Layout {
  std::vector<int> ranks;                     // ranks with contributors, ascending
  std::map<int, std::vector<Tuple>> members;  // rank -> its contributors in spec order
};

Layout layout_of(const Vsa& vsa, const ReductionTreeSpec& spec) {
  if (spec.contributors.empty()) fail("reduction tree " + spec.id.str() + " has no contributors");
  Layout l;
  for (const Tuple& t : spec.contributors) l.members[vsa.rank_of(t)].push_back(t);
  for (auto& [r, list] : l.members) l.ranks.push_back(r);
  return l;
}

Tuple rank_node(const ReductionTreeSpec& s, int rank) { return s.id.concat({0, rank}); }
Tuple root_node(const ReductionTreeSpec& s) { return s.id.concat({1}); }

// Combines the packets on input slots [0, n) in slot order into a fresh packet.
PacketRef combine_inputs(Vdp& vdp, int n, const Combiner& c) {
  PacketRef first = vdp.pop(0);
  PacketRef acc = Packet::copy_of(first->data(), first->size());
  for (int i = 1; i < n; ++i) {
    PacketRef in = vdp.pop(i);
    if (in->size() != acc->size())
      fail(fmt::format("reduction {}: contributions of different sizes ({} and {} bytes)", vdp.tuple().str(),
                       acc->size(), in->size()));
    c.combine(acc->data(), in->data(), acc->size() / c.value_size);
  }
  return acc;
}

}  // namespace

void insert_reduction_tree(Vsa& vsa, const ReductionTreeSpec& spec) {
  Layout l = layout_of(vsa, spec);
  int tpr = vsa.threads_per_rank();
  Tuple root = root_node(spec);
  vsa.place(root, vsa.rank_of(spec.contributors.front()) * tpr);
  for (int r : l.ranks) vsa.place(rank_node(spec, r), r * tpr);

  // Root: input j / output j talk to the combiner of l.ranks[j].
  VdpSpec rs;
  rs.tuple = root;
  rs.counter = spec.rounds;
  int nranks = static_cast<int>(l.ranks.size());
  for (int j = 0; j < nranks; ++j) {
    int k = static_cast<int>(l.members[l.ranks[j]].size());
    rs.input(j, rank_node(spec, l.ranks[j]), 0);
    rs.output(j, rank_node(spec, l.ranks[j]), k);
  }
  Combiner c = spec.combiner;
  rs.function = [c, nranks](Vdp& vdp) {
    PacketRef result = combine_inputs(vdp, nranks, c);
    for (int j = 0; j < nranks; ++j) vdp.push(j, result);  // one packet, many channels
  };
  vsa.insert(std::move(rs));

  // Per-rank combiners: inputs [0, k) from contributors, input k from the root (off at first);
  // output 0 to the root, outputs 1..k to the contributors.
  for (int j = 0; j < nranks; ++j) {
    const std::vector<Tuple>& mem = l.members[l.ranks[j]];
    int k = static_cast<int>(mem.size());
    VdpSpec s;
    s.tuple = rank_node(spec, l.ranks[j]);
    s.counter = 2 * spec.rounds;  // gather firing + scatter firing per round
    for (int i = 0; i < k; ++i) {
      s.input(i, mem[i], spec.contribute_slot);
      s.output(1 + i, mem[i], spec.result_slot);
    }
    s.input(k, root, j, /*active=*/false);
    s.output(0, root, j);
    s.local = false;  // false: gathering, true: waiting for the result
    s.function = [c, k](Vdp& vdp) {
      bool& scattering = vdp.local<bool>();
      if (!scattering) {
        vdp.push(0, combine_inputs(vdp, k, c));
        for (int i = 0; i < k; ++i) vdp.channel_off(i);
        vdp.channel_on(k);
      } else {
        PacketRef result = vdp.pop(k);
        for (int i = 0; i < k; ++i) vdp.push(1 + i, result);
        for (int i = 0; i < k; ++i) vdp.channel_on(i);
        vdp.channel_off(k);
      }
      scattering = !scattering;
    };
    vsa.insert(std::move(s));
  }
}

void add_contributor_channels(const Vsa& vsa, const ReductionTreeSpec& spec, VdpSpec& contributor) {
  int r = vsa.rank_of(contributor.tuple);
  int index = 0;
  for (const Tuple& t : spec.contributors) {
    if (t == contributor.tuple) break;
    if (vsa.rank_of(t) == r) ++index;
  }
  Tuple node = rank_node(spec, r);
  contributor.output(spec.contribute_slot, node, index);
  contributor.input(spec.result_slot, node, 1 + index, /*active=*/false);
}

}  // namespace itrt
