// A subscript or range bound written as a name plus a literal: `i`, `i + 1`, `1 + i`, `i - 2`.
// The loop checks (loop_dependence, backward_ranges) read loop indices in this form.
#pragma once

#include "frontend/ast/ast.h"

#include <cstdint>
#include <optional>
#include <string>

namespace itc::semantic::check {

struct IndexOffset {
    std::string name;
    std::int64_t by = 0;
};

inline std::optional<IndexOffset> indexOffset(const ast::Expr* e) {
    if (!e)
        return std::nullopt;
    if (auto* n = e->as<ast::NameRef>())
        return IndexOffset{n->name, 0};
    auto* b = e->as<ast::Binary>();
    if (!b || (b->op != ast::BinaryOp::Add && b->op != ast::BinaryOp::Sub) || !b->lhs || !b->rhs)
        return std::nullopt;
    if (auto* n = b->lhs->as<ast::NameRef>())
        if (auto* c = b->rhs->as<ast::IntLiteral>())
            return IndexOffset{n->name, b->op == ast::BinaryOp::Add ? c->value : -c->value};
    if (b->op == ast::BinaryOp::Add)
        if (auto* n = b->rhs->as<ast::NameRef>())
            if (auto* c = b->lhs->as<ast::IntLiteral>())
                return IndexOffset{n->name, c->value};
    return std::nullopt;
}

} // namespace itc::semantic::check
