// The stage calls of a task's flow made in a space other than Root, each with its stage and the
// task-global each parameter is bound to (arguments that name one). Shared by the checks that
// read stage bodies against the calling space's partition.
#pragma once

#include "frontend/ast/ast.h"
#include "semantic/partition/lps_tree.h"
#include "semantic/usage/flow_tree.h"

#include <map>
#include <string>

namespace itc::semantic {

struct StageCallSite {
    int node = -1;  // in the flow tree
    int space = -1; // the calling space
    const ast::StageDef* stage = nullptr;
    std::map<std::string, std::string> globalOf; // parameter -> the task-global its argument names
};

template <typename F> void forEachStageCallInSpace(const ast::TaskDef& task, const FlowTree& flow, F&& visit) {
    for (std::size_t id = 0; id < flow.nodes.size(); ++id) {
        const FlowNode& n = flow.nodes[id];
        auto* call = n.source ? n.source->as<ast::StageCall>() : nullptr;
        if (n.kind != FlowNode::Kind::Call || !call || n.context == kRootLps || n.context == kNoLps)
            continue;
        StageCallSite site{static_cast<int>(id), n.context, task.findStage(call->stage.text), {}};
        if (!site.stage)
            continue;
        for (std::size_t i = 0; i < site.stage->params.size() && i < call->args.size(); ++i) {
            const ast::CallArg& arg = call->args[i];
            if (auto* name = !arg.isSpaceArg() && arg.value ? arg.value->as<ast::NameRef>() : nullptr)
                site.globalOf[site.stage->params[i].text] = name->name;
        }
        visit(site);
    }
}

} // namespace itc::semantic
