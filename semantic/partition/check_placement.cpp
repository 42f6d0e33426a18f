// Placement checks: one walk over the stage invocations, one over the spaces.
#include "semantic/partition/check_placement.h"

#include "frontend/ast/ast_visitor.h"

#include <algorithm>
#include <set>

namespace itc::semantic {

namespace {

// The first element access `var[...]` in `e`, or null.
const ast::Expr* firstElementOf(const ast::Expr* e, const std::string& var) {
    struct Finder : ast::Visitor {
        const std::string& var;
        const ast::Expr* found = nullptr;
        explicit Finder(const std::string& v) : var(v) {}
        void visitSubscript(const ast::Subscript& s) override {
            if (auto* n = s.base ? s.base->as<ast::NameRef>() : nullptr; n && n->name == var && !found)
                found = &s;
            ast::Visitor::visitSubscript(s);
        }
    } f(var);
    if (e)
        f.visitExpr(*e);
    return f.found;
}

// Where a Where/If condition or Repeat header reads an element of `var` (its node's range if the
// AST is gone).
SourceRange elementRange(const FlowNode& node, const std::string& var, SourceRange fallback) {
    const ast::FlowPart* p = node.source;
    const ast::Expr* found = nullptr;
    if (!p)
        return fallback;
    if (auto* c = p->as<ast::Condition>()) {
        found = firstElementOf(c->condition.get(), var);
        if (!found)
            found = firstElementOf(c->membershipRange.get(), var);
    } else if (auto* r = p->as<ast::RepeatFor>()) {
        found = firstElementOf(r->rangeExpr.get(), var);
        if (!found)
            found = firstElementOf(r->step.get(), var);
    } else if (auto* w = p->as<ast::RepeatWhile>()) {
        found = firstElementOf(w->condition.get(), var);
    }
    return found ? found->range : fallback;
}

// A condition (and, alike, a Repeat header) is evaluated by every LPU of its context space
// and may read only elements that LPU holds; an array a partitioned space does not configure has
// no part there (guide: The Partition section). Root holds everything and un-partitioned spaces
// hold their parent's part.
void checkFlowElement(const FlowAccess& a, const TaskGlobals& globals, const LpsTree& lps, const FlowTree& flow,
                      DiagnosticEngine& diags) {
    const Lps& space = lps.at(a.lps);
    if (space.unpartitioned)
        return;
    for (const VarAccess& v : a.vars) {
        const TaskGlobal* g = globals.find(v.var);
        if (!g || !g->isArray() || !v.read || space.find(v.var))
            continue;
        if (std::find(space.erroneous.begin(), space.erroneous.end(), v.var) != space.erroneous.end())
            continue; // its configuration was already reported
        const FlowNode& node = flow.at(a.node);
        bool condition = a.kind == FlowAccess::Kind::Condition;
        auto& d = diags.error(DiagKind::FlowElementNotHeld, elementRange(node, v.var, a.range),
                              "this {} reads an element of `{}`, but `Space {}` does not configure "
                              "`{}`, so its LPUs hold no part of it; configure `{}` in `Space {}` "
                              "or move the {} to a space that holds it (see the guide: The Computation section)",
                              condition ? "condition" : "`Repeat` header", v.var, space.name, v.var, v.var, space.name,
                              condition ? "condition" : "`Repeat`");
        DiagnosticEngine::addNote(d, space.range, "`Space " + space.name + "` is configured here");
    }
}

// Every LPU of a partitioned space holds its own copy of a replicated array; a stage that writes
// it in a loop over a partitioned dimension, outside any Where/If, writes different values (or
// positions) in each copy, and nothing combines them afterwards (exclusive update, guide: Shared
// data). A warning: the program is valid, its result is rarely what was meant.
void warnDivergingReplicas(const FlowAccess& a, const TaskGlobals& globals, const LpsTree& lps,
                           DiagnosticEngine& diags) {
    const Lps& space = lps.at(a.lps);
    if (a.guarded || space.unpartitioned)
        return;
    for (const VarAccess& v : a.vars) {
        const ArrayPartition* target = space.find(v.var);
        const TaskGlobal* written = globals.find(v.var);
        if (!v.written || v.reduced || !written)
            continue;
        const bool scalar = !written->isArray(); // every LPU has its own copy of a task-global scalar
        if (!scalar && (!target || target->whole))
            continue;
        if (!scalar && !std::all_of(target->instructions.begin(), target->instructions.end(),
                                    [](const DimInstruction& di) { return di.replicated; }))
            continue;
        for (const LoopBinding& b : v.writeLoops) {
            const TaskGlobal* g = globals.find(b.array);
            const ArrayPartition* loop = space.find(b.array);
            if (!g || !loop || loop->whole || (b.indices != 0 && b.indices != g->dims))
                continue; // a loop whose index-to-dimension binding is not positional
            const DimInstruction* split = loop->splitting(b.dim + 1);
            if (!split || split->replicated)
                continue;
            if (scalar) {
                diags.report(
                    DiagKind::UnguardedReplicatedWrite, a.range,
                    fmt::format("stage `{}` writes task-global `{}` in a loop over dimension {} of `{}`, "
                                "which `Space {}` partitions, and outside any Where/If: each LPU computes "
                                "it from its own part, and which LPU's value later reads see is not "
                                "defined; declare it a Reduction and reduce into it (`reduce({}, \"max\", ...)`, "
                                "passed as `Space X: {}`), or guard the stage with Where so that one LPU "
                                "writes it (see the guide: Reductions)",
                                a.stage, v.var, b.dim + 1, b.array, space.name, v.var, v.var),
                    Severity::Warning);
                break;
            }
            auto& d =
                diags.report(DiagKind::UnguardedReplicatedWrite, a.range,
                             fmt::format("stage `{}` writes `{}`, of which every LPU of `Space {}` holds a copy "
                                         "(replicated), in a loop over dimension {} of `{}`, which `Space {}` "
                                         "partitions, and outside any Where/If: each LPU writes its copy "
                                         "differently and the copies are never combined; reduce into a Reduction "
                                         "variable, partition `{}`, or guard the stage with Where so that one LPU "
                                         "writes it (see the guide: Replication and dimension selectors)",
                                         a.stage, v.var, space.name, b.dim + 1, b.array, space.name, v.var),
                             Severity::Warning);
            DiagnosticEngine::addNote(d, target->range, "`" + v.var + "` is replicated here");
            break;
        }
    }
}

// A padding width as a number: 0 when there is none, nothing when a partition parameter gives it
// (which may be wide enough).
std::optional<std::int64_t> literalWidth(const std::optional<SymbolicArg>& p) {
    if (!p)
        return 0;
    if (p->param)
        return std::nullopt;
    return p->literal;
}

// The same reads in a space that pads the dimension but divides the partitions of a space that
// cuts it without padding, or with literal padding narrower than the reads: a part of the child
// lies inside its parent LPU's part, padding included, so at the edge of a parent part the
// child's padding stops (guide: Padding).
void warnPaddingStopsAtParent(const FlowAccess& a, const std::string& var, int d, const DimAccess& access,
                              const LpsTree& lps, DiagnosticEngine& diags) {
    const int reach = std::max(-access.minOffset, access.maxOffset);
    const Lps& space = lps.at(a.lps);
    if (space.dividesSubpartitions || space.parent == kNoLps || space.parent == kRootLps)
        return; // a sub-partition's pieces take no padding: nothing to add there
    const int up = lps.configuringSpace(space.parent, var);
    const ArrayPartition* parentPart = up == kRootLps ? nullptr : lps.at(up).find(var);
    const DimInstruction* split = parentPart && !parentPart->whole ? parentPart->splitting(d + 1) : nullptr;
    if (!split || split->replicated || split->strided())
        return;
    if (split->padded()) { // narrower than the reads? (a partition parameter may be wide enough)
        const auto front = literalWidth(split->paddingFront), back = literalWidth(split->paddingBack);
        if (!front || !back || (-access.minOffset <= *front && access.maxOffset <= *back))
            return;
    }
    const std::string how = split->padded() ? "with padding narrower than the reads" : "without padding";
    auto& w = diags.report(
        DiagKind::PaddingStopsAtParent, a.range,
        fmt::format("stage `{}` reads `{}` at offsets {} along dimension {}, which `Space {}` pads, but `Space {}`, "
                    "whose parts it divides, cuts that dimension ({}) {}: a `Space {}` part holds only cells of its "
                    "parent's part, so at the edge of a `Space {}` part its padding stops; give that dimension "
                    "`padding({})` in `Space {}` too",
                    a.stage, var, access.text(), d + 1, space.name, lps.at(up).name, split->text(), how, space.name,
                    lps.at(up).name, reach, lps.at(up).name),
        Severity::Warning);
    DiagnosticEngine::addNote(w, parentPart->range, "`" + var + "` is partitioned here " + how);
}

// `a[i-2]` on a dimension padded by 1: at the edge of its part an LPU reads past its padding, an
// element it does not hold. Only for literal widths (a partition parameter may be large enough).
void warnNarrowPadding(const FlowAccess& a, const std::string& var, int d, const DimAccess& access,
                       const DimInstruction& split, const ArrayPartition& part, const Lps& space,
                       DiagnosticEngine& diags) {
    const auto front = literalWidth(split.paddingFront), back = literalWidth(split.paddingBack);
    const bool shortFront = front && access.minOffset < 0 && -access.minOffset > *front;
    const bool shortBack = back && access.maxOffset > 0 && access.maxOffset > *back;
    if (!shortFront && !shortBack)
        return;
    const std::int64_t needFront = std::max<std::int64_t>(front.value_or(0), -access.minOffset);
    const std::int64_t needBack = std::max<std::int64_t>(back.value_or(0), access.maxOffset);
    const std::string fix = needFront == needBack ? fmt::format("padding({})", needFront)
                                                  : fmt::format("padding({}, {})", needFront, needBack);
    auto& w = diags.report(
        DiagKind::PaddingNarrowerThanReads, a.range,
        fmt::format("stage `{}` reads `{}` at offsets {} of a loop index along dimension {}, but `Space {}` pads "
                    "that dimension by only {} (`{}`): at the edge of its part an LPU reads past its padding, an "
                    "element it does not hold (run with --debug to have it stopped); use `{}`, unless the stage "
                    "keeps within its part and padding itself",
                    a.stage, var, access.text(), d + 1, space.name, shortFront ? *front : *back, split.text(), fix),
        Severity::Warning);
    DiagnosticEngine::addNote(w, part.range, "`" + var + "` is partitioned here");
}

// `a[i-1]`, `a[i+1]` with `i` a parallel-loop index: along a dimension the space cuts into blocks
// with no padding, an LPU's loop reaches the edge of its part and reads an element it does not
// hold (without --debug, whatever lies next to the part in memory). A warning, since a stage may
// keep within its part itself (tests against `.local` ranges); padding is what the reference
// offers for such reads (guide: Padding).
void warnNeighbourReads(const FlowAccess& a, const LpsTree& lps, DiagnosticEngine& diags) {
    const Lps& space = lps.at(a.lps);
    if (space.unpartitioned)
        return;
    for (const VarAccess& v : a.vars) {
        const ArrayPartition* part = space.find(v.var);
        if (!v.read || !part || part->whole)
            continue;
        for (std::size_t d = 0; d < v.readDims.size(); ++d) {
            const DimAccess& access = v.readDims[d];
            if (!access.aligned || (access.minOffset == 0 && access.maxOffset == 0))
                continue;
            const DimInstruction* split = part->splitting(static_cast<int>(d) + 1);
            const int reach = std::max(-access.minOffset, access.maxOffset);
            if (split && split->padded()) {
                warnPaddingStopsAtParent(a, v.var, static_cast<int>(d), access, lps, diags);
                warnNarrowPadding(a, v.var, static_cast<int>(d), access, *split, *part, space, diags);
                continue;
            }
            if (!split || split->replicated || split->strided() || split->paddingFront || split->paddingBack)
                continue;
            auto& w = diags.report(
                DiagKind::NeighbourReadWithoutPadding, a.range,
                fmt::format("stage `{}` reads `{}` at offsets {} of a loop index along dimension {}, which `Space {}` "
                            "cuts into blocks ({}) without padding: at the edge of its part an LPU reads an element "
                            "another LPU holds, which is not there (run with --debug to have it stopped); add "
                            "`padding({})` to that dimension's partition function, unless the stage keeps within "
                            "its part itself",
                            a.stage, v.var, access.text(), d + 1, space.name, split->text(), reach),
                Severity::Warning);
            DiagnosticEngine::addNote(w, part->range, "`" + v.var + "` is partitioned here");
            break;
        }
    }
}

// The partition function that cuts dimension `dim` (0-based) of `array` for the LPUs of `lps`:
// its own, or that of a space above whose part it holds. Null when its LPUs hold the dimension
// whole (replicated, or no space on the way cuts it).
struct Cut {
    const DimInstruction* split = nullptr;
    int space = kNoLps;
};
Cut cutAlong(const LpsTree& lps, int space, const std::string& array, int dim) {
    for (int s = space; s != kNoLps && s != kRootLps; s = lps.at(s).parent)
        if (const ArrayPartition* part = lps.at(s).find(array); part && !part->whole)
            if (const DimInstruction* split = part->splitting(dim + 1); split && !split->replicated)
                return {split, s};
    return {};
}

// `do in sequence { s = s + part[q] } for q in part.dimension1.range` in a space that cuts
// `part` along dimension 1: the loop runs over the whole array, the LPU holds a part of it.
// Without --debug it reads whatever lies next to its part (k-means centre sums, an allreduce by
// hand). Only when the loop runs over a dimension the space cuts as well and nothing in the
// loop tests the index (testsIndex in data_usage): the body may keep to its part itself.
void warnWholeRangeLoops(const FlowAccess& a, const LpsTree& lps,
                         std::set<std::pair<std::uint32_t, std::uint32_t>>& seen, DiagnosticEngine& diags) {
    const Lps& space = lps.at(a.lps);
    for (const VarAccess& v : a.vars)
        for (const WholeRangeSubscript& w : v.wholeRange) {
            const Cut cut = cutAlong(lps, a.lps, v.var, w.dim);
            if (!cut.split || !cutAlong(lps, a.lps, w.loopArray, w.loopDim).split)
                continue;
            if (!seen.insert({w.at.begin.line, w.at.begin.column}).second)
                continue;
            const std::string array = w.written == v.var ? "`" + v.var + "`" : "`" + w.written + "` (`" + v.var + "`)";
            const std::string range = fmt::format("{}.dimension{}.range", w.loopArrayWritten, w.loopDim + 1);
            auto& d = diags.report(
                DiagKind::WholeRangeLoopOverPart, w.at,
                fmt::format(
                    "stage `{}` subscripts {} along dimension {} with `{}`, which runs over the whole `{}`, but "
                    "`Space {}` holds only a part of it along that dimension (`{}`{}): the LPU reaches elements "
                    "it does not hold (run with --debug to have it stopped); loop over `{}.local.dimension{}"
                    ".range`, or run the stage where the array is held whole (Root, or a space that does not "
                    "cut that dimension)",
                    a.stage, array, w.dim + 1, w.index, range, space.name, cut.split->text(),
                    cut.space == a.lps ? "" : " in `Space " + lps.at(cut.space).name + "`", w.loopArrayWritten,
                    w.loopDim + 1),
                Severity::Warning);
            DiagnosticEngine::addNote(d, a.range, "the stage runs in `Space " + space.name + "` here");
        }
}

} // namespace

void checkPlacement(const TaskGlobals& globals, const LpsTree& lps, const FlowTree& flow, const DataUsage& usage,
                    DiagnosticEngine& diags) {
    std::set<std::pair<std::string, int>> unconfigured;               // (array, space) reported
    std::set<std::pair<std::uint32_t, std::uint32_t>> wholeRangeSeen; // subscripts reported
    for (const FlowAccess& a : usage.accesses) {
        if (a.lps == kRootLps)
            continue;
        if (a.kind != FlowAccess::Kind::Stage) {
            checkFlowElement(a, globals, lps, flow, diags);
            continue;
        }
        warnDivergingReplicas(a, globals, lps, diags);
        warnNeighbourReads(a, lps, diags);
        warnWholeRangeLoops(a, lps, wholeRangeSeen, diags);
        const Lps& space = lps.at(a.lps);
        int foreach = flow.enclosing(a.node, FlowNode::Kind::RepeatForeach);
        bool inOwnForeach = foreach != -1 && flow.at(foreach).context == a.lps;
        for (const VarAccess& v : a.vars) {
            const TaskGlobal* g = globals.find(v.var);
            if (!g || !g->isArray())
                continue;
            bool erroneous = std::find(space.erroneous.begin(), space.erroneous.end(), v.var) != space.erroneous.end();
            if (!space.find(v.var) && erroneous)
                continue; // its configuration was already reported
            // Un-partitioned spaces hold unlisted arrays as their parent's part (only partitioned
            // spaces need configurations; guide: The Partition section).
            if (!space.find(v.var) && !space.unpartitioned) {
                // Once per array and space: one missing configuration line, however many uses.
                if (!unconfigured.insert({v.var, a.lps}).second)
                    continue;
                auto& d = diags.error(DiagKind::ArrayNotConfiguredInSpace, a.range,
                                      "stage `{}` uses the array `{}` in `Space {}`, which does "
                                      "not configure it; add `{}` to the configuration of "
                                      "`Space {}` (see the guide: The Partition section)",
                                      a.stage, v.var, space.name, v.var, space.name);
                DiagnosticEngine::addNote(d, space.range, "`Space " + space.name + "` is configured here");
                continue;
            }
            if (space.subpartition && space.subpartition->find(v.var) && !inOwnForeach) {
                auto& d = diags.error(DiagKind::SubpartitionedArrayOutsideForeach, a.range,
                                      "stage `{}` uses `{}`, which the Sub-partition of `Space "
                                      "{}` splits, outside `Repeat foreach sub-partition`; "
                                      "invoke it inside such a loop in `Space {}` (see the guide: Sub-partitions)",
                                      a.stage, v.var, space.name, space.name);
                DiagnosticEngine::addNote(d, space.subpartition->range, "the Sub-partition is declared here");
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
