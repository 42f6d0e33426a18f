// Implements stale_padding.h from the dependencies the plan found: those that need no
// synchronisation because the write and the read are in the same part of a padded space.
#include "semantic/plan/stale_padding.h"

#include <fmt/format.h>

#include <set>
#include <utility>

namespace itc::semantic {

void warnStalePadding(const TaskPlan& plan, DiagnosticEngine& diags) {
    std::set<std::pair<int, std::string>> reported; // (reader access, array)
    for (const Dependency& dep : plan.dependencies.deps) {
        if (dep.kind != SyncKind::None || dep.carriedBy != -1 || dep.lag != 0 || dep.writer == dep.reader ||
            dep.fromLps != dep.toLps)
            continue;
        const FlowAccess& w = plan.usage.accesses.at(static_cast<std::size_t>(dep.writer));
        const FlowAccess& r = plan.usage.accesses.at(static_cast<std::size_t>(dep.reader));
        if (w.kind != FlowAccess::Kind::Stage || r.kind != FlowAccess::Kind::Stage || w.lps != r.lps ||
            r.lps != dep.toLps || r.lps == kRootLps)
            continue;
        const VarAccess* wv = w.find(dep.var);
        const VarAccess* rv = r.find(dep.var);
        const ArrayPartition* part = plan.lps.at(r.lps).find(dep.var);
        if (!wv || !wv->written || wv->agedOnly || wv->reduced || !rv || !rv->read || !part || part->whole)
            continue;
        for (std::size_t d = 0; d < rv->readDims.size(); ++d) {
            const DimAccess& a = rv->readDims[d];
            const DimInstruction* split = part->splitting(static_cast<int>(d) + 1);
            if (!a.aligned || (a.minOffset == 0 && a.maxOffset == 0) || !split || !split->padded())
                continue;
            if (!reported.insert({dep.reader, dep.var}).second)
                break;
            const std::string& space = plan.lps.at(r.lps).name;
            auto& warning = diags.report(
                DiagKind::StalePaddingRead, r.range,
                fmt::format("stage `{}` reads `{}` at offsets {} along dimension {}, which `Space {}` pads, after "
                            "stage `{}` wrote it in the same `Space {}` block: padded copies are refreshed only "
                            "when the flow leaves the block, so at the edge of its part an LPU reads its "
                            "neighbours' cells as they were before that write; close the block between the two "
                            "stages (`Space {} {{ {} }} Space {} {{ {} }}`) to have them refreshed",
                            r.stage, dep.var, a.text(), d + 1, space, w.stage, space, space, w.stage, space, r.stage),
                Severity::Warning);
            DiagnosticEngine::addNote(warning, w.range, "`" + dep.var + "` is written here");
            break;
        }
    }
}

} // namespace itc::semantic
