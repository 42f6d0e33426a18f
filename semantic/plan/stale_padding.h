// A stage that reads neighbours (`v[i-1]`) along a dimension its space pads, of an array that an
// earlier stage of the same Space block wrote: padded copies are refreshed only when the flow
// leaves the block, so at the edge of its part the reader sees its neighbours' cells as they were
// before that write, and the result changes with the partition (red-black sweeps in one block).
// A warning at the reader. Not for a write carried around a `Repeat` to the same stage's next
// turn: a stencil running several sweeps on padding as wide as the sweeps does that on purpose.
#pragma once

#include "frontend/diagnostics/diagnostics.h"
#include "semantic/plan/task_plan.h"

namespace itc::semantic {

// Before the flow nodes' sources are cleared (it reports at the accesses' ranges).
void warnStalePadding(const TaskPlan& plan, DiagnosticEngine& diags);

} // namespace itc::semantic
