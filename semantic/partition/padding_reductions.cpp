// Implements padding_reductions.h: for each stage call in a partitioned space, the stage's
// `reduce`s with a literal "sum" or "product", and the parallel loops around each; a loop over a
// dimension of an array that this space or a space above it pads runs over padding cells.
#include "semantic/partition/padding_reductions.h"

#include "frontend/ast/ast_visitor.h"
#include "semantic/partition/stage_calls.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace itc::semantic {

namespace {

struct Context {
    const TaskGlobals& globals;
    const LpsTree& lps;
    int space;
    std::map<std::string, std::string> globalOf; // stage parameter -> task-global argument
    DiagnosticEngine& diags;
    std::string stage;
    std::set<std::pair<const void*, int>>& reported; // (reduce node, space)
};

// The padding instruction of dimension `dim` of `array` seen from `space`: its own, or that of
// the nearest space above that configures the array (a child's parts lie inside its parent's,
// padding included). Null when no space on the way pads it.
const DimInstruction* paddingOf(const LpsTree& lps, int space, const std::string& array, int dim, std::string& padder) {
    for (int s = lps.configuringSpace(space, array); s != kRootLps && s != kNoLps;
         s = lps.configuringSpace(lps.at(s).parent, array)) {
        const ArrayPartition* part = lps.at(s).find(array);
        const DimInstruction* split = part && !part->whole ? part->splitting(dim) : nullptr;
        if (split && split->padded()) {
            padder = lps.at(s).name;
            return split;
        }
    }
    return nullptr;
}

struct Walk : ast::Visitor {
    Context& c;
    std::vector<const ast::IndexGroup*> groups; // enclosing parallel loops' index groups
    explicit Walk(Context& ctx) : c(ctx) {}

    void visitParallelLoop(const ast::ParallelLoop& loop) override {
        const std::size_t outer = groups.size();
        for (const ast::IndexGroup& g : loop.groups)
            groups.push_back(&g);
        ast::Visitor::visitParallelLoop(loop);
        groups.resize(outer);
    }
    void visitReduceStmt(const ast::ReduceStmt& r) override {
        check(r.op, &r, r.range);
        ast::Visitor::visitReduceStmt(r);
    }
    void visitReduceExpr(const ast::ReduceExpr& r) override {
        check(r.op, &r, r.range);
        ast::Visitor::visitReduceExpr(r);
    }

    void check(const ast::ReduceOperator& op, const void* node, SourceRange at) {
        if (!op.isLiteral || (op.text != "sum" && op.text != "product"))
            return;
        for (const ast::IndexGroup* g : groups) {
            auto bound = c.globalOf.find(g->collection.text);
            const std::string& array = bound != c.globalOf.end() ? bound->second : g->collection.text;
            const TaskGlobal* global = c.globals.find(array);
            if (!global || !global->isArray())
                continue;
            std::vector<int> dims; // the array dimensions the group's indices run over
            if (g->dimensionIndex > 0)
                dims.push_back(g->dimensionIndex);
            else if (static_cast<int>(g->indices.size()) == global->dims)
                for (int d = 1; d <= global->dims; ++d)
                    dims.push_back(d);
            for (int d : dims) {
                std::string padder;
                const DimInstruction* pad = paddingOf(c.lps, c.space, array, d, padder);
                if (!pad || !c.reported.insert({node, c.space}).second)
                    continue;
                c.diags.report(
                    DiagKind::ReductionOverPadding, at,
                    fmt::format("stage `{}` reduces with \"{}\" in a loop over dimension {} of `{}`, which `Space {}` "
                                "pads: a parallel loop runs over the LPU's padding cells too, copies of its "
                                "neighbours' cells, so each is counted once more per LPU and the result changes "
                                "with the partition; reduce in a space that holds `{}` without padding, or skip the "
                                "padding cells with an `and` condition on the loop",
                                c.stage, op.text, d, array, padder, array),
                    Severity::Warning);
                return;
            }
        }
    }
};

} // namespace

void warnReductionsOverPadding(const ast::TaskDef& task, const TaskGlobals& globals, const LpsTree& lps,
                               const FlowTree& flow, DiagnosticEngine& diags) {
    std::set<std::pair<const void*, int>> reported;
    forEachStageCallInSpace(task, flow, [&](const StageCallSite& site) {
        Context c{globals, lps, site.space, site.globalOf, diags, site.stage->name.text, reported};
        Walk walk(c);
        walk.visitBlock(site.stage->body);
    });
}

} // namespace itc::semantic
