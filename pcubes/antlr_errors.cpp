// First-syntax-error listener shared by the machine-file and mapping-file parsers.
#include "pcubes/antlr_errors.h"

#include "frontend/diagnostics/show_byte.h"

namespace itc::pcubes {

SourceRange tokenRange(FileId file, const antlr4::Token* token) {
    if (!token)
        return {};
    auto line = static_cast<std::uint32_t>(token->getLine());
    auto col = static_cast<std::uint32_t>(token->getCharPositionInLine()) + 1;
    std::string text = token->getType() == antlr4::Token::EOF ? "" : token->getText();
    auto len = static_cast<std::uint32_t>(text.empty() ? 1 : text.size());
    return {{file, line, col}, {file, line, col + len - 1}};
}

std::string describeToken(const antlr4::Token* token) {
    if (!token || token->getType() == antlr4::Token::EOF)
        return "the end of the file";
    std::string shown;
    for (char c : token->getText())
        shown += showByte(c);
    if (shown.size() > 60) // a whole binary file can be one token
        shown = shown.substr(0, 57) + "...";
    return "`" + shown + "`";
}

void FirstSyntaxError::syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offendingSymbol, size_t line,
                                   size_t charPositionInLine, const std::string&, std::exception_ptr) {
    if (failed_)
        return;
    failed_ = true;
    auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
    SourceRange range = tokenRange(file_, offendingSymbol);
    if (!offendingSymbol) {
        SourceLocation at{file_, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(charPositionInLine) + 1};
        range = SourceRange::at(at);
    } else if (offendingSymbol->getType() == antlr4::Token::EOF) {
        // Point just after the last token rather than past the end of the file.
        const antlr4::Token* last = parser ? parser->getTokenStream()->LT(-1) : nullptr;
        if (last && last->getType() != antlr4::Token::EOF) {
            SourceRange r = tokenRange(file_, last);
            range = SourceRange::at({file_, r.end.line, r.end.column + 1});
        } else {
            range = SourceRange::at(
                {file_, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(charPositionInLine) + 1});
        }
    }
    std::string message =
        parser ? composer_(*parser, offendingSymbol) : "unexpected character " + describeToken(offendingSymbol);
    diags_.report(kind_, range, std::move(message));
}

antlr4::misc::IntervalSet expectedTokens(antlr4::Parser& parser) {
    try {
        return parser.getExpectedTokens();
    } catch (...) {
        return {};
    }
}

antlr4::ParserRuleContext* enclosingRule(antlr4::ParserRuleContext* ctx, size_t ruleIndex) {
    for (; ctx; ctx = dynamic_cast<antlr4::ParserRuleContext*>(ctx->parent))
        if (ctx->getRuleIndex() == ruleIndex)
            return ctx;
    return nullptr;
}

std::optional<FileId> loadInputFile(const std::string& path, std::string_view what, SourceManager& sources,
                                    DiagnosticEngine& diags) {
    std::string error;
    auto file = sources.loadFile(path, error);
    if (!file)
        diags.error(DiagKind::FileNotReadable, {}, "cannot read {} `{}`: {}", what, path, error);
    return file;
}

} // namespace itc::pcubes
