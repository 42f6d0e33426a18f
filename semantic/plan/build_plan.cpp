// Assembles task plans: the analysis passes in pipeline order, then the derived facts (LPU-count
// formulas, machine placement, environment hand-overs) that only the plan needs.
#include "semantic/plan/build_plan.h"

#include "pcubes/machine_model.h"
#include "pcubes/mapping.h"
#include "semantic/partition/analyze_partition.h"
#include "semantic/partition/check_placement.h"
#include "semantic/partition/padding_reductions.h"
#include "semantic/partition/replica_values.h"
#include "semantic/plan/stale_padding.h"
#include "semantic/usage/task_globals.h"

#include <algorithm>
#include <map>

namespace itc::semantic {
namespace {

std::string sumText(const std::string& s, const std::optional<SymbolicArg>& f, const std::optional<SymbolicArg>& b) {
    std::string r = s;
    std::string ft = f && !f->isZero() ? f->text() : "";
    std::string bt = b && !b->isZero() ? b->text() : "";
    if (!ft.empty() && ft == bt)
        return r + "+2*" + ft;
    if (!ft.empty())
        r += "+" + ft;
    if (!bt.empty())
        r += "+" + bt;
    return r;
}

void placeSpaces(TaskPlan& plan, const PlanTarget& target) {
    if (!target.machine || !target.mappings)
        return;
    const pcubes::TaskMapping* map = nullptr;
    for (const pcubes::TaskMapping& m : *target.mappings)
        if (m.task == plan.task)
            map = &m;
    if (!map)
        return;
    const pcubes::MachineModel& mm = *target.machine;
    plan.mapped = true;
    plan.machineFile = target.machineFile;
    plan.rootPps = map->root ? map->root : mm.levelCount();
    int core = mm.coreLevel().value_or(1);
    std::vector<int> pps(plan.lps.spaces.size(), plan.rootPps);
    for (std::size_t i = 1; i < plan.lps.spaces.size(); ++i) {
        auto it = map->spaces.find(plan.lps.spaces[i].name);
        if (it != map->spaces.end())
            pps[i] = it->second;
    }
    int lowest = plan.rootPps;
    for (std::size_t i = 0; i < plan.lps.spaces.size(); ++i) {
        int p = pps[i];
        int parentPps = i == 0 ? plan.rootPps : pps[static_cast<std::size_t>(plan.lps.spaces[i].parent)];
        if (!mm.level(p) || !mm.level(parentPps) || !mm.level(plan.rootPps))
            continue;
        LpsPlacement pl;
        pl.pps = p;
        pl.ppsName = mm.level(p)->name;
        pl.ppus = p <= plan.rootPps ? mm.ppusWithin(p, plan.rootPps) : 1;
        pl.ppusPerParentPpu = p <= parentPps ? mm.ppusWithin(p, parentPps) : 1;
        pl.computes = p <= core;
        plan.spaces[i].placement = pl;
        lowest = std::min(lowest, p);
    }
    auto seg = mm.segmentLevel();
    plan.segmentLevel = seg.value_or(0);
    int top = plan.rootPps;
    if (seg && *seg < plan.rootPps) {
        plan.ranks = mm.ppusWithin(*seg, plan.rootPps);
        top = *seg;
    } else {
        plan.ranks = 1;
    }
    // Spaces whose parts change every foreach turn stay in their parent LPU's process: their PPS
    // crosses processes when the parent's PPS lies above the segment level and theirs differs.
    // A space below a kept one follows it (its PPS places it by the parent's mapped PPU, not by
    // where the parent runs).
    auto kept = [&](std::size_t i) {
        const auto& pl = plan.spaces[i].placement;
        return i > 0 && pl && pl->inParentProcess;
    };
    for (bool changed = plan.ranks > 1; changed;) {
        changed = false;
        for (std::size_t i = 1; i < plan.lps.spaces.size(); ++i) {
            auto& pl = plan.spaces[i].placement;
            const auto parent = static_cast<std::size_t>(plan.lps.spaces[i].parent);
            if (!pl || pl->inParentProcess || !plan.lps.changesEveryTurn(static_cast<int>(i)))
                continue;
            if (kept(parent) || (pps[parent] > top && pps[i] != pps[parent])) {
                pl->inParentProcess = true;
                changed = true;
            }
        }
    }
    // Levels above `<core>` compute on one core (guide: Mapping files).
    int effective = std::max(lowest, core);
    plan.threadsPerRank = effective < top ? mm.ppusWithin(effective, top) : 1;
}

// Whether every LPU of a space is in the memory of its LPU of an ancestor space. It is when the
// ancestor's PPS is at or below the `<segment>` level (one process holds the whole subtree), when
// every space on the way down is mapped to the ancestor's own PPS (an LPU mapped to its parent's
// PPS runs on its parent's PPU), when the model has no segments, or when there is no mapping
// (the plan then describes one process), and for a space the plan keeps in its parent LPU's
// process (LpsPlacement::inParentProcess).
SameMemory sameMemory(const TaskPlan& plan) {
    if (!plan.mapped || plan.segmentLevel == 0 || plan.ranks <= 1)
        return [](int, int) { return true; };
    std::vector<int> pps(plan.lps.spaces.size());
    std::vector<bool> inParentProcess(plan.lps.spaces.size());
    for (std::size_t i = 0; i < pps.size(); ++i) {
        const auto& pl = plan.spaces[i].placement;
        pps[i] = i == 0 ? plan.rootPps : (pl ? pl->pps : plan.rootPps);
        inParentProcess[i] = pl && pl->inParentProcess;
    }
    const LpsTree* tree = &plan.lps;
    const int segment = plan.segmentLevel;
    return [pps, inParentProcess, tree, segment](int ancestor, int space) {
        const int top = pps[static_cast<std::size_t>(ancestor)];
        if (top <= segment)
            return true;
        for (int l = space; l != ancestor && l > 0; l = tree->at(l).parent)
            if (pps[static_cast<std::size_t>(l)] != top && !inParentProcess[static_cast<std::size_t>(l)])
                return false;
        return true;
    };
}

void countLpus(TaskPlan& plan) {
    const LpsTree& t = plan.lps;
    for (std::size_t i = 1; i < t.spaces.size(); ++i) {
        const Lps& l = t.spaces[i];
        PlanLps& pl = plan.spaces[i];
        if (l.unpartitioned) {
            pl.lpusPerParent = "1";
            continue;
        }
        std::string product;
        for (int d = 0; d < l.dims; ++d) {
            PlanLps::DimCount dc;
            for (const ArrayPartition& ap : l.arrays) {
                const DimInstruction& di = ap.instructions[static_cast<std::size_t>(d)];
                if (di.replicated)
                    continue;
                if (!dc.array.empty()) {
                    dc.mustAgree.push_back(ap.array);
                    continue;
                }
                dc.array = ap.array;
                int parentSpace = l.parent == kNoLps ? kRootLps : t.configuringSpace(l.parent, ap.array);
                std::string dimName = ap.array + ".dim" + std::to_string(di.arrayDim);
                std::string n = parentSpace == kRootLps ? "len(" + dimName + ")"
                                                        : "len(" + dimName + " in " + t.at(parentSpace).name + ")";
                if (l.dividesSubpartitions && parentSpace == l.parent && t.at(l.parent).subpartition &&
                    t.at(l.parent).subpartition->find(ap.array))
                    n = "len(" + dimName + " in a sub-partition of " + t.at(l.parent).name + ")";
                std::string arg = di.argument ? di.argument->text() : "";
                std::string u = "U";
                if (pl.placement)
                    u = std::to_string(pl.placement->ppusPerParentPpu);
                switch (di.function) {
                case ast::PartitionFunction::BlockSize: dc.formula = "ceil(" + n + "/" + arg + ")"; break;
                case ast::PartitionFunction::BlockCount: dc.formula = "min(" + arg + ", " + n + ")"; break;
                case ast::PartitionFunction::Stride: dc.formula = "min(" + u + ", " + n + ")"; break;
                case ast::PartitionFunction::BlockStride:
                    dc.formula = "min(" + u + ", ceil(" + n + "/" + arg + "))";
                    break;
                }
                if (parentSpace != kRootLps) {
                    const ArrayPartition* pp = t.at(parentSpace).find(ap.array);
                    const DimInstruction* split = pp ? pp->splitting(di.arrayDim) : nullptr;
                    if (split && split->function == ast::PartitionFunction::BlockSize && split->argument)
                        dc.heldNote = "a Space " + t.at(parentSpace).name + " part of " + dimName + " holds at most " +
                                      sumText(split->argument->text(), split->paddingFront, split->paddingBack) +
                                      " indices";
                }
            }
            if (dc.formula.empty())
                dc.formula = "?"; // SpaceDimensionUnsplit was reported
            product += (product.empty() ? "" : " x ") + dc.formula;
            pl.dimCounts.push_back(std::move(dc));
        }
        pl.lpusPerParent = product.empty() ? "1" : product;
    }
}

} // namespace

TaskPlan buildTaskPlan(const ast::TaskDef& task, const PlanTarget& target, DiagnosticEngine& diags,
                       const std::vector<ast::FunctionDef>* functions) {
    TaskPlan plan;
    plan.task = task.name.text;
    plan.declared = task.name.range;
    TaskGlobals globals = collectTaskGlobals(task);
    plan.lps = analyzePartition(task, globals, diags);
    plan.flow = buildFlowTree(task, plan.lps, diags);
    plan.usage = analyzeDataUsage(task, globals, plan.lps, plan.flow, functions);
    checkPlacement(globals, plan.lps, plan.flow, plan.usage, diags);
    warnReductionsOverPadding(task, globals, plan.lps, plan.flow, diags);
    warnReplicasFromParts(task, plan.lps, plan.flow, diags);
    plan.versionDepth = plan.usage.versionDepth;
    plan.spaces.resize(plan.lps.spaces.size());
    placeSpaces(plan, target);
    plan.storage = planStorage(globals, plan.lps, plan.usage, plan.versionDepth, sameMemory(plan));
    plan.dependencies = analyzeDependencies(globals, plan.lps, plan.flow, plan.usage, plan.storage);
    warnStalePadding(plan, diags);
    for (FlowNode& n : plan.flow.nodes)
        n.source = nullptr; // the plan outlives the AST
    countLpus(plan);
    return plan;
}

namespace {

// Walks the coordinator in source order, following environment objects, item sharing
// (`envB.x = envA.y`, views included) and executions.
class HandoverBuilder {
public:
    HandoverBuilder(const ast::Program& program, ProgramPlan& plan) : program_(program), plan_(plan) {}

    void run() {
        for (const ast::Coordinator& c : program_.coordinators) {
            block(c.body);
            break;
        }
    }

private:
    struct Placement {
        std::string task;
        bool writes = false;  // the task may write the item (a stage write, or mode `create`)
        std::string text;     // partition text without the array name, or `whole`
        std::string describe; // for the report
    };

    static const ast::Expr* stripView(const ast::Expr* e) {
        while (e && e->kind == ast::ExprKind::Subscript)
            e = e->as<ast::Subscript>()->base.get();
        return e;
    }
    static std::string envItem(const ast::Expr* e) {
        e = stripView(e);
        if (!e || e->kind != ast::ExprKind::FieldAccess)
            return "";
        const auto* f = e->as<ast::FieldAccess>();
        if (!f->base || f->base->kind != ast::ExprKind::NameRef)
            return "";
        return f->base->as<ast::NameRef>()->name + "." + f->field.text;
    }
    std::string identity(const std::string& item) const {
        auto it = alias_.find(item);
        return it == alias_.end() ? item : it->second;
    }

    void block(const ast::Block& b) {
        for (const ast::StmtPtr& s : b.stmts)
            stmt(*s);
    }
    void stmt(const ast::Stmt& s) {
        switch (s.kind) {
        case ast::StmtKind::ExprStmt: expr(s.as<ast::ExprStmt>()->expr.get()); return;
        // Loop bodies are walked twice, so that hand-overs from one iteration to the next show.
        case ast::StmtKind::SequentialFor:
            block(s.as<ast::SequentialFor>()->body);
            block(s.as<ast::SequentialFor>()->body);
            return;
        case ast::StmtKind::While:
            block(s.as<ast::While>()->body);
            block(s.as<ast::While>()->body);
            return;
        case ast::StmtKind::If:
            for (const ast::IfBranch& br : s.as<ast::If>()->branches)
                block(br.body);
            if (s.as<ast::If>()->elseBody)
                block(*s.as<ast::If>()->elseBody);
            return;
        default: return;
        }
    }
    void expr(const ast::Expr* e) {
        if (!e)
            return;
        if (const auto* a = e->as<ast::Assign>()) {
            if (a->target && a->target->kind == ast::ExprKind::NameRef && a->value &&
                a->value->kind == ast::ExprKind::NewObject) {
                const auto* n = a->value->as<ast::NewObject>();
                if (n->type.kind == ast::TypeKind::TaskEnvironment)
                    for (const ast::NamedArg& na : n->args)
                        if (na.name.text == "name" && na.value && na.value->kind == ast::ExprKind::StringLiteral)
                            envTask_[a->target->as<ast::NameRef>()->name] = na.value->as<ast::StringLiteral>()->value;
                return;
            }
            std::string to = envItem(a->target.get());
            std::string from = envItem(a->value.get());
            if (!to.empty() && !from.empty())
                alias_[to] = identity(from);
            return;
        }
        if (const auto* x = e->as<ast::Execute>())
            execute(*x);
    }

    void execute(const ast::Execute& x) {
        std::string taskName, env;
        for (const ast::ExecuteArg& a : x.args) {
            if (a.values.empty() || !a.values[0])
                continue;
            if (a.label == ast::ExecuteArg::Label::Task && a.values[0]->kind == ast::ExprKind::StringLiteral)
                taskName = a.values[0]->as<ast::StringLiteral>()->value;
            if (a.label == ast::ExecuteArg::Label::Environment && a.values[0]->kind == ast::ExprKind::NameRef)
                env = a.values[0]->as<ast::NameRef>()->name;
        }
        const TaskPlan* tp = nullptr;
        for (const TaskPlan& t : plan_.tasks)
            if (t.task == taskName)
                tp = &t;
        if (!tp || env.empty())
            return;
        const ast::TaskDef* def = nullptr;
        for (const ast::TaskDef& t : program_.tasks)
            if (t.name.text == taskName)
                def = &t;
        if (!def)
            return;
        // Compare against the state before this execution, then record where it leaves items
        // (two items of one task may view the same data).
        std::map<std::string, Placement> leaves;
        for (const ast::Linkage& link : def->environment)
            for (const ast::Name& n : link.names) {
                std::string id = identity(env + "." + n.text);
                Placement first, last;
                if (!placements(*tp, n.text, first, last))
                    continue;
                bool writes = link.mode == ast::LinkMode::Create;
                for (const FlowAccess& a : tp->usage.accesses)
                    if (const VarAccess* v = a.find(n.text))
                        writes = writes || v->written || v->reduced;
                first.writes = last.writes = writes;
                auto prev = lastPlacement_.find(id);
                if (prev != lastPlacement_.end()) {
                    EnvironmentHandover h;
                    h.item = env + "." + n.text;
                    if (id != h.item)
                        h.item += " (= " + id + ")";
                    h.fromTask = prev->second.task;
                    h.toTask = taskName;
                    h.fromPlacement = prev->second.describe;
                    h.toPlacement = first.describe;
                    h.kind = prev->second.text == first.text ? SyncKind::None : SyncKind::Redistribution;
                    h.at = x.range;
                    h.waits = prev->second.writes || writes;
                    bool dup = false;
                    for (const EnvironmentHandover& o : plan_.handovers)
                        dup = dup || (o.item == h.item && o.fromTask == h.fromTask && o.toTask == h.toTask &&
                                      o.fromPlacement == h.fromPlacement && o.toPlacement == h.toPlacement);
                    if (!dup)
                        plan_.handovers.push_back(h);
                }
                leaves[id] = last;
            }
        for (auto& [id, p] : leaves)
            lastPlacement_[id] = p;
    }

    // Where the task first and last touches `var`: the partition of the space holding it.
    static bool placements(const TaskPlan& tp, const std::string& var, Placement& first, Placement& last) {
        bool found = false;
        for (const FlowAccess& a : tp.usage.accesses) {
            const VarAccess* v = a.find(var);
            if (!v)
                continue;
            Placement p;
            p.task = tp.task;
            int s = tp.lps.configuringSpace(a.lps, var);
            const ArrayPartition* ap = s == kRootLps ? nullptr : tp.lps.at(s).find(var);
            if (!ap || ap->whole) {
                p.text = "whole";
                p.describe = "whole (" + (s == kRootLps ? std::string("Root") : "Space " + tp.lps.at(s).name) + ")";
            } else {
                std::string t = ap->text();
                p.text = t.substr(ap->array.size());
                p.describe = "Space " + tp.lps.at(s).name + ": " + t;
            }
            if (!found)
                first = p;
            last = p;
            found = true;
        }
        return found;
    }

    const ast::Program& program_;
    ProgramPlan& plan_;
    std::map<std::string, std::string> envTask_;
    std::map<std::string, std::string> alias_;
    std::map<std::string, Placement> lastPlacement_;
};

} // namespace

ProgramPlan buildProgramPlan(const ast::Program& program, const PlanTarget& target, DiagnosticEngine& diags) {
    ProgramPlan plan;
    for (const ast::TaskDef& t : program.tasks)
        plan.tasks.push_back(buildTaskPlan(t, target, diags, &program.functions));
    HandoverBuilder(program, plan).run();
    return plan;
}

} // namespace itc::semantic

namespace itc::semantic {

bool checkPartitions(const ast::Program& program, DiagnosticEngine& diags) {
    std::size_t before = diags.errorCount();
    buildProgramPlan(program, PlanTarget{}, diags);
    return diags.errorCount() == before;
}

} // namespace itc::semantic
