// The brackets of an @Extern block's C++ must pair up inside the block: the backend puts the
// code inside a function of its own, so an unclosed `{` or a `}` too many would close (or leave
// open) the generated code around it, and the C++ compiler's errors would point at itc's code.
#pragma once

#include "frontend/ast/ast.h"

#include <optional>
#include <string>
#include <vector>

namespace itc::backend {

// The first bracket of `x.code` that has no partner (a `)`, `]` or `}` closing nothing or
// another kind of bracket, or one left open at the end), skipping comments and string and
// character literals; nullopt when they all pair up.
struct UnpairedBracket {
    SourceLocation at; // in the IT source
    std::string message;
};
std::optional<UnpairedBracket> unpairedNativeBracket(const ast::Extern& x);
// Of every @Extern block of the program, in source order.
std::vector<UnpairedBracket> unpairedNativeBrackets(const ast::Program& program);

} // namespace itc::backend
