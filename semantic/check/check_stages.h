// Stage instantiation (guide: Stages and statements, Types): a stage is checked once per distinct
// binding of its parameters (argument types, constants, string literals, `Space X:` targets) and
// invoking LPS, like a C++ template. Errors inside an instance carry a note at the call site.
#pragma once

#include "semantic/check/context.h"

namespace itc::semantic::check {

// Returns the index of the instance in CheckedProgram::tasks[task.outIndex].stageInstances
// (and in task.instanceFacts), checking it on first use.
std::size_t instantiateStage(CheckState& state, TaskSym& task, const ast::StageDef& stage,
                             const std::vector<ParamBinding>& bindings, const std::string& space,
                             const ast::StageCall& call);

// Checks stages that the flow never invokes, with untyped parameters (names and placement
// rules only).
void checkUninvokedStages(CheckState& state, TaskSym& task);

} // namespace itc::semantic::check
