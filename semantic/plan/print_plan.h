// Renders task plans as the stable, human-readable report of `itc plan`: per task the machine
// summary, the LPS tree with partitions and LPU counts, epoch versions, the flow with every
// inserted synchronisation in place, the dependencies with their classification, then the
// environment hand-overs between tasks. Output depends only on the plan (no addresses, no
// hash order), so golden tests can compare it.
#pragma once

#include "semantic/plan/task_plan.h"

#include <string>

namespace itc::semantic {

std::string printTaskPlan(const TaskPlan& plan);
std::string printProgramPlan(const ProgramPlan& plan);

} // namespace itc::semantic
