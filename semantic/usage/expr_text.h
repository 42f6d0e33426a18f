// Renders an AST expression back to compact IT source text, for plan reports and messages.
// Deterministic and lossless enough to read; not a pretty-printer of whole programs.
#pragma once

#include "frontend/ast/ast.h"

#include <string>

namespace itc::semantic {

std::string exprText(const ast::Expr& e);

} // namespace itc::semantic
