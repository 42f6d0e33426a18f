// The tokens of IT source text as the lexer sees them: boundaries for tests that cut or mutate
// programs at token boundaries (tests/frontend/fuzz), and kinds and positions for
// `itc check --emit=tokens`. Plain data: no ANTLR type leaves frontend/.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace itc {

struct TokenOffsets {
    std::size_t begin; // byte offset of the first character
    std::size_t end;   // one past the last character
};

// Every token of `text` as the IT lexer sees it (newline tokens included, EOF excluded).
std::vector<TokenOffsets> lexTokenOffsets(const std::string& text);

struct LexedToken {
    TokenOffsets at;
    std::size_t line = 0, column = 0; // 1-based; column in bytes
    std::string kind;                 // the lexer's symbolic token name, e.g. ID, NEWLINE
};

// The same tokens with their kinds and positions.
std::vector<LexedToken> lexTokens(const std::string& text);

} // namespace itc
