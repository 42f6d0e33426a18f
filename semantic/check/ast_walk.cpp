// Pre-order walks over expressions and code bodies (see ast_walk.h).
#include "semantic/check/ast_walk.h"

namespace itc::semantic::check {

namespace {
void walkOpt(const ast::ExprPtr& e, const ExprFn& fn) {
    if (e)
        walkExpr(*e, fn);
}
} // namespace

void walkExpr(const ast::Expr& e, const ExprFn& fn) {
    fn(e);
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::Unary: walkOpt(e.as<ast::Unary>()->operand, fn); break;
    case K::Binary:
        walkOpt(e.as<ast::Binary>()->lhs, fn);
        walkOpt(e.as<ast::Binary>()->rhs, fn);
        break;
    case K::Assign:
        walkOpt(e.as<ast::Assign>()->target, fn);
        walkOpt(e.as<ast::Assign>()->value, fn);
        break;
    case K::FieldAccess: walkOpt(e.as<ast::FieldAccess>()->base, fn); break;
    case K::Property: walkOpt(e.as<ast::Property>()->base, fn); break;
    case K::Subscript: {
        auto* s = e.as<ast::Subscript>();
        walkOpt(s->base, fn);
        for (const auto& it : s->items) {
            walkOpt(it.index, fn);
            walkOpt(it.first, fn);
            walkOpt(it.last, fn);
        }
        break;
    }
    case K::Call:
        for (const auto& a : e.as<ast::Call>()->args)
            walkOpt(a.value, fn);
        break;
    case K::NewObject:
        for (const auto& a : e.as<ast::NewObject>()->args)
            walkOpt(a.value, fn);
        break;
    case K::ReduceExpr: walkOpt(e.as<ast::ReduceExpr>()->operand, fn); break;
    case K::RangeLiteral:
        walkOpt(e.as<ast::RangeLiteral>()->first, fn);
        walkOpt(e.as<ast::RangeLiteral>()->last, fn);
        break;
    case K::Epoch: walkOpt(e.as<ast::Epoch>()->operand, fn); break;
    case K::Execute:
        for (const auto& a : e.as<ast::Execute>()->args)
            for (const auto& v : a.values)
                walkOpt(v, fn);
        break;
    default: break;
    }
}

void walkBlock(const ast::Block& block, const ExprFn& fn) {
    using K = ast::StmtKind;
    for (const ast::StmtPtr& sp : block.stmts) {
        const ast::Stmt& s = *sp;
        switch (s.kind) {
        case K::ExprStmt: walkOpt(s.as<ast::ExprStmt>()->expr, fn); break;
        case K::ParallelLoop: {
            auto* l = s.as<ast::ParallelLoop>();
            for (const auto& g : l->groups)
                walkOpt(g.restriction, fn);
            walkBlock(l->body, fn);
            break;
        }
        case K::SequentialFor: {
            auto* l = s.as<ast::SequentialFor>();
            walkOpt(l->rangeExpr, fn);
            walkOpt(l->step, fn);
            walkOpt(l->restriction, fn);
            walkBlock(l->body, fn);
            break;
        }
        case K::While:
            walkOpt(s.as<ast::While>()->condition, fn);
            walkBlock(s.as<ast::While>()->body, fn);
            break;
        case K::If: {
            auto* i = s.as<ast::If>();
            for (const auto& b : i->branches) {
                walkOpt(b.condition, fn);
                walkBlock(b.body, fn);
            }
            if (i->elseBody)
                walkBlock(*i->elseBody, fn);
            break;
        }
        case K::ReduceStmt: walkOpt(s.as<ast::ReduceStmt>()->operand, fn); break;
        case K::Return: walkOpt(s.as<ast::Return>()->value, fn); break;
        case K::Extern: break;
        }
    }
}

} // namespace itc::semantic::check
