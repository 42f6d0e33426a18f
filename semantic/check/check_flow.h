// The Computation section (§8): space nesting, Repeat forms (R-48, foreach needs a
// Sub-partition), Where/If/Epoch, stage invocations and their arguments (§6.2 rule 3),
// cross-LPU reductions (§6.7, R-38, R-39), epoch placement, `lpuId`. (Sub-partitioned data, R-49, is checked by
// semantic/partition/.) Instantiates each invoked stage in the LPS it runs in.
#pragma once

#include "semantic/check/context.h"

namespace itc::sema::check {

void checkFlow(CheckState& state, TaskSym& task);

} // namespace itc::sema::check
