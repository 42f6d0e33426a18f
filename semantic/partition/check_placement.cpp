// Placement checks: one walk over the stage invocations, one over the spaces.
#include "semantic/partition/check_placement.h"

#include <algorithm>

namespace itc::semantic {

void checkPlacement(const TaskGlobals& globals, const LpsTree& lps, const FlowTree& flow,
                    const DataUsage& usage, DiagnosticEngine& diags) {
    for (const FlowAccess& a : usage.accesses) {
        if (a.kind != FlowAccess::Kind::Stage || a.lps == kRootLps)
            continue;
        const Lps& space = lps.at(a.lps);
        int foreach = flow.enclosing(a.node, FlowNode::Kind::RepeatForeach);
        bool inOwnForeach = foreach != -1 && flow.at(foreach).context == a.lps;
        for (const VarAccess& v : a.vars) {
            const TaskGlobal* g = globals.find(v.var);
            if (!g || !g->isArray())
                continue;
            bool erroneous = std::find(space.erroneous.begin(), space.erroneous.end(), v.var) !=
                             space.erroneous.end();
            if (!space.find(v.var) && erroneous)
                continue; // its configuration was already reported
            // Un-partitioned spaces hold unlisted arrays as their parent's part (§9.8 requires
            // configurations only in partitioned spaces).
            if (!space.find(v.var) && !space.unpartitioned) {
                auto& d = diags.error(DiagKind::ArrayNotConfiguredInSpace, a.range,
                                      "stage `{}` uses the array `{}` in `Space {}`, which does "
                                      "not configure it; add `{}` to the configuration of "
                                      "`Space {}` (§8.5)",
                                      a.stage, v.var, space.name, v.var, space.name);
                DiagnosticEngine::addNote(d, space.range,
                                          "`Space " + space.name + "` is configured here");
                continue;
            }
            if (space.subpartition && space.subpartition->find(v.var) && !inOwnForeach) {
                auto& d = diags.error(DiagKind::SubpartitionedArrayOutsideForeach, a.range,
                                      "stage `{}` uses `{}`, which the Sub-partition of `Space "
                                      "{}` splits, outside `Repeat foreach sub-partition`; "
                                      "invoke it inside such a loop in `Space {}` (R-49)",
                                      a.stage, v.var, space.name, space.name);
                DiagnosticEngine::addNote(d, space.subpartition->range,
                                          "the Sub-partition is declared here");
            }
        }
    }
    for (std::size_t id = 1; id < lps.spaces.size(); ++id) {
        const Lps& space = lps.spaces[id];
        if (!space.subpartition)
            continue;
        bool used = false;
        for (const FlowNode& n : flow.nodes)
            if (n.kind == FlowNode::Kind::RepeatForeach && n.context == static_cast<int>(id))
                used = true;
        if (!used)
            diags.error(DiagKind::SubpartitionNotUsed, space.subpartition->range,
                        "`Space {}` has a Sub-partition, but no `Repeat foreach sub-partition` "
                        "runs in `Space {}`; add such a loop to the flow or remove the "
                        "Sub-partition",
                        space.name, space.name);
    }
}

} // namespace itc::semantic
