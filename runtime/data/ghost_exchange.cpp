// Ghost-exchange schedules by pairwise intersection of owned and held sets: O(LPUs^2) extent
// checks per parent LPU, exact intersections only where extents meet; computed at task launch.
#include "runtime/data/ghost_exchange.h"

namespace itrt {
namespace {

// Cheap pre-check: do the sender's owned extent and the receiver's held extent overlap in every dimension?
bool extents_meet(const Part& sender, const Part& receiver) {
  for (int d = 0; d < sender.rank(); ++d) {
    const IndexSet1D &o = sender.owned(d), &h = receiver.held(d);
    if (o.empty() || h.empty()) return false;
    const int64_t dir = o.dir();
    if (o.last() * dir < h.first() * dir || h.last() * dir < o.first() * dir) return false;
  }
  return true;
}

}  // namespace

std::vector<GhostTransfer> ghost_exchange(const Part& parent_part, const ArrayConfig& config,
                                          const std::vector<int64_t>& counts) {
  auto coords = grid_coordinates(counts);
  std::vector<Part> parts;
  parts.reserve(coords.size());
  for (const auto& c : coords) parts.push_back(lpu_part(parent_part, config, c));
  std::vector<GhostTransfer> out;
  for (size_t r = 0; r < coords.size(); ++r) {
    for (size_t s = 0; s < coords.size(); ++s) {
      if (s == r) continue;
      bool same_replica = true;
      for (size_t t = 0; t < config.dims.size(); ++t)
        if (config.dims[t].replicated && coords[s][t] != coords[r][t]) same_replica = false;
      if (!same_replica) continue;
      if (!extents_meet(parts[s], parts[r])) continue;
      auto sched = TransferSchedule::owned_to_held(parts[s], parts[r]);
      if (!sched.empty()) out.push_back({coords[s], coords[r], std::move(sched)});
    }
  }
  return out;
}

}  // namespace itrt
