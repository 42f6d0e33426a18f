// Token boundaries of IT source text, for tests that cut or mutate programs at token
// boundaries (tests/frontend/fuzz). Plain offsets: no ANTLR type leaves frontend/.
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

} // namespace itc
