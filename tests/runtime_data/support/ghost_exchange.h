// Padding (ghost) refresh for a padded array configuration in one space: for every LPU, the
// elements of its padding it receives from each owner LPU (§10.4, R-65). Exactly the held
// elements the receiver does not own, each from its unique owner.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/data/space_config.h"
#include "runtime/data/transfer_schedule.h"

namespace itrt {

struct GhostTransfer {
    std::vector<int64_t> from; // sender LPU coordinates
    std::vector<int64_t> to;   // receiver LPU coordinates
    TransferSchedule schedule; // sender's owned ∩ receiver's held
};

// All transfers for the LPUs of one parent LPU. Along space dimensions where the array is
// replicated, a receiver takes data from the owner with its own coordinate there, so each padded
// element arrives exactly once.
std::vector<GhostTransfer> ghost_exchange(const Part& parent_part, const ArrayConfig& config,
                                          const std::vector<int64_t>& counts);

} // namespace itrt
