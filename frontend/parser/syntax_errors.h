// Syntax errors of the ANTLR parser, in our words. The error strategy records the FIRST error
// (offending token, expected tokens, rule context) and aborts the parse, so that one mistake
// gives one message; describeSyntaxError() turns that record into a diagnostic kind and text.
// Internal to frontend/: ANTLR's own messages are never printed.
#pragma once

#include "frontend/lexer/layout_filter.h"

#include <DefaultErrorStrategy.h>
#include <Parser.h>
#include <misc/IntervalSet.h>

#include <string>
#include <vector>

namespace itc::frontend {

// Thrown by the strategy to stop parsing after the first error; never escapes frontend/.
struct ParseAbort {};

struct SyntaxErrorRecord {
    bool set = false;
    antlr4::Token* offending = nullptr;
    antlr4::misc::IntervalSet expected;
    antlr4::ParserRuleContext* context = nullptr; // innermost rule being parsed
};

class FirstErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
    explicit FirstErrorStrategy(SyntaxErrorRecord& record) : record_(record) {}

    void reportError(antlr4::Parser* parser, const antlr4::RecognitionException& e) override;
    void recover(antlr4::Parser* parser, std::exception_ptr e) override;
    antlr4::Token* recoverInline(antlr4::Parser* parser) override;

protected:
    void reportUnwantedToken(antlr4::Parser* parser) override;
    void reportMissingToken(antlr4::Parser* parser) override;

private:
    void record(antlr4::Parser* parser, antlr4::Token* offending, const antlr4::misc::IntervalSet& expected);
    SyntaxErrorRecord& record_;
};

// `tokens` is the filtered token list the parser read (for bracket matching and context).
LexProblem describeSyntaxError(const SyntaxErrorRecord& error, const std::vector<antlr4::Token*>& tokens,
                               const antlr4::dfa::Vocabulary& vocabulary, FileId file, const std::string& text);

} // namespace itc::frontend
