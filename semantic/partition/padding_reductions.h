// A parallel loop runs over the indices an LPU holds, padding included: the padding cells are
// copies of the neighbours' cells. A sum or product over such a loop counts them once more for
// every LPU, so its result changes with the partition (ten ones summed over p = 2 padded parts
// give 12). A warning at the reduction; max, min, the logical and bitwise operators and the
// `_entry` ones see a copy as the cell itself and are not affected.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "semantic/partition/lps_tree.h"
#include "semantic/usage/flow_tree.h"
#include "semantic/usage/task_globals.h"

namespace itc::semantic {

void warnReductionsOverPadding(const ast::TaskDef& task, const TaskGlobals& globals, const LpsTree& lps,
                               const FlowTree& flow, DiagnosticEngine& diags);

} // namespace itc::semantic
