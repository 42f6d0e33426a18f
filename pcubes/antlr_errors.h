// Routes ANTLR's syntax errors for the small pcubes grammars into our diagnostics engine with
// our own wording. Only the first syntax error of a file is reported (one mistake, one message);
// ANTLR's own text never reaches the user. Private to pcubes/: no ANTLR type leaves this folder.
#pragma once

#include "frontend/byte_input_stream.h"
#include "frontend/diagnostics/diagnostics.h"

#include <antlr4-runtime.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

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

    void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offendingSymbol, size_t line,
                     size_t charPositionInLine, const std::string& msg, std::exception_ptr e) override;

    bool failed() const { return failed_; }

private:
    FileId file_;
    DiagnosticEngine& diags_;
    DiagKind kind_;
    Composer composer_;
    bool failed_ = false;
};

// The tokens the parser could have taken where it stopped; empty when ANTLR cannot tell (it throws
// from some error states, and a message must still be composed then).
antlr4::misc::IntervalSet expectedTokens(antlr4::Parser& parser);

// True if rule `ruleIndex` is `ctx` or one of its ancestors; returns that context.
antlr4::ParserRuleContext* enclosingRule(antlr4::ParserRuleContext* ctx, size_t ruleIndex);

// Parses `file` with a fresh Lexer/Parser pair, reporting only the first syntax error (as `kind`,
// worded by `composer`). `startRule` is the parser's top rule (e.g. &Parser::machineFile); on
// success `build(tree)` runs while the parse tree is still alive and its result is returned.
template <class Lexer, class Parser, class Context, class Build>
auto parseFirstError(FileId file, const SourceManager& sources, DiagnosticEngine& diags, DiagKind kind,
                     FirstSyntaxError::Composer composer, Context* (Parser::*startRule)(), Build build)
    -> decltype(build(static_cast<Context*>(nullptr))) {
    ByteInputStream input(sources.text(file)); // bytes: invalid UTF-8 is a syntax error, no throw
    Lexer lexer(&input);
    lexer.removeErrorListeners();
    antlr4::CommonTokenStream tokens(&lexer);
    Parser parser(&tokens);
    parser.removeErrorListeners();
    FirstSyntaxError listener(file, diags, kind, std::move(composer));
    lexer.addErrorListener(&listener);
    parser.addErrorListener(&listener);
    Context* tree = (parser.*startRule)();
    if (listener.failed())
        return std::nullopt;
    return build(tree);
}

// Loads `path` into `sources`; if it cannot be read, reports FileNotReadable as
// "cannot read <what> `path`: reason" and returns nullopt.
std::optional<FileId> loadInputFile(const std::string& path, std::string_view what, SourceManager& sources,
                                    DiagnosticEngine& diags);

} // namespace itc::pcubes
