// Pass: the Partition section of one task -> its LPS tree (lps_tree.h), checking every rule of
// the Partition section that needs only the section and the task's Define (guide: Partition
// functions, The Partition section, Padding, Sub-partitions). Guarantees: every diagnostic it
// reports is a PartitionDef kind; the returned tree always exists, parents always precede children,
// and every stored ArrayPartition is well-formed (one instruction per space dimension, valid
// distinct array dimensions).
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "semantic/partition/lps_tree.h"
#include "semantic/usage/task_globals.h"

namespace itc::semantic {

// The errors of `divides` clauses: a space dividing itself, an undeclared space, or one declared
// after it (two spaces dividing each other are named as such). The checker reports them
// (collect_symbols), before any pass follows the spaces' parents; analyzePartition takes such a
// space to divide Root.
void reportSpaceParents(const ast::PartitionSection& sec, DiagnosticEngine& diags);

LpsTree analyzePartition(const ast::TaskDef& task, const TaskGlobals& globals, DiagnosticEngine& diags);

} // namespace itc::semantic
