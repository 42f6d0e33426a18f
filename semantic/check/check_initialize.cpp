// Initialize sections (see check_initialize.h).
#include "semantic/check/check_initialize.h"

#include "semantic/check/body_checker.h"

#include <fmt/format.h>

namespace itc::semantic::check {

void checkInitialize(CheckState& state, TaskSym& task) {
    if (!task.def->initialize)
        return;
    const ast::InitializeSection& init = *task.def->initialize;
    TaskInfo& info = state.out.tasks[task.outIndex];
    BodyChecker body(state, BodyKind::Initialize, &task, &state.out.exprTypes);
    std::map<std::string, SourceRange> seen;
    for (std::size_t i = 0; i < init.params.size(); ++i) {
        const ast::Name& p = init.params[i];
        auto [it, fresh] = seen.emplace(p.text, p.range);
        if (!fresh) {
            if (auto* d = state.rep.error(DiagKind::DuplicateVariable, p.range,
                                          fmt::format("Initialize parameter {} appears twice", q(p.text))))
                DiagnosticEngine::addNote(*d, it->second, "first declared here");
            continue;
        }
        // A parameter naming a task-global is auto-assigned to it (guide: Tasks): the name already
        // resolves to the global, so nothing is declared.
        if (task.globals.count(p.text))
            continue;
        Type t = Type::simple(TypeKind::ArgValue);
        if (task.initializeArgTypes && i < task.initializeArgTypes->size())
            t = inferredLocalType((*task.initializeArgTypes)[i]);
        body.declareLocal(p.text, t, p.range);
    }
    body.checkBlock(init.body);
    info.initializeLocals = body.localTypes();
}

} // namespace itc::semantic::check
