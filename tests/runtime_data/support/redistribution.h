// Moving an array between two layouts of the same array (another LPS, another task's partition,
// gather up or scatter down the LPS tree): every receiver gets each element it holds from the
// one sender that owns it. Exact and minimal: nothing is sent that the receiver does not hold.
#pragma once

#include <cstddef>
#include <vector>

#include "runtime/data/transfer_schedule.h"

namespace itrt {

struct PartTransfer {
    size_t from = 0; // index into `senders`
    size_t to = 0;   // index into `receivers`
    TransferSchedule schedule;
};

// All non-empty transfers owned(senders[i]) -> held(receivers[j]). The senders' owned sets must
// not overlap (pass one replica of replicated parts); `same_index_skipped` omits i == j (for
// exchanges within one layout, where an LPU already holds its own data).
std::vector<PartTransfer> redistribution(const std::vector<Part>& senders, const std::vector<Part>& receivers,
                                         bool same_index_skipped = false);

// True when the sender's owned extent and the receiver's held extent overlap in every dimension
// (a cheap necessary condition for a non-empty transfer).
bool extents_meet(const Part& sender, const Part& receiver);

} // namespace itrt
