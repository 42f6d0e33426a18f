// Read-only pre-order walks over code bodies, used by the check passes that need to find
// nodes (loop-index subscripts, calls for the call graph) without typing them.
#pragma once

#include "frontend/ast/ast.h"

#include <functional>

namespace itc::semantic::check {

using ExprFn = std::function<void(const ast::Expr&)>;

// Calls `fn` on `e` and on every expression nested in it, outer first.
void walkExpr(const ast::Expr& e, const ExprFn& fn);
// Calls `fn` on every expression of every statement of `block`, nested blocks included.
void walkBlock(const ast::Block& block, const ExprFn& fn);

} // namespace itc::semantic::check
