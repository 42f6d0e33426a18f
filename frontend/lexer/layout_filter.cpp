// The layout filter (see layout_filter.h): newline significance by brace context, and lexical
// diagnostics. Design notes: docs/frontend.md, "Newlines".
#include "frontend/lexer/layout_filter.h"

#include "frontend/diagnostics/show_byte.h"
#include "frontend/lexer/token_classes.h"

#include "ITLexer.h"

#include <fmt/format.h>

#include <algorithm>

namespace itc::frontend {

using antlr4::Token;
using L = itc::antlr::ITLexer;

SourceRange tokenRange(FileId file, const std::string& text, const Token* token) {
    SourceLocation begin{file, static_cast<std::uint32_t>(token->getLine()),
                         static_cast<std::uint32_t>(token->getCharPositionInLine() + 1)};
    SourceLocation end = begin;
    std::size_t start = token->getStartIndex(), stop = token->getStopIndex();
    if (token->getType() == Token::EOF || stop == static_cast<std::size_t>(-1) || stop < start || stop >= text.size())
        return {begin, end};
    for (std::size_t i = start; i < stop; ++i) {
        if (text[i] == '\n') {
            ++end.line;
            end.column = 1;
        } else {
            ++end.column;
        }
    }
    return {begin, end};
}

namespace {

enum class Ctx { Decl, Code };

struct Level {
    Ctx ctx;
    int parens = 0;
    const Token* open = nullptr; // the `{` (null for the file level)
};

bool isSectionKeyword(std::size_t type) {
    switch (type) {
    case L::K_PROGRAM:
    case L::K_CLASS:
    case L::K_TASK:
    case L::K_FUNCTION:
    case L::K_DEFINE:
    case L::K_ENVIRONMENT:
    case L::K_INITIALIZE:
    case L::K_STAGES:
    case L::K_COMPUTATION:
    case L::K_PARTITION:
    case L::K_ARGUMENTS:
    case L::K_RESULTS:
    case L::K_COMPUTE: return true;
    default: return false;
    }
}

class Filter {
public:
    Filter(FileId file, const SourceManager& sources) : file_(file), sources_(sources), text_(sources.text(file)) {}

    LayoutResult run(std::vector<std::unique_ptr<Token>> raw) {
        levels_.push_back({Ctx::Decl, 0, nullptr});
        for (std::unique_ptr<Token>& tok : raw) {
            if (tooDeep_)
                break;
            if (tok->getType() == Token::EOF) {
                finish(std::move(tok));
                break;
            }
            process(std::move(tok));
        }
        if (tooDeep_) {
            result_.tokens.clear();
            auto eof = std::move(raw.back());
            result_.tokens.push_back(std::move(eof));
        }
        return std::move(result_);
    }

private:
    SourceRange range(const Token* t) const { return tokenRange(file_, text_, t); }

    void problem(DiagKind kind, SourceRange where, std::string message,
                 std::optional<DiagnosticNote> note = std::nullopt) {
        result_.problems.push_back({kind, where, std::move(message), std::move(note)});
    }

    // Byte text of a token exactly as in the file.
    std::string spelling(const Token* t) const {
        std::size_t a = t->getStartIndex(), b = t->getStopIndex();
        if (b == static_cast<std::size_t>(-1) || b < a || b >= text_.size())
            return {};
        return text_.substr(a, b - a + 1);
    }

    bool lexicalError(const Token* t) {
        std::string text = spelling(t);
        switch (t->getType()) {
        case L::ERROR_CHAR:
            if (text == "\\")
                problem(DiagKind::InvalidCharacter, range(t),
                        "a `\\` continues a line only when nothing but blanks follows it up to the "
                        "end of the line; remove what follows it or remove the `\\`");
            else if (text == "'")
                problem(DiagKind::BadCharLiteral, range(t),
                        "unterminated character literal: write one character between single "
                        "quotes, like `'#'`");
            else
                problem(DiagKind::InvalidCharacter, range(t),
                        fmt::format("invalid character `{}` in program text; IT code is ASCII and "
                                    "this character starts no token (only comments, strings and "
                                    "native code may hold other characters)",
                                    showByte(text.empty() ? '?' : text[0])));
            return true;
        case L::UNTERMINATED_STRING:
            problem(DiagKind::UnterminatedString, SourceRange::at(range(t).begin),
                    "string literal is not closed on this line: add the closing `\"` (strings "
                    "cannot span lines)");
            return true;
        case L::BAD_CHAR_LIT:
            if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
                problem(DiagKind::BadCharLiteral, range(t),
                        fmt::format("character literal `{}` is not ASCII: a literal holds one ASCII character "
                                    "(a Character holds codes 0 to 255; others come from data files)",
                                    text));
                return true;
            }
            problem(DiagKind::BadCharLiteral, range(t),
                    fmt::format("character literal `{}` must hold exactly one character, like "
                                "`'#'`; use double quotes for a string",
                                text));
            return true;
        case L::UNTERMINATED_NATIVE: {
            std::size_t stop = t->getStopIndex();
            bool dollar = stop + 1 < text_.size() && text_[stop + 1] == '$';
            problem(DiagKind::UnterminatedExtern, SourceRange::at(range(t).begin),
                    dollar ? "native code opened with `${` contains a `$` before its closing "
                             "`}$`; native code may not contain `$`"
                           : "native code opened with `${` is never closed: end it with `}$`");
            return true;
        }
        case L::BAD_NAME:
            problem(DiagKind::InvalidCharacter, SourceRange::at(range(t).begin),
                    fmt::format("names cannot start with `_` (found `{}`): variables start with "
                                "a lower-case letter, classes with an upper-case one",
                                text));
            return true;
        default: return false;
        }
    }

    // Where the file-level code sections (Initialize, Compute) and brace bodies start.
    void trackSections(const Token* t) {
        if (levels_.size() != 1)
            return;
        Level& base = levels_.front();
        switch (t->getType()) {
        case L::K_PROGRAM:
        case L::K_FUNCTION:
            base.ctx = Ctx::Decl;
            inStages_ = false;
            pendingColonCode_ = false;
            pendingBraceCode_ = true;
            break;
        case L::K_INITIALIZE:
        case L::K_COMPUTE:
            base.ctx = Ctx::Decl;
            inStages_ = false;
            pendingBraceCode_ = false;
            pendingColonCode_ = true;
            break;
        case L::K_STAGES:
            base.ctx = Ctx::Decl;
            inStages_ = true;
            pendingBraceCode_ = pendingColonCode_ = false;
            break;
        case L::COLON:
            if (pendingColonCode_ && base.parens == 0) {
                pendingColonCode_ = false;
                base.ctx = Ctx::Code;
                codeStart_ = true;
            }
            break;
        default:
            if (isSectionKeyword(t->getType())) {
                base.ctx = Ctx::Decl;
                inStages_ = pendingBraceCode_ = pendingColonCode_ = false;
            }
        }
    }

    void emitPendingNewline(const Token* next) {
        if (!pendingNewline_)
            return;
        std::unique_ptr<Token> nl = std::move(pendingNewline_);
        std::size_t type = next->getType();
        if (type == Token::EOF || type == L::RBRACE || lastType_ == L::LBRACE || codeStart_ ||
            (levels_.size() == 1 && isSectionKeyword(type)))
            return;
        if ((type == L::K_FOR || type == L::K_WHILE) && lastType_ != L::RBRACE) {
            // `while (c) { ... }` or `for (k in r) { ... }` as in C: no `}` ends the line before.
            problem(DiagKind::MisplacedNewline, SourceRange::at(range(next).begin),
                    type == L::K_WHILE
                        ? std::string("IT has no loop that starts with `while`: write `do { ... } while condition` "
                                      "(the condition is tested after each round), or `do in sequence { ... } for "
                                      "k in [1...n]` for a counted loop")
                        : std::string("IT has no loop that starts with `for`: write `do in sequence { ... } for k in "
                                      "[1...n]` (the body first, then the index and its range), or `do { ... } for "
                                      "i in a` for a parallel loop over an array"));
            return;
        }
        if (type == L::K_FOR || type == L::K_WHILE || type == L::K_ELSE) {
            problem(DiagKind::MisplacedNewline, SourceRange::at(range(next).begin),
                    fmt::format("`{}` must be on the same line as the `}}` before it; join the "
                                "lines or end the previous line with `\\`",
                                next->getText()));
            return;
        }
        emit(std::move(nl));
    }

    void emit(std::unique_ptr<Token> t) {
        lastType_ = t->getType();
        result_.tokens.push_back(std::move(t));
    }

    std::uint32_t indentOf(const Token* t) const {
        std::string_view line = sources_.lineText(file_, static_cast<std::uint32_t>(t->getLine()));
        std::uint32_t n = 0;
        while (n < line.size() && (line[n] == ' ' || line[n] == '\t'))
            ++n;
        return n;
    }
    bool firstOnLine(const Token* t) const {
        return indentOf(t) == static_cast<std::uint32_t>(t->getCharPositionInLine());
    }

    void process(std::unique_ptr<Token> tok) {
        const Token* t = tok.get();
        if (lexicalError(t))
            return;
        if (t->getType() == L::NL) {
            Level& top = levels_.back();
            if (top.parens == 0)
                operators_ = 0;
            if (top.ctx == Ctx::Code && top.parens == 0 && !pendingNewline_)
                pendingNewline_ = std::move(tok);
            return;
        }
        emitPendingNewline(t);
        codeStart_ = false;
        trackSections(t);
        std::size_t type = t->getType();
        if (type == L::LBRACE) {
            Ctx ctx;
            if (levels_.size() == 1) {
                if (inStages_ || pendingBraceCode_)
                    ctx = Ctx::Code;
                else
                    ctx = levels_.back().ctx == Ctx::Code && lastType_ != L::K_EXTERN ? Ctx::Code : Ctx::Decl;
                pendingBraceCode_ = false;
            } else {
                ctx = levels_.back().ctx == Ctx::Code && lastType_ != L::K_EXTERN ? Ctx::Code : Ctx::Decl;
            }
            levels_.push_back({ctx, 0, t});
            checkDepth(t);
        } else if (type == L::RBRACE) {
            if (levels_.size() == 1) {
                problem(DiagKind::UnmatchedClosingBrace, range(t),
                        "this `}` has no matching `{`; remove it or add the `{` it closes");
                return;
            }
            const Token* open = levels_.back().open;
            // A `}` indented less than the line of its `{` suggests that the `{` lost its own `}`.
            if (!suspect_ && firstOnLine(t) && indentOf(t) < indentOf(open))
                suspect_ = open;
            levels_.pop_back();
        } else if (type == L::LPAREN || type == L::LBRACK) {
            ++levels_.back().parens;
            checkDepth(t);
        } else if (type == L::RPAREN || type == L::RBRACK) {
            if (levels_.back().parens > 0)
                --levels_.back().parens;
        }
        countOperator(t);
        emit(std::move(tok));
    }

    // Operators (subscripts, `.`) chain expressions as deep as they are long (`1 + 1 + ... + 1`): like brackets,
    // a statement may hold only so many, so that no later pass runs out of stack.
    void countOperator(const Token* t) {
        const std::size_t type = t->getType();
        if (type == L::SEMI || type == L::LBRACE || type == L::RBRACE) {
            operators_ = 0;
            return;
        }
        if (!isOperator(type) && type != L::BANG)
            return;
        if (++operators_ > kMaxOperators && !tooDeep_) {
            tooDeep_ = true;
            problem(DiagKind::TooDeeplyNested, SourceRange::at(range(t).begin),
                    fmt::format("this statement has more than {} operators, subscripts and `.`; split "
                                "the expression into several statements (`s = a + b` then `s = s + c`)",
                                kMaxOperators));
        }
    }

    void checkDepth(const Token* t) {
        int depth = 0;
        for (const Level& l : levels_)
            depth += l.parens + 1;
        if (depth > kMaxNesting && !tooDeep_) {
            tooDeep_ = true;
            problem(DiagKind::TooDeeplyNested, SourceRange::at(range(t).begin),
                    fmt::format("brackets and braces are nested more than {} deep here; split "
                                "the expression or the code into smaller pieces",
                                kMaxNesting));
        }
    }

    void finish(std::unique_ptr<Token> eof) {
        pendingNewline_.reset();
        if (levels_.size() > 1) {
            const Token* open = suspect_ ? suspect_ : levels_.back().open;
            problem(DiagKind::MissingClosingBrace, SourceRange::at(range(open).begin),
                    fmt::format("this `{{` is never closed: add the matching `}}` (the file ends "
                                "with {} brace{} still open)",
                                levels_.size() - 1, levels_.size() == 2 ? "" : "s"));
        }
        emit(std::move(eof));
    }

    FileId file_;
    const SourceManager& sources_;
    const std::string& text_;
    LayoutResult result_;
    std::vector<Level> levels_;
    std::unique_ptr<Token> pendingNewline_;
    std::size_t lastType_ = 0;
    bool inStages_ = false;
    bool pendingBraceCode_ = false;
    bool pendingColonCode_ = false;
    bool codeStart_ = false;
    bool tooDeep_ = false;
    int operators_ = 0; // in the statement so far (countOperator)
    const Token* suspect_ = nullptr;
};

} // namespace

LayoutResult applyLayout(std::vector<std::unique_ptr<Token>> raw, FileId file, const SourceManager& sources) {
    return Filter(file, sources).run(std::move(raw));
}

} // namespace itc::frontend
