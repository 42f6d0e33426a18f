// Every LPU of a partitioned space holds its own copy of a replicated array. A stage that writes
// such a copy with a value computed from an array the space partitions (column sums of a
// row-partitioned matrix written into a replicated vector) writes a different value in each
// copy, and nothing combines them: the result depends on the partition. A warning, as for writes
// in a loop over a partitioned dimension (check_placement.cpp); writes under a Where/If of the
// flow, or inside an `if` of the stage whose test may pick LPUs (it reads `lpuId`, `local`, a
// parameter or task-global: one LPU may be the writer), are left alone. An `if` testing only
// values of the LPU's part (`if (s > 0.0)`) picks no LPU: such writes are reported too.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "semantic/partition/lps_tree.h"
#include "semantic/usage/flow_tree.h"

namespace itc::semantic {

void warnReplicasFromParts(const ast::TaskDef& task, const LpsTree& lps, const FlowTree& flow, DiagnosticEngine& diags);

} // namespace itc::semantic
