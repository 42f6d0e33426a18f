// The semantic check pipeline, top to bottom: symbols, functions' call graph, coordinator,
// then per task Initialize and Computation (which instantiates the invoked stages), then the
// bodies nothing invoked. Each step is one pass in semantic/check/.
#include "semantic/semantic.h"

#include "semantic/check/check_coordinator.h"
#include "semantic/check/check_flow.h"
#include "semantic/check/check_functions.h"
#include "semantic/check/check_initialize.h"
#include "semantic/check/backward_ranges.h"
#include "semantic/check/check_stages.h"
#include "semantic/check/loop_dependence.h"
#include "semantic/check/collect_symbols.h"
#include "semantic/check/context.h"

namespace itc::semantic {

const TaskInfo* CheckedProgram::findTask(const std::string& name) const {
    for (const TaskInfo& t : tasks)
        if (t.task && t.task->name.text == name)
            return &t;
    return nullptr;
}

bool checkProgram(const ast::Program& program, const SourceManager& sources, DiagnosticEngine& diags,
                  CheckedProgram& out) {
    (void)sources;
    std::size_t before = diags.errorCount();
    check::CheckState state(program, diags, out);
    check::collectSymbols(state);
    check::checkFunctionDeclarations(state);
    check::checkCoordinator(state);
    for (const ast::TaskDef& t : program.tasks) {
        auto it = state.tasks.find(t.name.text);
        if (it == state.tasks.end() || it->second.def != &t)
            continue;
        check::checkInitialize(state, it->second);
        check::checkFlow(state, it->second);
        check::checkUninvokedStages(state, it->second);
        for (const ast::StageDef& stage : t.stages)
            check::warnLoopCarriedReads(stage, diags);
    }
    check::checkUncalledFunctions(state);
    check::warnRangesRunningBackwards(program, diags);
    return diags.errorCount() == before;
}

} // namespace itc::semantic
