// The layout filter: turns the raw ANTLR token list (every newline an NL token, error tokens
// included) into the tokens the parser sees. It decides which newlines end statements (§1.2):
// only inside code bodies, outside open `(`/`[`, never right after `{` or before `}`, one NL per
// run. It also reports lexical problems. Internal to frontend/: ANTLR types stay here.
#pragma once

#include "frontend/diagnostics/diagnostics.h"

#include <Token.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace itc::frontend {

// One lexical problem, not yet reported (the parser driver picks the first problem overall).
struct LexProblem {
    DiagKind kind;
    SourceRange range;
    std::string message;
    std::optional<DiagnosticNote> note;
};

// The source range a token covers (multi-line tokens such as native code included).
SourceRange tokenRange(FileId file, const std::string& text, const antlr4::Token* token);

struct LayoutResult {
    std::vector<std::unique_ptr<antlr4::Token>> tokens; // ends with EOF
    std::vector<LexProblem> problems;                   // in source order
};

// `raw` must end with the EOF token. `sources` gives line text (for the indentation heuristic
// that locates a missing `}`).
LayoutResult applyLayout(std::vector<std::unique_ptr<antlr4::Token>> raw, FileId file, const SourceManager& sources);

// Nesting limit for `(`, `[` and `{` together; deeper input is rejected (TooDeeplyNested)
// before parsing so that the recursive-descent parser cannot exhaust the stack.
inline constexpr int kMaxNesting = 200;
// Operators in one statement (each one a level of the expression's tree).
inline constexpr int kMaxOperators = 1000;

} // namespace itc::frontend
