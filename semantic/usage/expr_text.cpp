// Expression -> text, fully parenthesising nested binary operators only where they nest.
#include "semantic/usage/expr_text.h"

#include <sstream>

namespace itc::semantic {
namespace {

const char* binaryText(ast::BinaryOp op) {
    switch (op) {
    case ast::BinaryOp::Add: return "+";
    case ast::BinaryOp::Sub: return "-";
    case ast::BinaryOp::Mul: return "*";
    case ast::BinaryOp::Div: return "/";
    case ast::BinaryOp::Mod: return "%";
    case ast::BinaryOp::Power: return "**";
    case ast::BinaryOp::ShiftLeft: return "<<";
    case ast::BinaryOp::ShiftRight: return ">>";
    case ast::BinaryOp::BitAnd: return "&";
    case ast::BinaryOp::BitXor: return "^";
    case ast::BinaryOp::BitOr: return "|";
    case ast::BinaryOp::Less: return "<";
    case ast::BinaryOp::Greater: return ">";
    case ast::BinaryOp::LessEqual: return "<=";
    case ast::BinaryOp::GreaterEqual: return ">=";
    case ast::BinaryOp::Equal: return "==";
    case ast::BinaryOp::NotEqual: return "!=";
    case ast::BinaryOp::And: return "and";
    case ast::BinaryOp::Or: return "or";
    }
    return "?";
}

std::string text(const ast::Expr* e, bool nested);

std::string text(const ast::Expr* e, bool nested) {
    if (!e)
        return "";
    using K = ast::ExprKind;
    switch (e->kind) {
    case K::IntLiteral: return std::to_string(e->as<ast::IntLiteral>()->value);
    case K::RealLiteral: {
        const auto* r = e->as<ast::RealLiteral>();
        if (!r->spelling.empty())
            return r->spelling;
        std::ostringstream s;
        s << r->value;
        return s.str();
    }
    case K::CharLiteral: return std::string("'") + e->as<ast::CharLiteral>()->value + "'";
    case K::StringLiteral: return "\"" + e->as<ast::StringLiteral>()->value + "\"";
    case K::BoolLiteral: return e->as<ast::BoolLiteral>()->value ? "TRUE" : "FALSE";
    case K::NameRef: return e->as<ast::NameRef>()->name;
    case K::Unary: {
        const auto* u = e->as<ast::Unary>();
        return (u->op == ast::UnaryOp::Negate ? "-" : "!") + text(u->operand.get(), true);
    }
    case K::Binary: {
        const auto* b = e->as<ast::Binary>();
        std::string s = text(b->lhs.get(), true) + " " + binaryText(b->op) + " " + text(b->rhs.get(), true);
        return nested ? "(" + s + ")" : s;
    }
    case K::Assign: {
        const auto* a = e->as<ast::Assign>();
        return text(a->target.get(), false) + " = " + text(a->value.get(), false);
    }
    case K::FieldAccess: {
        const auto* f = e->as<ast::FieldAccess>();
        return text(f->base.get(), true) + "." + f->field.text;
    }
    case K::Property: {
        const auto* p = e->as<ast::Property>();
        std::string s = text(p->base.get(), true);
        switch (p->property) {
        case ast::PropertyKind::Local: return s + ".local";
        case ast::PropertyKind::Range: return s + ".range";
        case ast::PropertyKind::Dimension:
            return s + ".dimension" + (p->dimensionIndex ? std::to_string(p->dimensionIndex) : std::string());
        }
        return s;
    }
    case K::Subscript: {
        const auto* s = e->as<ast::Subscript>();
        std::string r = text(s->base.get(), true);
        for (const ast::SubscriptItem& it : s->items) {
            switch (it.kind) {
            case ast::SubscriptItem::Kind::Index: r += "[" + text(it.index.get(), false) + "]"; break;
            case ast::SubscriptItem::Kind::Section:
                r += "[" + text(it.first.get(), true) + "..." + text(it.last.get(), true) + "]";
                break;
            case ast::SubscriptItem::Kind::Whole: r += "[...]"; break;
            }
        }
        return r;
    }
    case K::Call: {
        const auto* c = e->as<ast::Call>();
        std::string r = c->callee.text + "(";
        for (std::size_t i = 0; i < c->args.size(); ++i) {
            if (i)
                r += ", ";
            const ast::CallArg& a = c->args[i];
            r += a.isSpaceArg() ? "Space " + a.space->text + ": " + (a.variable ? a.variable->text : std::string())
                                : text(a.value.get(), false);
        }
        return r + ")";
    }
    case K::NewObject: return "new ...";
    case K::NewCollection: return "new ...";
    case K::ReduceExpr: {
        const auto* r = e->as<ast::ReduceExpr>();
        std::string op = r->op.isLiteral ? "\"" + r->op.text + "\"" : r->op.text;
        return "reduce(" + op + ", " + text(r->operand.get(), false) + ")";
    }
    case K::LpuId: return "lpuId";
    case K::PartitionParam: return "partition." + e->as<ast::PartitionParam>()->param.text;
    case K::RangeLiteral: {
        const auto* r = e->as<ast::RangeLiteral>();
        return "[" + text(r->first.get(), true) + "..." + text(r->last.get(), true) + "]";
    }
    case K::Epoch: {
        const auto* ep = e->as<ast::Epoch>();
        return text(ep->operand.get(), true) + " at (current" +
               (ep->lag ? " - " + std::to_string(ep->lag) : std::string()) + ")";
    }
    case K::Execute: return "execute(...)";
    }
    return "?";
}

} // namespace

std::string exprText(const ast::Expr& e) { return text(&e, false); }

} // namespace itc::semantic
