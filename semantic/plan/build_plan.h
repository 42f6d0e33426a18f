// Pass: AST (+ optional machine model and checked mapping) -> task plans (task_plan.h).
// Runs, per task, the partition analysis, the flow tree, data usage, the placement checks and
// the dependency analysis, then adds LPU-count formulas, machine placement and the environment
// hand-overs between executions in coordinator order. Diagnostics are those of the passes
// (PartitionDef kinds); a plan is returned even after errors but must not be compiled then.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "semantic/plan/task_plan.h"

#include <string>
#include <vector>

namespace itc::pcubes {
struct MachineModel;
struct TaskMapping;
} // namespace itc::pcubes

namespace itc::semantic {

struct PlanTarget {
    const pcubes::MachineModel* machine = nullptr;              // null: plan without a machine
    const std::vector<pcubes::TaskMapping>* mappings = nullptr; // validated mappings, or null
    std::string machineFile;                                    // for the report
};

// `functions`: the program's functions, for the arguments their `&` parameters write (null: none).
TaskPlan buildTaskPlan(const ast::TaskDef& task, const PlanTarget& target, DiagnosticEngine& diags,
                       const std::vector<ast::FunctionDef>* functions = nullptr);
ProgramPlan buildProgramPlan(const ast::Program& program, const PlanTarget& target, DiagnosticEngine& diags);

} // namespace itc::semantic

namespace itc::semantic {

// The partition and placement checks alone (for `itc check`): builds the plans without a
// machine and discards them. Returns true when no PartitionDef error was reported.
bool checkPartitions(const ast::Program& program, DiagnosticEngine& diags);

} // namespace itc::semantic
