// The Computation section (guide: The Computation section): space nesting, Repeat forms (foreach
// needs a Sub-partition), Where/If/Epoch, stage invocations and their arguments (guide: Stages and
// statements), cross-LPU reductions (guide: Reductions), epoch placement (guide: Epochs), `lpuId`
// (guide: lpuId). (Sub-partitioned data is checked by semantic/partition/.) Instantiates each
// invoked stage in the LPS it runs in.
#pragma once

#include "semantic/check/context.h"

namespace itc::semantic::check {

void checkFlow(CheckState& state, TaskSym& task);

} // namespace itc::semantic::check
