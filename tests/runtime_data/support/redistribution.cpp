// Redistribution plans by pairwise owned∩held intersection, pruned by extents first:
// O(senders × receivers) extent checks, exact run intersections only for overlapping pairs.
#include "tests/runtime_data/support/redistribution.h"

namespace itrt {

bool extents_meet(const Part& sender, const Part& receiver) {
    for (int d = 0; d < sender.rank(); ++d) {
        const IndexSet1D &o = sender.owned(d), &h = receiver.held(d);
        if (o.empty() || h.empty())
            return false;
        const int64_t dir = o.dir();
        if (o.last() * dir < h.first() * dir || h.last() * dir < o.first() * dir)
            return false;
    }
    return true;
}

std::vector<PartTransfer> redistribution(const std::vector<Part>& senders, const std::vector<Part>& receivers,
                                         bool same_index_skipped) {
    std::vector<PartTransfer> out;
    for (size_t j = 0; j < receivers.size(); ++j) {
        for (size_t i = 0; i < senders.size(); ++i) {
            if (same_index_skipped && i == j)
                continue;
            if (!extents_meet(senders[i], receivers[j]))
                continue;
            auto s = TransferSchedule::owned_to_held(senders[i], receivers[j]);
            if (!s.empty())
                out.push_back({i, j, std::move(s)});
        }
    }
    return out;
}

} // namespace itrt
