// parseProgram: bytes -> ANTLR lexer -> layout filter -> ANTLR parser (first error aborts) ->
// AST builder. Exactly one syntax diagnostic is reported for a malformed file: the earliest of
// the first lexical problem and the parser's first error. Nothing ANTLR-made is printed.
#include "frontend/parser.h"

#include "frontend/builder/ast_builder.h"
#include "frontend/byte_input_stream.h"
#include "frontend/lexer/layout_filter.h"
#include "frontend/parser/syntax_errors.h"
#include "frontend/token_offsets.h"

#include "ITLexer.h"
#include "ITParser.h"

#include <BaseErrorListener.h>
#include <CommonTokenStream.h>
#include <ListTokenSource.h>
#include <RuntimeMetaData.h>

namespace itc {
namespace {

// The lexer never fails (ERROR_CHAR catches everything); this keeps ANTLR's console listener
// away in case it ever did.
class SilentListener : public antlr4::BaseErrorListener {
    void syntaxError(antlr4::Recognizer*, antlr4::Token*, size_t, size_t, const std::string&,
                     std::exception_ptr) override {}
};

std::vector<std::unique_ptr<antlr4::Token>> lexAll(antlr::ITLexer& lexer) {
    std::vector<std::unique_ptr<antlr4::Token>> tokens;
    while (true) {
        std::unique_ptr<antlr4::Token> t = lexer.nextToken();
        bool eof = t->getType() == antlr4::Token::EOF;
        tokens.push_back(std::move(t));
        if (eof)
            return tokens;
    }
}

void reportProblem(DiagnosticEngine& diags, const frontend::LexProblem& p) {
    Diagnostic& d = diags.report(p.kind, p.range, p.message);
    if (p.note)
        DiagnosticEngine::addNote(d, p.note->range, p.note->message);
}

std::unique_ptr<ast::Program> emptyProgram(FileId file) {
    auto program = std::make_unique<ast::Program>();
    program->file = file;
    return program;
}

bool before(const SourceRange& a, const SourceRange& b) {
    return a.begin.line < b.begin.line || (a.begin.line == b.begin.line && a.begin.column < b.begin.column);
}

std::unique_ptr<ast::Program> parse(FileId file, const SourceManager& sources, DiagnosticEngine& diags) {
    const std::string& text = sources.text(file);
    ByteInputStream input(text);
    antlr::ITLexer lexer(&input);
    SilentListener silent;
    lexer.removeErrorListeners();
    lexer.addErrorListener(&silent);

    frontend::LayoutResult layout = frontend::applyLayout(lexAll(lexer), file, sources);
    std::optional<frontend::LexProblem> lexical;
    if (!layout.problems.empty())
        lexical = layout.problems.front();
    for (const frontend::LexProblem& p : layout.problems)
        if (p.kind == DiagKind::TooDeeplyNested) {
            reportProblem(diags, p);
            return emptyProgram(file);
        }

    antlr4::ListTokenSource source(std::move(layout.tokens));
    antlr4::CommonTokenStream stream(&source);
    antlr::ITParser parser(&stream);
    parser.removeErrorListeners();
    parser.addErrorListener(&silent);
    frontend::SyntaxErrorRecord error;
    parser.setErrorHandler(std::make_shared<frontend::FirstErrorStrategy>(error));

    antlr::ITParser::ProgramContext* tree = nullptr;
    try {
        tree = parser.program();
    } catch (const frontend::ParseAbort&) {
    }

    std::optional<frontend::LexProblem> syntax;
    if (error.set) {
        stream.fill();
        std::vector<antlr4::Token*> tokens = stream.getTokens();
        syntax = frontend::describeSyntaxError(error, tokens, parser.getVocabulary(), file, text);
    }
    if (lexical && (!syntax || !before(syntax->range, lexical->range))) {
        reportProblem(diags, *lexical);
        return emptyProgram(file);
    }
    if (syntax) {
        reportProblem(diags, *syntax);
        return emptyProgram(file);
    }
    return frontend::buildAst(tree, file, text, diags);
}

} // namespace

std::string antlrRuntimeVersion() { return antlr4::RuntimeMetaData::VERSION; }

std::unique_ptr<ast::Program> parseProgram(FileId file, const SourceManager& sources, DiagnosticEngine& diags) {
    try {
        return parse(file, sources, diags);
    } catch (const std::exception& e) {
        diags.error(DiagKind::InternalError, SourceRange::at({file, 0, 0}), "internal compiler error while parsing: {}",
                    e.what());
    } catch (...) {
        diags.error(DiagKind::InternalError, SourceRange::at({file, 0, 0}), "internal compiler error while parsing");
    }
    return emptyProgram(file);
}

std::vector<LexedToken> lexTokens(const std::string& text) {
    ByteInputStream input(text);
    antlr::ITLexer lexer(&input);
    lexer.removeErrorListeners();
    std::vector<LexedToken> out;
    for (const auto& t : lexAll(lexer)) {
        if (t->getType() == antlr4::Token::EOF)
            break;
        std::string kind = std::string(lexer.getVocabulary().getSymbolicName(t->getType()));
        if (kind.empty())
            kind = std::string(lexer.getVocabulary().getDisplayName(t->getType()));
        out.push_back({{t->getStartIndex(), t->getStopIndex() + 1},
                       t->getLine(),
                       t->getCharPositionInLine() + 1,
                       std::move(kind)});
    }
    return out;
}

std::vector<TokenOffsets> lexTokenOffsets(const std::string& text) {
    std::vector<TokenOffsets> out;
    for (const LexedToken& t : lexTokens(text))
        out.push_back(t.at);
    return out;
}

} // namespace itc
