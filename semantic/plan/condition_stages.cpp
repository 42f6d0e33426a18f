#include "semantic/plan/condition_stages.h"

#include "frontend/ast/ast_visitor.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace itc::semantic {
namespace {

// The names an expression reads, in the order of their first use.
class NamesRead : public ast::Visitor {
public:
    std::vector<std::string> names;
    bool partitionParameter = false;
    void visitPartitionParam(const ast::PartitionParam&) override { partitionParameter = true; }
    void visitNameRef(const ast::NameRef& n) override {
        if (std::find(names.begin(), names.end(), n.name) == names.end())
            names.push_back(n.name);
    }
};

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

    // Moves `condition` into a new stage of the list's space that assigns it to a new Boolean task-global,
    // calls the stage just before list[at] (and at the end of `loopBody`, when given) and leaves
    // the Boolean in its place. Returns how many flow parts it inserted into `list`.
    int decide(ast::FlowList& list, std::size_t at, ast::ExprPtr& condition, ast::FlowList* loopBody) {
        ++rewritten_;
        if (!rewrite_)
            return 0;
        const SourceRange where = condition->range;
        const std::string line = std::to_string(where.begin.line);
        const std::string flag = freshName("condition_" + line);
        const std::string stage = freshName("decide_condition_" + line);

        NamesRead read;
        read.visitExpr(*condition);
        std::vector<std::string> params{flag};
        params.insert(params.end(), read.names.begin(), read.names.end());

        ast::VarDecl decl;
        decl.names.push_back({flag, where});
        decl.type.kind = ast::TypeKind::Boolean;
        decl.type.range = where;
        decl.range = where;
        task_.define.push_back(std::move(decl));

        ast::StageDef def;
        def.name = {stage, where};
        for (const auto& p : params)
            def.params.push_back({p, where});
        auto assign = node<ast::Assign>(where);
        assign->target = nameRef(flag, where);
        assign->value = std::move(condition);
        auto stmt = node<ast::ExprStmt>(where);
        stmt->expr = std::move(assign);
        def.body.stmts.push_back(std::move(stmt));
        def.body.range = where;
        def.range = where;
        task_.stages.push_back(std::move(def));
        condition = nameRef(flag, where);

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
