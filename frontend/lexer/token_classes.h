// Classes of IT tokens that both the layout filter and the syntax-error descriptions need.
#pragma once

#include "ITLexer.h"

#include <cstddef>

namespace itc::frontend {

// Binary operators, `=`, `.` and `[`, and `at`: the tokens that join an expression to what
// follows (each one more level of the expression's tree).
inline bool isOperator(std::size_t t) {
    using L = itc::antlr::ITLexer;
    switch (t) {
    case L::POWER:
    case L::SHL:
    case L::SHR:
    case L::LE:
    case L::GE:
    case L::EQ:
    case L::NE:
    case L::AND_AND:
    case L::OR_OR:
    case L::PLUS:
    case L::MINUS:
    case L::STAR:
    case L::SLASH:
    case L::PERCENT:
    case L::AMP:
    case L::PIPE:
    case L::CARET:
    case L::LT:
    case L::GT:
    case L::ASSIGN:
    case L::K_AND:
    case L::K_OR:
    case L::DOT:
    case L::LBRACK:
    case L::K_AT: return true;
    default: return false;
    }
}

} // namespace itc::frontend
