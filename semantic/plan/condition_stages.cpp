#include "semantic/plan/condition_stages.h"

#include "frontend/ast/ast_visitor.h"
#include "semantic/usage/names_read.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace itc::semantic {
namespace {

template <typename T> std::unique_ptr<T> node(SourceRange at) {
    auto n = std::make_unique<T>();
    n->range = at;
    return n;
}

std::unique_ptr<ast::NameRef> nameRef(const std::string& name, SourceRange at) {
    auto n = node<ast::NameRef>(at);
    n->name = name;
    return n;
}

class ConditionRewriter {
public:
    ConditionRewriter(const ast::Program& program, ast::TaskDef& task, const TaskPlan& plan, bool rewrite)
        : task_(task), plan_(plan), rewrite_(rewrite) {
        for (const auto& c : program.classes)
            taken_.insert(c.name.text);
        for (const auto& f : program.functions)
            taken_.insert(f.name.text);
        for (const auto& d : task.define)
            for (const auto& n : d.names) {
                taken_.insert(n.text);
                if (d.type.kind == ast::TypeKind::DynamicArray || d.type.kind == ast::TypeKind::StaticArray)
                    arrays_.insert(n.text);
            }
        for (const auto& s : task.stages)
            taken_.insert(s.name.text);
    }

    int run() {
        walk(task_.computation, kRootLps, false);
        return rewritten_;
    }

private:
    // `list` runs in space `space`; `guarded`: inside a Where/If.
    void walk(ast::FlowList& list, int space, bool guarded) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            ast::FlowPart& f = *list[i];
            if (auto s = f.as<ast::SpaceBlock>()) {
                walk(s->body, plan_.lps.find(s->space.text), guarded);
            } else if (auto c = f.as<ast::Condition>()) {
                if (!c->membershipRange && mayDecide(space, guarded) && needsDeciding(*c->condition, c->body, space))
                    i += decide(list, i, c->condition, nullptr);
                walk(c->body, space, true);
            } else if (auto w = f.as<ast::RepeatWhile>()) {
                if (w->condition && mayDecide(space, guarded) && needsDeciding(*w->condition, w->body, space))
                    i += decide(list, i, w->condition, &w->body);
                walk(w->body, space, guarded);
            } else if (auto r = f.as<ast::RepeatFor>()) {
                if (space == kRootLps)
                    i += decideRange(list, i, *r);
                walk(r->body, space, guarded);
            } else if (ast::FlowList* body = const_cast<ast::FlowList*>(ast::nestedFlow(f))) {
                walk(*body, space, guarded);
            }
        }
    }

    // Inside a Where/If each LPU of the space may or may not decide; with one LPU (Root) it
    // decides whenever the construct is reached.
    bool mayDecide(int space, bool guarded) const { return !guarded || space == kRootLps; }

    // Whether a space whose stages `body` holds keeps its own parts of an array `condition`
    // reads (Root's guarded spaces never hold Root's storage of an array).
    bool needsDeciding(const ast::Expr& condition, const ast::FlowList& body, int space) const {
        NamesRead read;
        read.visitExpr(condition);
        if (read.partitionParameter)
            return false;
        std::set<int> guardedSpaces;
        stageSpaces(body, space, guardedSpaces);
        guardedSpaces.erase(space);
        for (const auto& name : read.names) {
            if (!arrays_.count(name))
                continue;
            for (int g : guardedSpaces)
                if (plan_.storage.storageOf(name, g) != plan_.storage.storageOf(name, space))
                    return true;
        }
        return false;
    }

    void stageSpaces(const ast::FlowList& list, int space, std::set<int>& out) const {
        for (const auto& f : list) {
            if (f->as<ast::StageCall>())
                out.insert(space);
            else if (auto s = f->as<ast::SpaceBlock>())
                stageSpaces(s->body, plan_.lps.find(s->space.text), out);
            else if (const ast::FlowList* body = ast::nestedFlow(*f))
                stageSpaces(*body, space, out);
        }
    }

    std::string freshName(const std::string& base) {
        std::string name = base;
        for (int k = 2; taken_.count(name); ++k)
            name = base + "_" + std::to_string(k);
        taken_.insert(name);
        return name;
    }

    // Whether `e` reads a task array (an element, or the array passed to a function) and could
    // be evaluated by a stage (no partition parameter).
    bool readsTaskArray(const ast::Expr& e) const {
        DataRead read;
        read.visitExpr(e);
        return !read.partitionParameter &&
               std::any_of(read.names.begin(), read.names.end(), [&](const auto& n) { return arrays_.count(n) > 0; });
    }

    // The bounds and step of a Root `Repeat for` are evaluated once, by every process, before
    // the loop: one reading a task array is computed by a Root stage into an Integer task-global
    // (a whole range value into a Range one), which every process then reads.
    int decideRange(ast::FlowList& list, std::size_t at, ast::RepeatFor& loop) {
        std::vector<Decision> decisions;
        auto consider = [&](ast::ExprPtr& e, ast::TypeKind type, const char* what) {
            if (e && readsTaskArray(*e))
                decisions.push_back({&e, type, what});
        };
        if (auto literal = loop.rangeExpr->as<ast::RangeLiteral>()) {
            consider(literal->first, ast::TypeKind::Integer, "range_first_");
            consider(literal->last, ast::TypeKind::Integer, "range_last_");
        } else {
            consider(loop.rangeExpr, ast::TypeKind::Range, "range_");
        }
        consider(loop.step, ast::TypeKind::Integer, "range_step_");
        if (decisions.empty())
            return 0;
        return decide(list, at, decisions, nullptr, "decide_range_", loop.rangeExpr->range);
    }

    int decide(ast::FlowList& list, std::size_t at, ast::ExprPtr& condition, ast::FlowList* loopBody) {
        const SourceRange where = condition->range;
        return decide(list, at, {{&condition, ast::TypeKind::Boolean, "condition_"}}, loopBody, "decide_condition_",
                      where);
    }

    // An expression a stage evaluates into a new task-global of type `type`, named `base` and
    // the line.
    struct Decision {
        ast::ExprPtr* expr;
        ast::TypeKind type;
        const char* base;
    };

    // Moves each decision's expression into one new stage of the list's space that assigns it to
    // a new task-global, calls the stage just before list[at] (and at the end of `loopBody`, when
    // given) and leaves the task-globals in their places. Returns how many flow parts it inserted
    // into `list`.
    int decide(ast::FlowList& list, std::size_t at, const std::vector<Decision>& decisions, ast::FlowList* loopBody,
               const std::string& stageBase, SourceRange where) {
        ++rewritten_;
        if (!rewrite_)
            return 0;
        const std::string line = std::to_string(where.begin.line);
        const std::string stage = freshName(stageBase + line);

        ast::StageDef def;
        def.name = {stage, where};
        std::vector<std::string> params;
        std::vector<std::string> inputs;
        for (const Decision& d : decisions) {
            const SourceRange at = (*d.expr)->range;
            const std::string variable = freshName(d.base + line);
            params.push_back(variable);
            NamesRead read;
            read.visitExpr(**d.expr);
            for (const auto& n : read.names)
                if (std::find(inputs.begin(), inputs.end(), n) == inputs.end())
                    inputs.push_back(n);

            ast::VarDecl decl;
            decl.names.push_back({variable, at});
            decl.type.kind = d.type;
            decl.type.range = at;
            decl.range = at;
            task_.define.push_back(std::move(decl));

            auto assign = node<ast::Assign>(at);
            assign->target = nameRef(variable, at);
            assign->value = std::move(*d.expr);
            auto stmt = node<ast::ExprStmt>(at);
            stmt->expr = std::move(assign);
            def.body.stmts.push_back(std::move(stmt));
            *d.expr = nameRef(variable, at);
        }
        for (const auto& n : inputs)
            if (std::find(params.begin(), params.end(), n) == params.end())
                params.push_back(n);
        for (const auto& p : params)
            def.params.push_back({p, where});
        def.body.range = where;
        def.range = where;
        task_.stages.push_back(std::move(def));

        auto call = [&] {
            auto c = node<ast::StageCall>(where);
            c->stage = {stage, where};
            for (const auto& p : params) {
                ast::CallArg a;
                a.value = nameRef(p, where);
                a.range = where;
                c->args.push_back(std::move(a));
            }
            return c;
        };
        list.insert(list.begin() + static_cast<std::ptrdiff_t>(at), call());
        if (loopBody)
            loopBody->push_back(call());
        return 1;
    }

    ast::TaskDef& task_;
    const TaskPlan& plan_;
    const bool rewrite_;
    std::set<std::string> taken_, arrays_;
    int rewritten_ = 0;
};

} // namespace

int decideConditionsInTheirSpace(ast::Program& program, const ProgramPlan& plan, bool rewrite) {
    int rewritten = 0;
    for (auto& task : program.tasks)
        for (const auto& p : plan.tasks)
            if (p.task == task.name.text)
                rewritten += ConditionRewriter(program, task, p, rewrite).run();
    return rewritten;
}

} // namespace itc::semantic
