// Routes ANTLR's syntax errors for the small pcubes grammars into our diagnostics engine with
// our own wording. Only the first syntax error of a file is reported (one mistake, one message);
// ANTLR's own text never reaches the user. Private to pcubes/: no ANTLR type leaves this folder.
#pragma once

#include "frontend/diagnostics/diagnostics.h"

#include <antlr4-runtime.h>

#include <functional>
#include <string>

namespace itc::pcubes {

// `file` line/column of a token, inclusive range over its text (tokens never span lines here).
SourceRange tokenRange(FileId file, const antlr4::Token* token);
// `text` for a token or "the end of the file".
std::string describeToken(const antlr4::Token* token);

class FirstSyntaxError : public antlr4::BaseErrorListener {
public:
    // Composes the message from the parser's state; called once, for the first error.
    using Composer = std::function<std::string(antlr4::Parser& parser, const antlr4::Token* found)>;

    FirstSyntaxError(FileId file, DiagnosticEngine& diags, DiagKind kind, Composer composer)
        : file_(file), diags_(diags), kind_(kind), composer_(std::move(composer)) {}

    void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offendingSymbol,
                     size_t line, size_t charPositionInLine, const std::string& msg,
                     std::exception_ptr e) override;

    bool failed() const { return failed_; }

private:
    FileId file_;
    DiagnosticEngine& diags_;
    DiagKind kind_;
    Composer composer_;
    bool failed_ = false;
};

// True if rule `ruleIndex` is `ctx` or one of its ancestors; returns that context.
antlr4::ParserRuleContext* enclosingRule(antlr4::ParserRuleContext* ctx, size_t ruleIndex);

} // namespace itc::pcubes
