// Implements replica_values.h: per stage call, which parameters stand for arrays the space
// partitions and which for replicated ones; the stage's locals whose values come from partitioned
// data (to a fixed point); then every write of a replicated array with such a value, outside any `if`
// of the stage that may pick LPUs (mayPickLpus).
#include "semantic/partition/replica_values.h"

#include "frontend/ast/ast_visitor.h"
#include "semantic/partition/stage_calls.h"
#include "semantic/usage/names_read.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace itc::semantic {

namespace {

// The names whose data an expression reads (not arrays named only for their shape).
std::vector<std::string> namesRead(const ast::Expr* e) {
    DataRead read;
    if (e)
        read.visitExpr(*e);
    return read.names;
}

struct Assignments : ast::Visitor {
    struct Write {
        const ast::Assign* assign;
        std::vector<const ast::Expr*> conditions; // of the `if`s around it
        std::vector<std::string> loops;           // collections of the parallel loops around it
    };
    std::vector<Write> writes;
    std::vector<const ast::Expr*> conditions;
    std::vector<std::string> loops;
    void visitIf(const ast::If& node) override {
        const std::size_t outer = conditions.size();
        for (const ast::IfBranch& b : node.branches)
            if (b.condition)
                conditions.push_back(b.condition.get());
        ast::Visitor::visitIf(node);
        conditions.resize(outer);
    }
    void visitParallelLoop(const ast::ParallelLoop& loop) override {
        const std::size_t outer = loops.size();
        for (const ast::IndexGroup& g : loop.groups)
            loops.push_back(g.collection.text);
        ast::Visitor::visitParallelLoop(loop);
        loops.resize(outer);
    }
    void visitAssign(const ast::Assign& a) override {
        writes.push_back({&a, conditions, loops});
        ast::Visitor::visitAssign(a);
    }
};

// Whether an `if` in a stage may let only some LPUs through: its test reads `lpuId`, a `local`
// attribute, or something other than values computed from the LPU's part (a parameter, a
// task-global, a loop index: `if (m == best)`). A test of part values against constants alone
// (`if (s > 0.0)`) lets every LPU whose part passes write its copy.
bool mayPickLpus(const ast::Expr& test, const std::map<std::string, std::string>& fromPart) {
    struct Reads : DataRead {
        bool lpuSpecific = false;
        void visitLpuId(const ast::LpuId&) override { lpuSpecific = true; }
        void visitProperty(const ast::Property& p) override {
            for (const ast::Expr* e = &p; auto q = e->as<ast::Property>(); e = q->base.get())
                if (q->property == ast::PropertyKind::Local)
                    lpuSpecific = true;
            DataRead::visitProperty(p);
        }
    } reads;
    reads.visitExpr(test);
    return reads.lpuSpecific || reads.partitionParameter ||
           std::any_of(reads.names.begin(), reads.names.end(),
                       [&](const std::string& n) { return !fromPart.count(n); });
}

// The variable an assignment target names: `x` of `x`, `x[i]`, `x[i].f`.
const ast::NameRef* targetName(const ast::Expr* t) {
    while (t) {
        if (auto* n = t->as<ast::NameRef>())
            return n;
        if (auto* s = t->as<ast::Subscript>())
            t = s->base.get();
        else if (auto* f = t->as<ast::FieldAccess>())
            t = f->base.get();
        else
            return nullptr;
    }
    return nullptr;
}

} // namespace

void warnReplicasFromParts(const ast::TaskDef& task, const LpsTree& lps, const FlowTree& flow,
                           DiagnosticEngine& diags) {
    std::set<const ast::Assign*> reported;
    forEachStageCallInSpace(task, flow, [&](const StageCallSite& site) {
        if (flow.enclosing(site.node, FlowNode::Kind::Condition) != -1)
            return; // a Where/If may leave one LPU to write
        const Lps& space = lps.at(site.space);
        const ast::StageDef* stage = site.stage;
        if (space.unpartitioned)
            return;
        std::map<std::string, std::string> partitioned, replicated; // parameter -> array
        for (const auto& [param, array] : site.globalOf) {
            const ArrayPartition* part = space.find(array);
            if (!part || part->whole || part->instructions.empty())
                continue;
            const auto isReplicated = [](const DimInstruction& d) { return d.replicated; };
            (std::all_of(part->instructions.begin(), part->instructions.end(), isReplicated) ? replicated
                                                                                             : partitioned)[param] =
                array;
        }
        if (partitioned.empty() || replicated.empty())
            return;
        Assignments body;
        body.visitBlock(stage->body);
        // Locals computed from partitioned data, through other locals too; the array each comes from.
        std::map<std::string, std::string> fromPart = partitioned;
        for (bool grew = true; grew;) {
            grew = false;
            for (const Assignments::Write& w : body.writes) {
                const ast::NameRef* target = targetName(w.assign->target.get());
                if (!target || fromPart.count(target->name) || replicated.count(target->name))
                    continue;
                for (const std::string& read : namesRead(w.assign->value.get()))
                    if (auto it = fromPart.find(read); it != fromPart.end()) {
                        fromPart[target->name] = it->second;
                        grew = true;
                        break;
                    }
            }
        }
        for (const Assignments::Write& w : body.writes) {
            const ast::NameRef* target = targetName(w.assign->target.get());
            auto copy = target ? replicated.find(target->name) : replicated.end();
            if (copy == replicated.end() || reported.count(w.assign) ||
                std::any_of(w.conditions.begin(), w.conditions.end(),
                            [&](const ast::Expr* test) { return mayPickLpus(*test, fromPart); }))
                continue;
            // In a loop over a partitioned array: check_placement.cpp's warning covers it.
            if (std::any_of(w.loops.begin(), w.loops.end(), [&](const std::string& c) { return partitioned.count(c); }))
                continue;
            for (const std::string& read : namesRead(w.assign->value.get())) {
                auto source = fromPart.find(read);
                if (source == fromPart.end())
                    continue;
                reported.insert(w.assign);
                auto& d = diags.report(
                    DiagKind::UnguardedReplicatedWrite, w.assign->range,
                    fmt::format("stage `{}` writes `{}`, of which every LPU of `Space {}` holds a copy (replicated), "
                                "with a value computed from `{}`, which `Space {}` partitions, and outside any "
                                "Where/If (or `if` testing more than the part's own values): each LPU writes its copy "
                                "from its own part and the copies are never "
                                "combined; reduce into a Reduction variable, partition `{}`, or guard the stage "
                                "with Where so that one LPU writes it (see the guide: Replication and dimension "
                                "selectors)",
                                stage->name.text, copy->second, space.name, source->second, space.name, copy->second),
                    Severity::Warning);
                if (const ArrayPartition* part = space.find(copy->second))
                    DiagnosticEngine::addNote(d, part->range, "`" + copy->second + "` is replicated here");
                break;
            }
        }
    });
}

} // namespace itc::semantic
