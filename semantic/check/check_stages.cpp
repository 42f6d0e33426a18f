// Stage instantiation (see check_stages.h).
#include "semantic/check/check_stages.h"

#include "semantic/check/body_checker.h"

#include <fmt/format.h>

namespace itc::semantic::check {

namespace {

void checkInstance(CheckState& state, TaskSym& task, StageInstance& inst, StageFacts& facts) {
    const ast::StageDef& stage = *inst.stage;
    BodyChecker body(state, BodyKind::Stage, &task, &inst.exprTypes);
    body.setStage(&stage);
    for (std::size_t i = 0; i < stage.params.size(); ++i) {
        const ParamBinding* b = i < inst.params.size() ? &inst.params[i] : nullptr;
        body.declareParam(stage.params[i].text, b ? b->type : Type::error(), stage.params[i].range, b);
    }
    body.checkBlock(stage.body);
    inst.locals = body.localTypes();
    facts = body.facts();
    inst.usesEpoch = facts.epochUse.has_value();
    inst.globalsUsed.assign(facts.globalsUsed.begin(), facts.globalsUsed.end());
}

} // namespace

std::size_t instantiateStage(CheckState& state, TaskSym& task, const ast::StageDef& stage,
                             const std::vector<ParamBinding>& bindings, const std::string& space,
                             const ast::StageCall& call) {
    TaskInfo& info = state.out.tasks[task.outIndex];
    for (std::size_t i = 0; i < info.stageInstances.size(); ++i) {
        StageInstance& s = info.stageInstances[i];
        if (s.stage == &stage && s.space == space && s.params == bindings) {
            s.calls.push_back(&call);
            return i;
        }
    }
    StageInstance inst;
    inst.stage = &stage;
    inst.params = bindings;
    inst.space = space;
    inst.calls.push_back(&call);
    std::string types;
    for (std::size_t i = 0; i < bindings.size(); ++i)
        types += (i ? ", " : "") + qt(bindings[i].type);
    state.rep.pushContext(
        call.stage.range,
        fmt::format("in the instance of stage {} invoked here with argument types ({})", q(stage.name.text), types));
    StageFacts facts;
    std::size_t errorsBefore = state.rep.errorCount();
    checkInstance(state, task, inst, facts);
    facts.hadErrors = state.rep.errorCount() != errorsBefore;
    state.rep.popContext();
    info.stageInstances.push_back(std::move(inst));
    task.instanceFacts.push_back(std::move(facts));
    return info.stageInstances.size() - 1;
}

void checkUninvokedStages(CheckState& state, TaskSym& task) {
    const TaskInfo& info = state.out.tasks[task.outIndex];
    for (const ast::StageDef& st : task.def->stages) {
        bool used = false;
        for (const auto& s : info.stageInstances)
            used |= s.stage == &st;
        if (used)
            continue;
        StageInstance inst;
        inst.stage = &st;
        inst.params.assign(st.params.size(), ParamBinding{});
        // Bindings with the error type: nothing type-dependent is reported, and a reduction
        // operator parameter is left unchecked.
        StageFacts facts;
        BodyChecker body(state, BodyKind::Stage, &task, nullptr);
        body.setStage(&st);
        for (const auto& p : st.params)
            body.declareParam(p.text, Type::error(), p.range, nullptr);
        body.checkBlock(st.body);
    }
}

} // namespace itc::semantic::check
