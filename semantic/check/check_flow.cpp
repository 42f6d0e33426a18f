// The Computation section (see check_flow.h).
#include "semantic/check/check_flow.h"

#include "semantic/check/ast_walk.h"
#include "semantic/check/body_checker.h"
#include "semantic/check/check_stages.h"
#include "frontend/diagnostics/did_you_mean.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace itc::semantic::check {

namespace {

struct RepeatFrame {
    std::string space; // context of the Repeat
    bool foreach = false;
};

// How messages name a space: `Space A`, or `Root` (which is no letter).
std::string spaceText(const std::string& x) { return x == "Root" ? x : "Space " + x; }

struct PendingReduction {
    std::string target; // space X of `Space X: v`
    SourceRange call;
};

class FlowChecker {
public:
    FlowChecker(CheckState& state, TaskSym& task)
        : state_(state), task_(task), exprs_(state, BodyKind::Flow, &task, &state.out.exprTypes) {}

    void run() { walk(task_.def->computation, "Root", false); }

private:
    void walk(const ast::FlowList& list, const std::string& space, bool inEpoch) {
        for (const ast::FlowPtr& p : list)
            part(*p, space, inEpoch);
    }

    // Reports reads of reduction results that are not yet available, or read in `space` where
    // they have no one value (guide: Reductions).
    void checkReads(const std::set<std::string>& globals, SourceRange where, const std::string& space) {
        // A loop's next turn reads what its body has not reduced yet after the body's reductions.
        for (LoopFrame& frame : loops_) {
            Read r{{}, where, space};
            for (const std::string& g : globals)
                if (!frame.reduced.count(g))
                    r.globals.insert(g);
            frame.reads.push_back(std::move(r));
        }
        checkReadsInScope(globals, where, space);
        for (const std::string& g : globals) {
            auto it = pending_.find(g);
            if (it == pending_.end())
                continue;
            if (auto* d =
                    state_.rep.error(DiagKind::ReductionResultReadEarly, where,
                                     fmt::format("{} is read before the reduction into it completes; its result is "
                                                 "available only after the flow returns to {}",
                                                 q(g), spaceText(it->second.target))))
                DiagnosticEngine::addNote(*d, it->second.call, "reduction invoked here");
        }
    }

    // One result per LPU of the target: a read above it (or beside it) would have to pick one,
    // unless the target has a single LPU under each reading LPU.
    void checkReadsInScope(const std::set<std::string>& globals, SourceRange where, const std::string& space) {
        for (const std::string& g : globals) {
            auto t = targets_.find(g);
            if (t == targets_.end() || pending_.find(g) != pending_.end())
                continue;
            const std::string& x = t->second.target;
            if (!task_.parentsKnown(space) || !task_.parentsKnown(x) || task_.isAncestorOrSelf(x, space) ||
                oneLpuUnder(space, x))
                continue;
            if (!outOfScopeReported_.insert({g, where.begin.line, where.begin.column}).second)
                continue;
            if (auto* d = state_.rep.error(
                    DiagKind::ReductionResultOutOfScope, where,
                    fmt::format("{} holds one result per LPU of {}, the target of its reduction; {} cannot "
                                "read it: read it in {} or below, or reduce into `Space {}: {}`",
                                q(g), spaceText(x), spaceText(space), spaceText(x), space, g)))
                DiagnosticEngine::addNote(*d, t->second.call, "reduction invoked here");
        }
    }

    // A Repeat's condition and body: reads in them (its condition's, and those before a
    // reduction in the body) also follow the body's reductions of the turn before.
    template <class Body> void loop(Body body) {
        loops_.emplace_back();
        body();
        const std::vector<Read> reads = std::move(loops_.back().reads);
        loops_.pop_back();
        for (const Read& r : reads)
            checkReadsInScope(r.globals, r.where, r.space);
    }

    std::set<std::string> exprGlobals(const ast::Expr& e) {
        std::set<std::string> out;
        walkExpr(e, [&](const ast::Expr& x) {
            if (auto* n = x.as<ast::NameRef>(); n && task_.globals.count(n->name))
                out.insert(n->name);
        });
        return out;
    }

    void typeExpr(const ast::Expr& e, const std::string& space) {
        exprs_.setFlowSpace(space);
        exprs_.checkExpr(e);
    }

    void part(const ast::FlowPart& p, const std::string& space, bool inEpoch) {
        using K = ast::FlowKind;
        switch (p.kind) {
        case K::SpaceBlock: spaceBlock(*p.as<ast::SpaceBlock>(), space, inEpoch); break;
        case K::RepeatFor: {
            auto* r = p.as<ast::RepeatFor>();
            auto g = task_.globals.find(r->variable.text);
            if (g == task_.globals.end() || g->second.type.kind != TypeKind::Integer) {
                state_.rep.error(DiagKind::RepeatVariable, r->variable.range,
                                 g == task_.globals.end()
                                     ? fmt::format("the `Repeat for` variable {} must be an `Integer` "
                                                   "task-global; declare `{}: Integer` in Define",
                                                   q(r->variable.text), r->variable.text)
                                     : fmt::format("the `Repeat for` variable {} must be an `Integer` "
                                                   "task-global, but it is {}",
                                                   q(r->variable.text), qt(g->second.type)));
            }
            exprs_.setFlowSpace(space);
            exprs_.setFlowRangeContext(true);
            exprs_.checkRange(*r->rangeExpr);
            if (r->step)
                exprs_.checkStep(*r->step, "the `Repeat` step");
            exprs_.setFlowRangeContext(false);
            checkReads(exprGlobals(*r->rangeExpr), r->rangeExpr->range, space); // once, before the loop
            loop([&] {
                repeats_.push_back({space, false});
                walk(r->body, space, inEpoch);
                repeats_.pop_back();
            });
            break;
        }
        case K::RepeatForeach: {
            auto* r = p.as<ast::RepeatForeach>();
            auto s = task_.spaces.find(space);
            if (s == task_.spaces.end() || !s->second.hasSubpartition) {
                state_.rep.error(DiagKind::ForeachWithoutSubpartition, p.range,
                                 space == "Root" ? std::string("`Repeat foreach sub-partition` needs a context space "
                                                               "with a Sub-partition, but here the context is Root")
                                                 : fmt::format("`Repeat foreach sub-partition` is in Space {}, which "
                                                               "has no `Sub-partition` in the Partition section",
                                                               space));
            }
            loop([&] {
                repeats_.push_back({space, true});
                walk(r->body, space, inEpoch);
                repeats_.pop_back();
            });
            break;
        }
        case K::RepeatWhile: {
            auto* r = p.as<ast::RepeatWhile>();
            exprs_.setFlowSpace(space);
            exprs_.checkCondition(*r->condition, "the `Repeat` condition");
            loop([&] {
                checkReads(exprGlobals(*r->condition), r->condition->range, space);
                repeats_.push_back({space, false});
                walk(r->body, space, inEpoch);
                repeats_.pop_back();
            });
            break;
        }
        case K::Condition: {
            auto* c = p.as<ast::Condition>();
            exprs_.setFlowSpace(space);
            if (c->membershipRange) {
                exprs_.checkInteger(*c->condition, "the element of an `in` test");
                exprs_.checkRange(*c->membershipRange);
                checkReads(exprGlobals(*c->membershipRange), c->membershipRange->range, space);
            } else {
                exprs_.checkCondition(*c->condition, c->spelledIf ? "the `If` condition" : "the `Where` condition");
            }
            checkReads(exprGlobals(*c->condition), c->condition->range, space);
            walk(c->body, space, inEpoch);
            break;
        }
        case K::EpochBlock: walk(p.as<ast::EpochBlock>()->body, space, true); break;
        case K::StageCall: stageCall(*p.as<ast::StageCall>(), space, inEpoch); break;
        }
    }

    // The suggestion for an undeclared space: space names are single letters, all one edit
    // apart, so instead of a guess the hint lists the declared ones (and Root for reductions).
    std::string declaredSpaces(bool withRoot = false) const {
        std::vector<std::string> names;
        for (const auto& [letter, sym] : task_.spaces)
            names.push_back("`Space " + letter + "`");
        if (withRoot)
            names.push_back("`Space Root`");
        if (names.empty())
            return "; the Partition section declares no spaces";
        return "; did you mean " + joinOr(names) + "?";
    }

    void spaceBlock(const ast::SpaceBlock& b, const std::string& space, bool inEpoch) {
        const std::string& x = b.space.text;
        auto it = task_.spaces.find(x);
        if (it == task_.spaces.end()) {
            state_.rep.error(DiagKind::UnknownSpace, b.space.range,
                             fmt::format("Space {} is not declared in the Partition section of task "
                                         "\"{}\"{}",
                                         x, task_.def->name.text, declaredSpaces()));
            return;
        }
        if (task_.parentsKnown(x) && (x == space || !task_.isAncestorOrSelf(space, x))) {
            if (auto* d =
                    state_.rep.error(DiagKind::SpaceNotDescendant, b.space.range,
                                     x == space ? fmt::format("the flow is already in Space {}; a `Space` block must "
                                                              "enter a proper descendant of its context",
                                                              x)
                                                : fmt::format("Space {} is not a descendant of Space {}, the context "
                                                              "here; a `Space` block must enter a proper descendant",
                                                              x, space)))
                if (it->second.config)
                    DiagnosticEngine::addNote(*d, it->second.config->space.range,
                                              fmt::format("Space {} declared here", x));
            return;
        }
        if (it->second.dividesSubpartitions) {
            bool ok = false;
            for (const auto& r : repeats_)
                ok |= r.foreach && r.space == it->second.parent;
            if (!ok)
                state_.rep.error(DiagKind::SubpartitionSpaceOutsideForeach, b.space.range,
                                 fmt::format("Space {} divides the sub-partitions of Space {}, so its "
                                             "blocks must lie inside `Repeat foreach sub-partition` "
                                             "in Space {}",
                                             x, it->second.parent, it->second.parent));
        } else if (auto parent = task_.spaces.find(it->second.parent);
                   parent != task_.spaces.end() && parent->second.hasSubpartition &&
                   std::any_of(repeats_.begin(), repeats_.end(),
                               [&](const RepeatFrame& r) { return r.foreach && r.space == it->second.parent; })) {
            // Legal, but rarely meant: the block repeats the whole part once per sub-partition.
            state_.rep.diagnostics().report(
                DiagKind::ForeachWholeParts, b.space.range,
                fmt::format("Space {} divides Space {} partitions, not its sub-partitions, so inside `Repeat "
                            "foreach sub-partition` it works on its whole part at every turn; if it should work "
                            "on the current piece, write `divides Space {} sub-partitions`",
                            x, it->second.parent, it->second.parent),
                Severity::Warning);
        }
        walk(b.body, x, inEpoch);
        // Leaving the block: reductions into `space` or a descendant of it are now complete.
        for (auto p = pending_.begin(); p != pending_.end();) {
            if (task_.isAncestorOrSelf(space, p->second.target))
                p = pending_.erase(p);
            else
                ++p;
        }
    }

    // Classifies one stage argument (guide: Stages and statements) and computes its binding.
    bool argument(const ast::CallArg& a, const std::string& space, ParamBinding& b, std::set<std::string>& reads) {
        if (a.isSpaceArg()) {
            b.type = Type::error();
            b.spaceTarget = "<error>"; // until proven valid: keeps the stage body silent
            const std::string& x = a.space->text;
            const std::string& v = a.variable->text;
            auto g = task_.globals.find(v);
            if (g != task_.globals.end() && g->second.type.isError())
                return false;
            if (g == task_.globals.end() || !g->second.isReduction) {
                state_.rep.error(DiagKind::InvalidReductionTarget, a.variable->range,
                                 g == task_.globals.end()
                                     ? fmt::format("{} is not a task-global; `Space {}: v` needs a "
                                                   "`Reduction` task-global",
                                                   q(v), x)
                                 : g->second.type.isNumeric() || g->second.type.kind == TypeKind::Boolean
                                     ? fmt::format("{} is not declared as a `Reduction` variable; "
                                                   "declare it as `{}: {} Reduction`",
                                                   q(v), v, typeName(g->second.type))
                                     : fmt::format("{} is a {}, and a `Reduction` variable is a number, a "
                                                   "Character or a Boolean: reduce into a scalar `Reduction` "
                                                   "task-global",
                                                   q(v), typeName(g->second.type)));
                return false;
            }
            if (x != "Root" && !task_.spaces.count(x)) {
                state_.rep.error(DiagKind::UnknownSpace, a.space->range,
                                 fmt::format("Space {} is not declared in the Partition section of task "
                                             "\"{}\"{}",
                                             x, task_.def->name.text, declaredSpaces(true)));
                return false;
            }
            if (!task_.isAncestorOrSelf(x, space) && task_.parentsKnown(space)) {
                state_.rep.error(DiagKind::InvalidReductionTarget, a.space->range,
                                 fmt::format("a reduction invoked in {} can deliver its result "
                                             "only to {}{}, not to {}",
                                             spaceText(space), spaceText(space),
                                             space == "Root" ? "" : " or one of its ancestors", spaceText(x)));
                return false;
            }
            b.type = g->second.type;
            b.spaceTarget = x;
            b.rootGlobal = v;
            return true;
        }
        const ast::Expr& e = *a.value;
        exprs_.setFlowSpace(space);
        Type t = exprs_.checkExpr(e);
        b.type = t;
        using K = ast::ExprKind;
        switch (e.kind) {
        case K::IntLiteral:
        case K::RealLiteral:
        case K::CharLiteral:
        case K::BoolLiteral:
        case K::PartitionParam:
            b.constant = true;
            b.type = inferredLocalType(t);
            return true;
        case K::StringLiteral:
            b.constant = true;
            b.isStringLiteral = true;
            b.literalString = e.as<ast::StringLiteral>()->value;
            return true;
        case K::Unary:
            if (auto* u = e.as<ast::Unary>(); u->op == ast::UnaryOp::Negate && (u->operand->kind == K::IntLiteral ||
                                                                                u->operand->kind == K::RealLiteral)) {
                b.constant = true;
                b.type = inferredLocalType(t);
                return true;
            }
            break;
        case K::NameRef: {
            auto* n = e.as<ast::NameRef>();
            if (task_.globals.count(n->name)) {
                b.rootGlobal = n->name;
                reads.insert(n->name);
                return true;
            }
            return t.isError() ? false : (badArg(e), false);
        }
        case K::Subscript:
        case K::FieldAccess: {
            const ast::Expr* root = &e;
            while (true) {
                if (auto* s = root->as<ast::Subscript>())
                    root = s->base.get();
                else if (auto* f = root->as<ast::FieldAccess>())
                    root = f->base.get();
                else
                    break;
            }
            auto* n = root->as<ast::NameRef>();
            if (n && task_.globals.count(n->name)) {
                b.rootGlobal = n->name;
                for (const auto& g : exprGlobals(e))
                    reads.insert(g);
                return true;
            }
            break;
        }
        default: break;
        }
        if (t.isError())
            return false;
        badArg(e);
        return false;
    }

    void badArg(const ast::Expr& e) {
        const ast::Expr* base = &e;
        while (auto sub = base->as<ast::Subscript>())
            base = sub->base.get();
        if (base->as<ast::LpuId>()) {
            state_.rep.error(DiagKind::InvalidStageArgument, e.range,
                             "`lpuId` is not passed to a stage: read it inside the stage, where it is the "
                             "position of the LPU running it (in the Computation section it may subscript an "
                             "argument, `hist[lpuId[0]]`); for an ancestor space's position, read "
                             "`.local.dimension1.range.min` of an array that space cuts with `block_size(1)`");
            return;
        }
        state_.rep.error(DiagKind::InvalidStageArgument, e.range,
                         "a stage argument must be a task-global, a literal, `partition.p`, an "
                         "element, field or sub-range of a task-global, or `Space X: v`; compute "
                         "other values inside the stage");
    }

    void stageCall(const ast::StageCall& c, const std::string& space, bool inEpoch) {
        auto sit = task_.stages.find(c.stage.text);
        if (sit == task_.stages.end()) {
            state_.rep.error(DiagKind::UnknownStage, c.stage.range,
                             fmt::format("task \"{}\" has no stage named {}{}", task_.def->name.text, q(c.stage.text),
                                         state_.functions.count(c.stage.text)
                                             ? "; functions are called from code bodies, not from "
                                               "the Computation section"
                                             : didYouMean(c.stage.text, namesOf(task_.stages))));
            return;
        }
        const ast::StageDef& stage = *sit->second;
        std::vector<ParamBinding> bindings;
        std::set<std::string> reads;
        bool ok = true;
        for (const ast::CallArg& a : c.args) {
            ParamBinding b;
            ok &= argument(a, space, b, reads);
            bindings.push_back(std::move(b));
        }
        if (c.args.size() != stage.params.size()) {
            if (auto* d = state_.rep.error(DiagKind::CallArity, c.range,
                                           fmt::format("stage {} takes {} argument{}, but {} {} given", q(c.stage.text),
                                                       stage.params.size(), stage.params.size() == 1 ? "" : "s",
                                                       c.args.size(), c.args.size() == 1 ? "is" : "are")))
                DiagnosticEngine::addNote(*d, stage.name.range, "stage defined here");
            return;
        }
        (void)ok;
        std::size_t idx = instantiateStage(state_, task_, stage, bindings, space, c);
        const StageFacts& facts = task_.instanceFacts[idx];

        if (facts.epochUse && !inEpoch) {
            if (auto* d =
                    state_.rep.error(DiagKind::EpochOutsideEpochBlock, c.stage.range,
                                     fmt::format("stage {} uses epoch versions (`at (current ...)`), so it must be "
                                                 "invoked inside an `Epoch {{ }}` block",
                                                 q(c.stage.text))))
                DiagnosticEngine::addNote(*d, *facts.epochUse, "epoch version used here");
        }
        if (facts.lpuIdUse) {
            bool unpart = space == "Root";
            auto s = task_.spaces.find(space);
            if (s != task_.spaces.end())
                unpart = s->second.unpartitioned;
            if (unpart)
                if (auto* d = state_.rep.error(DiagKind::LpuIdNotAllowed, c.stage.range,
                                               fmt::format("stage {} uses `lpuId`, but it is invoked in {}, which is "
                                                           "un-partitioned",
                                                           q(c.stage.text),
                                                           space == "Root" ? std::string("Root") : "Space " + space)))
                    DiagnosticEngine::addNote(*d, *facts.lpuIdUse, "`lpuId` used here");
            if (!unpart && facts.lpuIdEntry && s != task_.spaces.end() && s->second.config &&
                facts.lpuIdEntry->first >= s->second.config->dimensionality) {
                const int dims = s->second.config->dimensionality;
                if (auto* d = state_.rep.error(
                        DiagKind::LpuIdNotAllowed, c.stage.range,
                        fmt::format("stage {} reads `lpuId[{}]`, but it is invoked in Space {}, which has {} "
                                    "dimension{}: `lpuId` has entries 0...{}",
                                    q(c.stage.text), facts.lpuIdEntry->first, space, dims, dims == 1 ? "" : "s",
                                    dims - 1)))
                    DiagnosticEngine::addNote(*d, facts.lpuIdEntry->second, "`lpuId` entry read here");
            }
        }
        // Cross-LPU reductions: every `Space X: v` argument feeds a statement reduction, and
        // every parameter that receives one is bound to `Space X: v` (checked in the body).
        for (std::size_t i = 0; i < c.args.size(); ++i) {
            const ast::CallArg& a = c.args[i];
            if (!a.isSpaceArg() || bindings[i].spaceTarget == "<error>")
                continue;
            if (!facts.reductionTargetParams.count(i)) {
                if (facts.hadErrors)
                    continue; // the stage body is already wrong
                state_.rep.error(DiagKind::InvalidReductionTarget, a.range,
                                 fmt::format("`Space {}: {}` must be bound to a parameter that "
                                             "receives a statement reduction `reduce({}, ...)`, but "
                                             "stage {} does not reduce into {}",
                                             a.space->text, a.variable->text, stage.params[i].text, q(stage.name.text),
                                             q(stage.params[i].text)));
                continue;
            }
            const std::string& x = bindings[i].spaceTarget;
            for (auto r = repeats_.rbegin(); r != repeats_.rend(); ++r) {
                if (!task_.isAncestorOrSelf(r->space, x)) {
                    // A foreach cannot move: it belongs to the space whose sub-partitions it visits.
                    state_.rep.error(
                        DiagKind::ReductionInRepeat, a.range,
                        r->foreach ? fmt::format("this reduction into {} is inside `Repeat foreach sub-partition` "
                                                 "in {}, below {}; reduce each piece into {} (`Space {}: v`), add it "
                                                 "up in a stage there, and reduce that into {} after the loop",
                                                 spaceText(x), spaceText(r->space), spaceText(x), spaceText(r->space),
                                                 r->space, spaceText(x))
                                   : fmt::format("this reduction into {} is inside a `Repeat` "
                                                 "running in {}, below {}; move the `Repeat` to {}{} "
                                                 "so that each iteration's reduction completes",
                                                 spaceText(x), spaceText(r->space), spaceText(x), spaceText(x),
                                                 x == "Root" ? "" : " or an ancestor"));
                }
                break; // the innermost Repeat decides (outer ones are its ancestors)
            }
        }
        // Reads of pending reduction results (guide: Reductions), then new pending results.
        std::set<std::string> allReads = reads;
        for (const auto& g : facts.globalsUsed)
            allReads.insert(g);
        for (std::size_t i = 0; i < c.args.size(); ++i)
            if (c.args[i].isSpaceArg())
                allReads.erase(bindings[i].rootGlobal);
        checkReads(allReads, c.stage.range, space);
        for (std::size_t i = 0; i < c.args.size(); ++i) {
            if (!c.args[i].isSpaceArg() || bindings[i].spaceTarget == "<error>")
                continue;
            targets_[bindings[i].rootGlobal] = {bindings[i].spaceTarget, c.args[i].range};
            for (LoopFrame& frame : loops_)
                frame.reduced.insert(bindings[i].rootGlobal);
            if (bindings[i].spaceTarget != space)
                pending_[bindings[i].rootGlobal] = {bindings[i].spaceTarget, c.args[i].range};
        }
    }

    // Whether every space from `x` up to `space` (excluded) is un-partitioned: each LPU of
    // `space` then has one `x` LPU below it.
    bool oneLpuUnder(const std::string& space, std::string x) const {
        if (!task_.isAncestorOrSelf(space, x))
            return false;
        for (; x != space && x != "Root";) {
            auto it = task_.spaces.find(x);
            if (it == task_.spaces.end() || !it->second.unpartitioned)
                return false;
            x = it->second.parent;
        }
        return true;
    }

    CheckState& state_;
    TaskSym& task_;
    BodyChecker exprs_;
    std::vector<RepeatFrame> repeats_;
    std::map<std::string, PendingReduction> pending_;
    std::map<std::string, PendingReduction> targets_; // the last reduction into each variable
    // The Repeats being walked, innermost last (checkReads, loop): reads of results their body
    // has not reduced before them, and what it has reduced so far.
    struct Read {
        std::set<std::string> globals;
        SourceRange where;
        std::string space;
    };
    struct LoopFrame {
        std::vector<Read> reads;
        std::set<std::string> reduced;
    };
    std::vector<LoopFrame> loops_;
    std::set<std::tuple<std::string, std::uint32_t, std::uint32_t>> outOfScopeReported_; // each read once
};

} // namespace

void checkFlow(CheckState& state, TaskSym& task) { FlowChecker(state, task).run(); }

} // namespace itc::semantic::check
