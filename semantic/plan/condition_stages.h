// Conditions decided in their own space. A `Where`/`If`/`Repeat while` of space C is tested by
// the LPUs of every space whose stages it guards, each on its ancestor C LPU's data. When the
// condition reads a task array that a guarded space keeps in parts of its own, those LPUs do not
// hold C's data (it may live in another process). The plan then has C's LPUs decide: a stage of
// C evaluates the condition into a Boolean task-global just before the test (and again at the
// end of each turn of a `Repeat while`), and the construct tests that Boolean, which the
// dependency analysis moves to the guarded LPUs like any scalar a flow condition reads.
// Likewise the bounds and step of a Root `Repeat for` that read a task array: every process
// evaluates them once before the loop, so a Root stage computes them into task-globals first.
#pragma once

#include "frontend/ast/ast.h"
#include "semantic/plan/task_plan.h"

namespace itc::semantic {

// Rewrites the conditions and Root `Repeat for` ranges of `program` that need it, given the plan built for it, and
// returns how many it rewrote (then the program must be checked and planned again); with `rewrite` false, only counts
// them. A condition nested in another `Where`/`If` of a space with more than one LPU is left as it is: which LPUs
// decide would depend on the outer guard; so is one that names a partition parameter, which stages do not see
// (backend/capability.cpp refuses both).
int decideConditionsInTheirSpace(ast::Program& program, const ProgramPlan& plan, bool rewrite = true);

} // namespace itc::semantic
