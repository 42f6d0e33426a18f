// The AST as indented text, one node per line with its `@line:col`: the output of
// `itc parse --dump-ast` and of the AST golden tests. The format is stable; change it only
// together with the golden files (tests/frontend/testdata/ast/).
#pragma once

#include "frontend/ast/ast.h"

#include <string>

namespace itc::ast {

std::string printAst(const Program& program);

} // namespace itc::ast
