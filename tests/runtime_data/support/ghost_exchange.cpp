// Ghost-exchange schedules by pairwise intersection of owned and held sets: O(LPUs^2) extent
// checks per parent LPU, exact intersections only where extents meet; computed at task launch.
#include "tests/runtime_data/support/ghost_exchange.h"

#include "tests/runtime_data/support/redistribution.h"

namespace itrt {

std::vector<GhostTransfer> ghost_exchange(const Part& parent_part, const ArrayConfig& config,
                                          const std::vector<int64_t>& counts) {
    auto coords = grid_coordinates(counts);
    std::vector<Part> parts;
    parts.reserve(coords.size());
    for (const auto& c : coords)
        parts.push_back(lpu_part(parent_part, config, c));
    std::vector<GhostTransfer> out;
    for (size_t r = 0; r < coords.size(); ++r) {
        for (size_t s = 0; s < coords.size(); ++s) {
            if (s == r)
                continue;
            bool same_replica = true;
            for (size_t t = 0; t < config.dims.size(); ++t)
                if (config.dims[t].replicated && coords[s][t] != coords[r][t])
                    same_replica = false;
            if (!same_replica)
                continue;
            if (!extents_meet(parts[s], parts[r]))
                continue;
            auto sched = TransferSchedule::owned_to_held(parts[s], parts[r]);
            if (!sched.empty())
                out.push_back({coords[s], coords[r], std::move(sched)});
        }
    }
    return out;
}

} // namespace itrt
