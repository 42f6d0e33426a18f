// Pass: checks the Partition section against the flow's data usage: every array a stage uses in
// a partitioned space is configured there (guide: The Partition section; un-partitioned spaces hold
// unlisted arrays as their parent's part); Where/If conditions and Repeat headers there read
// elements only of arrays the space holds (guide: The Computation section); sub-partitioned arrays
// are touched only inside `Repeat foreach sub-partition` of their space (guide: Sub-partitions);
// and a Sub-partition is declared only where such a loop uses it (guide: The Computation section).
// Reports PartitionDef kinds only.
#pragma once

#include "frontend/diagnostics/diagnostics.h"
#include "semantic/partition/lps_tree.h"
#include "semantic/usage/data_usage.h"
#include "semantic/usage/flow_tree.h"
#include "semantic/usage/task_globals.h"

namespace itc::semantic {

void checkPlacement(const TaskGlobals& globals, const LpsTree& lps, const FlowTree& flow, const DataUsage& usage,
                    DiagnosticEngine& diags);

} // namespace itc::semantic
