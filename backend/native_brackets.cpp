// Implements native_brackets.h: a scan of C++ text that knows comments, string and character
// literals (raw strings included), and nothing else of C++.
#include "backend/native_brackets.h"

#include "frontend/ast/ast_visitor.h"

#include <cctype>

#include <string_view>
#include <vector>

namespace itc::backend {
namespace {

// Where byte `offset` of the block's code is in the IT source: the code starts right after `${`.
SourceLocation locationOf(const ast::Extern& x, size_t offset) {
    SourceLocation at = x.codeRange.begin;
    at.column += 2;
    for (size_t i = 0; i < offset && i < x.code.size(); ++i) {
        if (x.code[i] == '\n') {
            ++at.line;
            at.column = 1;
        } else {
            ++at.column;
        }
    }
    return at;
}

char partnerOf(char closer) { return closer == ')' ? '(' : closer == ']' ? '[' : '{'; }

// The end of the literal or comment that starts at `i` (the offset just past it), or `i` when
// none starts there. A raw string R"delim( ... )delim" ends at its own delimiter.
size_t skipOpaque(std::string_view s, size_t i) {
    if (s.compare(i, 2, "//") == 0) {
        size_t end = s.find('\n', i);
        return end == std::string_view::npos ? s.size() : end;
    }
    if (s.compare(i, 2, "/*") == 0) {
        size_t end = s.find("*/", i + 2);
        return end == std::string_view::npos ? s.size() : end + 2;
    }
    if (s[i] == 'R' && i + 1 < s.size() && s[i + 1] == '"' &&
        (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'))) {
        size_t open = s.find('(', i + 2);
        if (open == std::string_view::npos)
            return s.size();
        const std::string close = ")" + std::string(s.substr(i + 2, open - i - 2)) + "\"";
        size_t end = s.find(close, open + 1);
        return end == std::string_view::npos ? s.size() : end + close.size();
    }
    if (s[i] == '"' || s[i] == '\'') {
        // A digit separator (1'000'000) is no character literal.
        if (s[i] == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1])))
            return i;
        for (size_t j = i + 1; j < s.size(); ++j) {
            if (s[j] == '\\')
                ++j;
            else if (s[j] == s[i] || s[j] == '\n')
                return j + 1;
        }
        return s.size();
    }
    return i;
}

} // namespace

std::optional<UnpairedBracket> unpairedNativeBracket(const ast::Extern& x) {
    const std::string_view s = x.code;
    std::vector<size_t> open; // offsets of the brackets still open
    for (size_t i = 0; i < s.size();) {
        if (size_t past = skipOpaque(s, i); past != i) {
            i = past;
            continue;
        }
        const char c = s[i];
        if (c == '(' || c == '[' || c == '{') {
            open.push_back(i);
        } else if (c == ')' || c == ']' || c == '}') {
            if (open.empty())
                return UnpairedBracket{locationOf(x, i), std::string("this `") + c +
                                                             "` closes nothing opened in the @Extern block's code; "
                                                             "remove it, or open its partner in the block"};
            if (s[open.back()] != partnerOf(c))
                return UnpairedBracket{locationOf(x, i), std::string("this `") + c + "` closes the `" + s[open.back()] +
                                                             "` opened earlier in the @Extern block's code; close "
                                                             "that one first"};
            open.pop_back();
        }
        ++i;
    }
    if (!open.empty())
        return UnpairedBracket{locationOf(x, open.back()),
                               std::string("this `") + s[open.back()] +
                                   "` is not closed in the @Extern block's code (each block's C++ must pair up its "
                                   "brackets); add its partner before `}$`"};
    return std::nullopt;
}

std::vector<UnpairedBracket> unpairedNativeBrackets(const ast::Program& program) {
    std::vector<UnpairedBracket> found;
    for (const ast::Extern* x : ast::externBlocks(program))
        if (auto u = unpairedNativeBracket(*x))
            found.push_back(std::move(*u));
    return found;
}

} // namespace itc::backend
