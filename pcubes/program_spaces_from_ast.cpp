// AST -> ProgramSpaces: reads each task's Partition section and finds every `execute(task: "T")`
// in the coordinator (in any statement or nested expression). Reads the AST only.
#include "pcubes/program_spaces_from_ast.h"

namespace itc::pcubes {
namespace {

class ExecuteFinder {
public:
    explicit ExecuteFinder(ProgramSpaces& out) : out_(out) {}

    void block(const ast::Block& b) {
        for (const ast::StmtPtr& s : b.stmts)
            if (s)
                stmt(*s);
    }

private:
    void stmt(const ast::Stmt& s) {
        if (auto* e = s.as<ast::ExprStmt>()) {
            expr(e->expr.get());
        } else if (auto* l = s.as<ast::ParallelLoop>()) {
            for (const auto& g : l->groups)
                expr(g.restriction.get());
            block(l->body);
        } else if (auto* f = s.as<ast::SequentialFor>()) {
            expr(f->rangeExpr.get());
            expr(f->step.get());
            expr(f->restriction.get());
            block(f->body);
        } else if (auto* w = s.as<ast::While>()) {
            expr(w->condition.get());
            block(w->body);
        } else if (auto* i = s.as<ast::If>()) {
            for (const auto& br : i->branches) {
                expr(br.condition.get());
                block(br.body);
            }
            if (i->elseBody)
                block(*i->elseBody);
        } else if (auto* r = s.as<ast::ReduceStmt>()) {
            expr(r->operand.get());
        } else if (auto* r = s.as<ast::Return>()) {
            expr(r->value.get());
        }
    }

    void expr(const ast::Expr* e) {
        if (!e)
            return;
        if (auto* x = e->as<ast::Execute>()) {
            for (const ast::ExecuteArg& a : x->args) {
                if (a.label != ast::ExecuteArg::Label::Task)
                    continue;
                for (const ast::ExprPtr& v : a.values)
                    if (auto* s = v ? v->as<ast::StringLiteral>() : nullptr)
                        out_.executed.push_back({s->value, e->range});
            }
            for (const ast::ExecuteArg& a : x->args)
                for (const ast::ExprPtr& v : a.values)
                    expr(v.get());
        } else if (auto* a = e->as<ast::Assign>()) {
            expr(a->target.get());
            expr(a->value.get());
        } else if (auto* b = e->as<ast::Binary>()) {
            expr(b->lhs.get());
            expr(b->rhs.get());
        } else if (auto* u = e->as<ast::Unary>()) {
            expr(u->operand.get());
        } else if (auto* c = e->as<ast::Call>()) {
            for (const ast::CallArg& arg : c->args)
                expr(arg.value.get());
        } else if (auto* f = e->as<ast::FieldAccess>()) {
            expr(f->base.get());
        } else if (auto* s = e->as<ast::Subscript>()) {
            expr(s->base.get());
        } else if (auto* n = e->as<ast::NewObject>()) {
            for (const ast::NamedArg& arg : n->args)
                expr(arg.value.get());
        }
    }

    ProgramSpaces& out_;
};

} // namespace

ProgramSpaces programSpacesFromAst(const ast::Program& program) {
    ProgramSpaces out;
    for (const ast::TaskDef& task : program.tasks) {
        ProgramSpaces::Task t;
        t.name = task.name.text;
        t.declared = task.name.range;
        for (const ast::SpaceConfig& s : task.partition.spaces) {
            ProgramSpaces::Space sp;
            sp.name = s.space.text;
            if (s.parent)
                sp.parent = s.parent->text;
            sp.viaSubpartitions = s.dividesSubpartitions;
            sp.declared = s.range.valid() ? s.range : s.space.range;
            if (s.range.valid() && s.range.end.line != s.range.begin.line)
                sp.declared = s.space.range;
            t.spaces.push_back(std::move(sp));
        }
        out.tasks.push_back(std::move(t));
    }
    ExecuteFinder finder(out);
    for (const ast::Coordinator& c : program.coordinators)
        finder.block(c.body);
    return out;
}

} // namespace itc::pcubes
