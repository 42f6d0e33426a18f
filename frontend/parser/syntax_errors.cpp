// Parser error recording and wording (see syntax_errors.h).
#include "frontend/parser/syntax_errors.h"

#include "frontend/diagnostics/did_you_mean.h"
#include "frontend/lexer/token_classes.h"

#include "ITLexer.h"
#include "ITParser.h"

#include <Exceptions.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>
#include <set>

namespace itc::frontend {

using antlr4::Token;
using L = itc::antlr::ITLexer;
using P = itc::antlr::ITParser;

// ---------------------------------------------------------------------------------------------
// The strategy: record the first error, then abort.
// ---------------------------------------------------------------------------------------------

void FirstErrorStrategy::record(antlr4::Parser* parser, Token* offending, const antlr4::misc::IntervalSet& expected) {
    if (record_.set)
        return;
    record_.set = true;
    record_.offending = offending ? offending : parser->getCurrentToken();
    record_.expected = expected;
    record_.context = parser->getContext();
}

void FirstErrorStrategy::reportError(antlr4::Parser* parser, const antlr4::RecognitionException& e) {
    antlr4::misc::IntervalSet expected;
    try {
        expected = e.getExpectedTokens();
    } catch (...) {
    }
    if (expected.isEmpty()) {
        try {
            expected = parser->getExpectedTokens();
        } catch (...) {
        }
    }
    record(parser, e.getOffendingToken(), expected);
}

void FirstErrorStrategy::recover(antlr4::Parser*, std::exception_ptr) { throw ParseAbort{}; }

Token* FirstErrorStrategy::recoverInline(antlr4::Parser* parser) {
    antlr4::misc::IntervalSet expected;
    try {
        expected = parser->getExpectedTokens();
    } catch (...) {
    }
    record(parser, parser->getCurrentToken(), expected);
    throw ParseAbort{};
}

void FirstErrorStrategy::reportUnwantedToken(antlr4::Parser* parser) { recoverInline(parser); }

void FirstErrorStrategy::reportMissingToken(antlr4::Parser* parser) { recoverInline(parser); }

// ---------------------------------------------------------------------------------------------
// Wording
// ---------------------------------------------------------------------------------------------

namespace {

bool startsExpression(std::size_t t) {
    switch (t) {
    case L::INTEGER:
    case L::REAL:
    case L::CHAR_LIT:
    case L::STRING:
    case L::K_TRUE_UC:
    case L::K_FALSE_UC:
    case L::K_TRUE:
    case L::K_FALSE:
    case L::K_LPUID:
    case L::K_PARTITION_LC:
    case L::K_REDUCE:
    case L::K_EXECUTE:
    case L::K_NEW:
    case L::VAR_NAME:
    case L::TYPE_NAME:
    case L::SPACE_ID:
    case L::LPAREN:
    case L::LBRACK:
    case L::MINUS:
    case L::BANG: return true;
    default: return false;
    }
}

// Tokens that may continue an expression but never start a statement.
bool onlyContinues(std::size_t t) {
    return (isOperator(t) && t != L::MINUS && t != L::LBRACK) || t == L::K_STEP || t == L::ELLIPSIS;
}

bool isReservedWord(const antlr4::dfa::Vocabulary& v, std::size_t t) {
    std::string lit = v.getLiteralName(t);
    return lit.size() > 2 && (std::isalpha(static_cast<unsigned char>(lit[1])) || lit[1] == '@');
}

std::string clip(std::string s) {
    if (s.size() > 24)
        s = s.substr(0, 21) + "...";
    return s;
}

std::string describeFound(const Token* t) {
    switch (t->getType()) {
    case Token::EOF: return "the end of the file";
    case L::NL: return "the end of the line";
    case L::STRING: return fmt::format("the string {}", clip(t->getText()));
    case L::NATIVE_CODE: return "native code `${ ... }$`";
    default: return fmt::format("`{}`", clip(t->getText()));
    }
}

std::string describeExpected(std::size_t t, const antlr4::dfa::Vocabulary& v) {
    switch (t) {
    case Token::EOF: return "the end of the file";
    case L::NL: return "a newline";
    case L::VAR_NAME: return "a name";
    case L::TYPE_NAME: return "a class name";
    case L::SPACE_ID: return "a space letter";
    case L::INTEGER: return "an integer";
    case L::REAL: return "a real number";
    case L::STRING: return "a string";
    case L::CHAR_LIT: return "a character literal";
    case L::DIMENSIONALITY: return "a dimensionality like `2d`";
    case L::NATIVE_CODE: return "native code `${ ... }$`";
    case L::INCLUDES:
    case L::K_INCLUDES: return "`@Includes { ... }`";
    case L::LIBRARIES:
    case L::K_LIBRARIES: return "`@Libraries { ... }`";
    default: {
        std::string lit = v.getLiteralName(t);
        if (lit.size() >= 2 && lit.front() == '\'')
            lit = lit.substr(1, lit.size() - 2);
        return "`" + lit + "`";
    }
    }
}

std::vector<std::string> expectedItems(const antlr4::misc::IntervalSet& set, const antlr4::dfa::Vocabulary& v) {
    std::vector<std::size_t> types;
    for (ssize_t t : set.toList())
        if (t >= 0 || t == static_cast<ssize_t>(Token::EOF))
            types.push_back(static_cast<std::size_t>(t));
    int exprStarts = 0, operators = 0;
    bool names = false;
    for (std::size_t t : types) {
        exprStarts += startsExpression(t);
        operators += isOperator(t);
        names = names || t == L::VAR_NAME;
    }
    bool expression = exprStarts >= 5;
    bool dropOperators = operators >= 3;
    std::vector<std::string> items;
    if (expression)
        items.push_back("an expression");
    for (std::size_t t : types) {
        if (expression && startsExpression(t))
            continue;
        if (dropOperators && isOperator(t))
            continue;
        if (names && (t == L::TYPE_NAME || t == L::SPACE_ID))
            continue;
        std::string d = describeExpected(t, v);
        if (std::find(items.begin(), items.end(), d) == items.end())
            items.push_back(d);
    }
    return items;
}

std::string nameOf(P::AnyNameContext* n) { return n ? n->getText() : std::string(); }

constexpr const char* kTopLevel = "at the top level of the program";

// Where the parser was, in words: the innermost construct worth naming.
std::string describeContext(antlr4::ParserRuleContext* ctx) {
    for (auto* c = ctx; c; c = dynamic_cast<antlr4::ParserRuleContext*>(c->parent)) {
        if (auto* s = dynamic_cast<P::StageDefContext*>(c))
            return nameOf(s->anyName()).empty() ? "in a stage definition"
                                                : fmt::format("in stage `{}`", nameOf(s->anyName()));
        if (dynamic_cast<P::ExternBlockContext*>(c))
            return "in an `@Extern` block";
        if (dynamic_cast<P::ExecuteCallContext*>(c))
            return "in `execute(...)`";
        if (dynamic_cast<P::NewExprContext*>(c))
            return "in a `new` expression";
        if (dynamic_cast<P::IfStmtContext*>(c))
            return "in an `if` statement";
        if (dynamic_cast<P::DoStmtContext*>(c))
            return "in a `do` loop";
        if (dynamic_cast<P::TypeSpecContext*>(c) || dynamic_cast<P::StaticTypeContext*>(c))
            return "in a type";
        if (dynamic_cast<P::SubpartitionConfigContext*>(c))
            return "in a Sub-partition configuration";
        if (auto* s = dynamic_cast<P::SpaceConfigContext*>(c))
            return nameOf(s->anyName()).empty() ? "in a Space configuration"
                                                : fmt::format("in the configuration of Space {}", nameOf(s->anyName()));
        if (dynamic_cast<P::DefineSectionContext*>(c))
            return "in the Define section";
        if (dynamic_cast<P::EnvironmentSectionContext*>(c))
            return "in the Environment section";
        if (dynamic_cast<P::InitializeSectionContext*>(c))
            return "in the Initialize section";
        if (dynamic_cast<P::StagesSectionContext*>(c))
            return "in the Stages section";
        if (dynamic_cast<P::ComputationSectionContext*>(c))
            return "in the Computation section";
        if (dynamic_cast<P::PartitionSectionContext*>(c))
            return "in the Partition section";
        if (dynamic_cast<P::TaskDefContext*>(c))
            return "in a task";
        if (dynamic_cast<P::ClassDefContext*>(c))
            return "in a class definition";
        if (auto* f = dynamic_cast<P::FunctionDefContext*>(c)) // no name yet when it is the error
            return nameOf(f->anyName()).empty() ? "in a function definition"
                                                : fmt::format("in function `{}`", nameOf(f->anyName()));
        if (dynamic_cast<P::CoordinatorContext*>(c))
            return "in the coordinator `Program`";
    }
    return kTopLevel;
}

// The section of a task whose header is the last one before token `index` ("in the Stages
// section"), if a task's section header comes before it after the last top-level construct.
std::optional<std::string> sectionBefore(const std::vector<Token*>& tokens, std::size_t index) {
    for (std::size_t i = index; i-- > 0;) {
        switch (tokens[i]->getType()) {
        case L::K_DEFINE: return "in the Define section";
        case L::K_ENVIRONMENT: return "in the Environment section";
        case L::K_INITIALIZE: return "in the Initialize section";
        case L::K_STAGES: return "in the Stages section";
        case L::K_COMPUTATION: return "in the Computation section";
        case L::K_PARTITION: return "in the Partition section";
        case L::K_CLASS: return "in a class definition"; // (the colon form's fields)
        case L::K_TASK:
        case L::K_PROGRAM:
        case L::K_FUNCTION: return std::nullopt;
        default: break;
        }
    }
    return std::nullopt;
}

struct OpenBracket {
    const Token* token;
    const Token* before;  // the token before it (the callee of a call), or null
    const Token* before2; // and the one before that (`Function` of a definition), or null
};

// The innermost `(` or `[` still open at token index `upTo` (brackets do not cross braces).
std::optional<OpenBracket> openBracketBefore(const std::vector<Token*>& tokens, std::size_t upTo) {
    std::vector<std::vector<OpenBracket>> levels(1);
    for (std::size_t i = 0; i < upTo && i < tokens.size(); ++i) {
        std::size_t t = tokens[i]->getType();
        if (t == L::LBRACE) {
            levels.emplace_back();
        } else if (t == L::RBRACE) {
            if (levels.size() > 1)
                levels.pop_back();
        } else if (t == L::LPAREN || t == L::LBRACK) {
            levels.back().push_back({tokens[i], i > 0 ? tokens[i - 1] : nullptr, i > 1 ? tokens[i - 2] : nullptr});
        } else if ((t == L::RPAREN || t == L::RBRACK) && !levels.back().empty()) {
            levels.back().pop_back();
        }
    }
    if (levels.back().empty())
        return std::nullopt;
    return levels.back().back();
}

std::string describeOpener(const OpenBracket& open, antlr4::ParserRuleContext* ctx) {
    if (open.token->getType() == L::LPAREN && open.before) {
        std::size_t b = open.before->getType();
        bool name = b == L::VAR_NAME || b == L::TYPE_NAME || b == L::SPACE_ID;
        if (name && open.before2 && open.before2->getType() == L::K_FUNCTION)
            return fmt::format("the parameter list of function `{}`", open.before->getText());
        if (name && (dynamic_cast<P::StageDefContext*>(ctx) || (ctx && dynamic_cast<P::StageDefContext*>(ctx->parent))))
            return fmt::format("the parameter list of stage `{}`", open.before->getText());
        if (name)
            return fmt::format("the call to `{}`", open.before->getText());
        if (b == L::K_EXECUTE || b == L::K_REDUCE)
            return fmt::format("`{}(`", open.before->getText());
        if (b == L::K_IF)
            return "the condition of `if`";
    }
    if (open.token->getType() == L::LBRACK && open.before &&
        (open.before->getType() == L::VAR_NAME || open.before->getType() == L::RBRACK))
        return "the subscript";
    return fmt::format("the `{}` at line {}", open.token->getText(), open.token->getLine());
}

// The braceless code body (`Initialize` or `Compute`) that token `index` lies in, if any.
const Token* bracelessBody(const std::vector<Token*>& tokens, std::size_t index) {
    int depth = 0;
    for (std::size_t i = std::min(index, tokens.size()); i-- > 0;) {
        std::size_t t = tokens[i]->getType();
        if (t == L::RBRACE)
            ++depth;
        else if (t == L::LBRACE)
            --depth;
        else if (depth <= 0 && (t == L::K_INITIALIZE || t == L::K_COMPUTE))
            return tokens[i];
        else if (depth <= 0 && t >= L::K_PROGRAM && t <= L::K_COMPUTE)
            return nullptr;
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Near misses of reserved words ("did you mean")
// ---------------------------------------------------------------------------------------------

bool isWordToken(std::size_t t, const antlr4::dfa::Vocabulary& v) {
    return t == L::VAR_NAME || t == L::TYPE_NAME || t == L::SPACE_ID || isReservedWord(v, t);
}

// A reserved word's spelling (its literal name without the quotes).
std::string spelling(std::size_t t, const antlr4::dfa::Vocabulary& v) {
    std::string lit = v.getLiteralName(t);
    return lit.size() >= 2 && lit.front() == '\'' ? lit.substr(1, lit.size() - 2) : lit;
}

// The reserved words for which `keep` holds, spelled out.
template <typename Keep> std::vector<std::string> reservedWords(const antlr4::dfa::Vocabulary& v, Keep keep) {
    std::vector<std::string> words;
    for (std::size_t t = 1; t <= v.getMaxTokenType(); ++t)
        if (isReservedWord(v, t) && keep(t))
            words.push_back(spelling(t, v));
    return words;
}

// The words that begin a line: the program's top-level words and section names (token types
// K_PROGRAM ... K_COMPUTE, see grammar/IT.g4) and the words that start a statement or a block of
// the flow or the Partition section.
bool startsALine(std::size_t t) {
    if (t >= L::K_PROGRAM && t <= L::K_COMPUTE)
        return true;
    switch (t) {
    case L::K_SPACE:
    case L::K_REPEAT:
    case L::K_WHERE:
    case L::K_IF_FLOW:
    case L::K_EPOCH:
    case L::K_SUB_PARTITION_UC:
    case L::K_DO:
    case L::K_FOR:
    case L::K_WHILE:
    case L::K_IF:
    case L::K_ELSE:
    case L::K_RETURN: return true;
    default: return false;
    }
}

struct Misspelling {
    SourceRange where;
    std::string word;        // as written
    std::string intended;    // the reserved word it is a near miss of
    bool startsLine = false; // the word begins a line (the parser's context may be misleading)
};

// A reserved word misspelled near the offending token `index`, the likely cause of the error:
//  * a hyphenated word (`double-precisoin`), which the lexer splits at its `-` unless it is
//    spelled exactly, when the offending token or the one before lies inside it;
//  * a name where the grammar expected one of a few reserved words (`fro` for `for`);
//  * a name that starts the offending line and is directly followed by the offending token
//    (`doo {`), or, as section headers go, a capitalized name followed by `:` or `(` that starts
//    the offending line or the line before (`Stagse:` ... `Computaton:`).
std::optional<Misspelling> misspelledReservedWord(const SyntaxErrorRecord& error, const std::vector<Token*>& tokens,
                                                  const antlr4::dfa::Vocabulary& v, FileId file,
                                                  const std::string& text, std::size_t index) {
    auto adjacent = [&](std::size_t i) { // tokens i and i + 1 touch, without blanks between
        return i + 1 < tokens.size() && tokens[i]->getStopIndex() + 1 == tokens[i + 1]->getStartIndex();
    };
    auto rangeOf = [&](std::size_t first, std::size_t last) {
        return SourceRange{tokenRange(file, text, tokens[first]).begin, tokenRange(file, text, tokens[last]).end};
    };
    // 1. Hyphenated words.
    for (std::size_t at : {index, index - 1}) {
        if (at >= tokens.size())
            continue;
        std::size_t type = tokens[at]->getType();
        if (type != L::MINUS && !isWordToken(type, v))
            continue;
        std::size_t first = at, last = at;
        auto partOfWord = [&](std::size_t i) {
            return tokens[i]->getType() == L::MINUS || isWordToken(tokens[i]->getType(), v);
        };
        while (first > 0 && adjacent(first - 1) && partOfWord(first - 1))
            --first;
        while (adjacent(last) && partOfWord(last + 1))
            ++last;
        std::string word;
        bool hyphen = false;
        for (std::size_t i = first; i <= last; ++i) {
            word += tokens[i]->getText();
            hyphen = hyphen || tokens[i]->getType() == L::MINUS;
        }
        if (!hyphen || first == last)
            continue;
        std::string near = nearestName(
            word, reservedWords(v, [&](std::size_t t) { return spelling(t, v).find('-') != std::string::npos; }));
        if (!near.empty())
            return Misspelling{rangeOf(first, last), word, near};
    }
    const Token* offending = tokens[index];
    // 2. A name where reserved words were expected.
    if (offending->getType() == L::VAR_NAME || offending->getType() == L::TYPE_NAME) {
        std::vector<std::string> expected;
        for (ssize_t t : error.expected.toList())
            if (t > 0 && isReservedWord(v, static_cast<std::size_t>(t)))
                expected.push_back(spelling(static_cast<std::size_t>(t), v));
        std::string near = nearestName(offending->getText(), expected);
        if (!near.empty())
            return Misspelling{tokenRange(file, text, offending), offending->getText(), near};
    }
    // 3. The first name of the offending line, or a section header on the line before. Lines
    // are told apart by line numbers: the layout filter drops the newlines it finds insignificant.
    auto lineStart = [&](std::size_t i) {
        while (i > 0 && tokens[i - 1]->getLine() == tokens[i]->getLine())
            --i;
        while (i < index && tokens[i]->getType() == L::NL)
            ++i;
        return i;
    };
    std::size_t here = lineStart(index);
    std::vector<std::size_t> starts = {here};
    std::size_t before = here;
    while (before > 0 && tokens[before - 1]->getType() == L::NL)
        --before;
    if (before > 0)
        starts.push_back(lineStart(before - 1));
    std::vector<std::string> lineWords = reservedWords(v, startsALine);
    // A section header in lower case (`define:`, `partition (p):`): the word is a name or the
    // keyword `partition`, so no near miss of a capitalized word is looked for.
    auto inLowerCase = [&](const std::string& w) -> std::string {
        for (const std::string& s : lineWords)
            if (s != w && s.size() == w.size() && std::equal(s.begin(), s.end(), w.begin(), [](char a, char b) {
                    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
                }))
                return s;
        return "";
    };
    for (std::size_t at : starts) {
        const Token* word = tokens[at];
        std::size_t type = word->getType();
        if (at + 1 < tokens.size() && (type == L::VAR_NAME || type == L::K_PARTITION_LC) &&
            (tokens[at + 1]->getType() == L::COLON || tokens[at + 1]->getType() == L::LPAREN))
            if (std::string section = inLowerCase(word->getText()); !section.empty())
                return Misspelling{tokenRange(file, text, word), word->getText(), section, true};
        if (at + 1 >= tokens.size() || (type != L::VAR_NAME && type != L::TYPE_NAME))
            continue;
        std::size_t next = tokens[at + 1]->getType();
        bool header = type == L::TYPE_NAME && (next == L::COLON || next == L::LPAREN);
        if (!header && at + 1 != index)
            continue;
        std::string near = nearestName(word->getText(), lineWords);
        if (!near.empty())
            return Misspelling{tokenRange(file, text, word), word->getText(), near, true};
    }
    // 4. A name ending the line before the offending token, after other words of its line
    // (`result: Real double-precision Reducton`): the parser took it for the start of the next
    // entry, and the error comes only at the next line's first word.
    std::size_t last = index;
    while (last > 0 && tokens[last - 1]->getType() == L::NL)
        --last;
    if (last > 1 && last < index + 1) {
        const Token* word = tokens[last - 1];
        const bool trailing = word->getLine() < offending->getLine() && tokens[last - 2]->getLine() == word->getLine();
        if (trailing && (word->getType() == L::VAR_NAME || word->getType() == L::TYPE_NAME)) {
            std::string near = nearestName(word->getText(), reservedWords(v, [](std::size_t) { return true; }));
            if (!near.empty())
                return Misspelling{tokenRange(file, text, word), word->getText(), near};
        }
    }
    return std::nullopt;
}

} // namespace

// Forms of other languages IT does not have, told by the token before the offending one written
// against it: `1e5`, `0x10`, `/* ... */`, `x += 1`, `k++`, `:=`, `<>`; and the words `elif` and
// `not`.
std::optional<std::string> otherLanguageForm(const std::vector<Token*>& tokens, std::size_t index) {
    if (index >= tokens.size())
        return std::nullopt;
    const Token* t = tokens[index];
    if (t->getType() == L::SLASH && index + 1 < tokens.size() && tokens[index + 1]->getType() == L::STAR &&
        t->getStopIndex() + 1 == tokens[index + 1]->getStartIndex())
        return std::string("IT has no block comments (`/* ... */`); start each comment line with `//`");
    if (t->getType() == L::COLON && index + 1 < tokens.size() && tokens[index + 1]->getType() == L::ASSIGN &&
        t->getStopIndex() + 1 == tokens[index + 1]->getStartIndex())
        return std::string("IT assigns with `=` (`x = e`), not `:=`");
    if (index == 0)
        return std::nullopt;
    const Token* before = tokens[index - 1];
    if (t->getType() == L::ELLIPSIS && index >= 2 && tokens[index - 2]->getType() == L::K_IN)
        return fmt::format("a range is written in brackets, `[{}...{}]`", before->getText(),
                           index + 1 < tokens.size() ? tokens[index + 1]->getText() : std::string("n"));
    // Words of other languages, wherever the parser stops on or after them.
    if (t->getText() == "elif" || before->getText() == "elif")
        return std::string("IT has no `elif`; write `else if (...) { ... }`");
    if (before->getType() == L::VAR_NAME && before->getText() == "not")
        return std::string("IT writes `not` as `!` (`!done`, `!(a < b)`)");
    if (before->getStopIndex() + 1 != t->getStartIndex())
        return std::nullopt;
    const std::string word = t->getText();
    if ((t->getType() == L::PLUS || t->getType() == L::MINUS) && before->getType() == t->getType())
        return fmt::format("IT has no `{0}{0}`; write `x = x {0} 1`", t->getText());
    if (t->getType() == L::ASSIGN && before->getType() == L::COLON)
        return std::string("IT assigns with `=` (`x = e`), not `:=`");
    if (t->getType() == L::GT && before->getType() == L::LT)
        return std::string("IT writes `<>` as `!=`");
    if (t->getType() == L::DOT && before->getType() == L::DOT)
        return std::string("a range or section is written with three dots, `[1...10]`, not two");
    const std::size_t prev = before->getType();
    const bool number = prev == L::INTEGER || prev == L::REAL;
    if (number && t->getType() == L::VAR_NAME && (word[0] == 'e' || word[0] == 'E') &&
        word.find_first_not_of("0123456789", 1) == std::string::npos)
        return fmt::format("a number has no exponent part in IT (`{}{}`); write it out, like `100000.0` for `1e5`",
                           before->getText(), word);
    if (prev == L::INTEGER && before->getText() == "0" && t->getType() == L::VAR_NAME &&
        (word[0] == 'x' || word[0] == 'X' || word[0] == 'b' || word[0] == 'B'))
        return fmt::format("IT has no hexadecimal or binary literals (`0{}`); write the number in decimal", word);
    if (prev == L::SLASH && t->getType() == L::STAR)
        return std::string("IT has no block comments (`/* ... */`); start each comment line with `//`");
    if (t->getType() == L::ASSIGN &&
        (prev == L::PLUS || prev == L::MINUS || prev == L::STAR || prev == L::SLASH || prev == L::PERCENT))
        return fmt::format("IT has no `{0}=`; write the operation out, like `x = x {0} e`", before->getText());
    return std::nullopt;
}

// Slips whose place says what was meant: arguments of `execute` separated by `,` or under an
// unknown label, an assignment in the Computation section, a loop without its index, `padding`
// twice, `replicated(n)`.
std::optional<std::string> commonSlip(const std::vector<Token*>& tokens, std::size_t index,
                                      const std::string& context) {
    if (index >= tokens.size())
        return std::nullopt;
    const std::size_t type = tokens[index]->getType();
    const std::size_t prev = index > 0 ? tokens[index - 1]->getType() : 0;
    const auto open = openBracketBefore(tokens, index);
    const bool inExecute = open && open->before && open->before->getType() == L::K_EXECUTE;
    if (inExecute && type == L::COLON && index >= 2 && tokens[index - 2]->getType() == L::COMMA)
        return std::string("separate the arguments of `execute` with `;`, like `execute(task: \"T\"; environment: "
                           "env; partition: p)` (`,` separates the values of one label)");
    if (inExecute && index + 1 < tokens.size() && tokens[index + 1]->getType() == L::COLON &&
        (prev == L::SEMI || prev == L::LPAREN)) {
        const std::string label = tokens[index]->getText();
        const std::string near = nearestName(label, {"task", "environment", "initialize", "partition"});
        return fmt::format("`{}:` is no label of `execute` (the labels are `task:`, `environment:`, "
                           "`initialize:` and `partition:`){}",
                           label, near.empty() ? "" : "; did you mean `" + near + ":`?");
    }
    if (type == L::ASSIGN && context == "in the Computation section")
        return std::string("the Computation section holds stage calls and `Space`, `Repeat`, `Where`, `If` and "
                           "`Epoch` blocks, not assignments; assign in a stage or in Initialize");
    if (type == L::K_IN && prev == L::K_FOR)
        return std::string("the loop index is missing before `in`: write `for i in a`");
    if (type == L::K_PADDING) {
        for (std::size_t i = index; i-- > 0 && tokens[i]->getLine() == tokens[index]->getLine();)
            if (tokens[i]->getType() == L::K_PADDING)
                return std::string("`padding` is given twice for these arrays; give it once, with one value per "
                                   "dimension the instruction splits");
    }
    if (type == L::LPAREN && prev == L::K_REPLICATED)
        return std::string("`replicated` takes no arguments: every LPU holds the whole array (write `x: replicated`)");
    if (type == L::LPAREN && prev == L::VAR_NAME && index >= 2) {
        const std::string near = nearestName(tokens[index - 1]->getText(), {"padding"});
        if (!near.empty() && tokens[index - 1]->getText() != near)
            return fmt::format("`{}(` here: did you mean `{}(`?", tokens[index - 1]->getText(), near);
    }
    return std::nullopt;
}

LexProblem describeSyntaxError(const SyntaxErrorRecord& error, const std::vector<Token*>& tokens,
                               const antlr4::dfa::Vocabulary& vocabulary, FileId file, const std::string& text) {
    const Token* t = error.offending;
    SourceRange where = SourceRange::at(tokenRange(file, text, t).begin);
    if (t->getType() != Token::EOF && t->getType() != L::NL)
        where = tokenRange(file, text, t);
    std::vector<std::string> items = expectedItems(error.expected, vocabulary);
    std::string expected = items.empty() || items.size() > 6 ? "" : joinOr(items);
    std::string context = describeContext(error.context);
    std::string found = describeFound(t);
    std::size_t index = t->getTokenIndex();
    std::size_t type = t->getType();

    // `repeat`, `where`, `if`, `epoch` in the flow: its keywords are capitalised, unlike the
    // statements of code bodies.
    if (context == "in the Computation section") {
        static const std::map<std::string, std::string> flowKeywords{
            {"if", "If"}, {"repeat", "Repeat"}, {"where", "Where"}, {"epoch", "Epoch"}};
        // The word starts a statement: it follows `{` or a newline.
        auto startsStatement = [&](std::size_t i) {
            return i == 0 || tokens[i - 1]->getType() == L::LBRACE || tokens[i - 1]->getType() == L::NL;
        };
        const Token* before = index > 0 && index - 1 < tokens.size() ? tokens[index - 1] : nullptr;
        for (const Token* w : std::initializer_list<const Token*>{t, before})
            if (auto k = w ? flowKeywords.find(w->getText()) : flowKeywords.end();
                k != flowKeywords.end() && startsStatement(w->getTokenIndex()))
                return {DiagKind::UnexpectedToken, tokenRange(file, text, w),
                        fmt::format("the Computation section writes `{}` with a capital: `{}`", k->first, k->second),
                        std::nullopt};
    }

    if (type == Token::EOF) {
        return {DiagKind::UnexpectedEndOfFile, where,
                expected.empty() ? fmt::format("unexpected end of file {}: the construct is incomplete", context)
                                 : fmt::format("unexpected end of file {}: expected {}", context, expected),
                std::nullopt};
    }

    if (auto other = otherLanguageForm(tokens, index))
        return {DiagKind::UnexpectedToken, where, *other, std::nullopt};
    if (auto slip = commonSlip(tokens, index, context))
        return {DiagKind::UnexpectedToken, where, *slip, std::nullopt};

    // A type of another language (`x: int`), before it is taken for a misspelled reserved word.
    if (index < tokens.size() && type == L::VAR_NAME && context.find("type") != std::string::npos)
        if (std::string meant = itTypeFor(t->getText()); !meant.empty())
            return {DiagKind::UnexpectedToken, where,
                    fmt::format("`{}` is not an IT type; write `{}`", t->getText(), meant), std::nullopt};

    if (index < tokens.size())
        if (auto miss = misspelledReservedWord(error, tokens, vocabulary, file, text, index))
            return {DiagKind::MisspelledKeyword, miss->where,
                    fmt::format("unexpected `{}` {}; did you mean the reserved word `{}`?", miss->word,
                                miss->startsLine ? "at the start of a line" : context, miss->intended),
                    std::nullopt};

    // `a, b:` with the type left out: the next line's first word is where the parser noticed.
    if (index < tokens.size() && index > 0 && context.find("type") != std::string::npos &&
        tokens[index - 1]->getType() == L::COLON && tokens[index - 1]->getLine() < t->getLine())
        return {DiagKind::UnexpectedToken, tokenRange(file, text, tokens[index - 1]),
                "the type is missing after this `:` (for example `Integer`, `Real double-precision` or "
                "`2d Array of Real single-precision`)",
                std::nullopt};

    // `Reel double-precision`: a precision after another name than `Real` (taken for a class).
    if (index < tokens.size() && index > 0 && (type == L::K_DOUBLE || type == L::K_SINGLE) &&
        tokens[index - 1]->getType() == L::TYPE_NAME)
        return {DiagKind::UnexpectedToken, tokenRange(file, text, tokens[index - 1]),
                fmt::format("a precision follows only `Real`: write `Real {}` instead of `{} {}`", t->getText(),
                            tokens[index - 1]->getText(), t->getText()),
                std::nullopt};

    // `Real double` / `Real double precision` for `Real double-precision`: the word may be the
    // token the parser stopped on, or lie before the line's end where it stopped.
    {
        std::size_t w = index;
        while (w > 0 && w < tokens.size() + 1 &&
               (w == tokens.size() || tokens[w]->getType() == L::NL || tokens[w]->getType() == Token::EOF))
            --w;
        for (std::size_t k : {w, w > 0 ? w - 1 : w}) {
            if (k >= tokens.size())
                continue;
            const std::string word = tokens[k]->getText();
            const bool afterReal = k > 0 && tokens[k - 1]->getType() == L::K_REAL;
            for (const std::string precision : {"double", "single"})
                if (afterReal && word.starts_with(precision) && word != precision + "-precision")
                    return {DiagKind::UnexpectedToken, tokenRange(file, text, tokens[k]),
                            fmt::format("write the precision as `{0}-precision` (`Real {0}-precision`)", precision),
                            std::nullopt};
        }
    }

    // A reserved word where a name was meant, where the parser did not expect a name: `step(v) {`
    // as a stage, `step = 3` as a variable, `step, v: ...` or `step: Integer` first on a Define
    // line (after the header's `:` the token stream holds no newline), `twice(at)` as a
    // parameter. The parser has left the section by then, so the place is the section whose
    // header comes last before the word.
    auto typeAt = [&](std::size_t i) { return i < tokens.size() ? tokens[i]->getType() : std::size_t(L::EOF); };
    const std::size_t next = typeAt(index + 1), before = index > 0 ? typeAt(index - 1) : std::size_t(L::NL);
    const bool paramLike = (before == L::LPAREN || before == L::COMMA) && (next == L::RPAREN || next == L::COMMA);
    // (`at: Integer` after another declaration, whose type ends the line: in a Define or class
    // section the stream holds no newline there.)
    const bool nameLike = paramLike || next == L::LPAREN || next == L::ASSIGN || next == L::COLON ||
                          (next == L::COMMA && (before == L::NL || before == L::COLON));
    const bool reserved = isReservedWord(vocabulary, type) && std::islower(static_cast<unsigned char>(t->getText()[0]));
    auto reservedAsName = [&]() -> LexProblem {
        return {DiagKind::UnexpectedToken, where,
                fmt::format("`{}` is a reserved word and cannot be used as a name {}; choose another name",
                            t->getText(),
                            context == kTopLevel ? sectionBefore(tokens, index).value_or(context) : context),
                std::nullopt};
    };
    // Words in a place of their own kind, not names: `padding` after a comma or before its
    // partition function, or in an un-partitioned space; C's `for (i = 0; ...)`.
    if (type == L::K_PADDING && next == L::LPAREN)
        return {DiagKind::UnexpectedToken, where,
                "`padding(...)` belongs right after the partition function of its dimension, without a comma "
                "(`block_count(p) padding(1)`); `replicated`, stride() and un-partitioned spaces take none",
                std::nullopt};
    if (type == L::K_FOR && next == L::LPAREN)
        return {DiagKind::UnexpectedToken, where,
                "IT has no C-style `for (...; ...; ...)`: loop over an array's indices with `do { ... } for i in a`, "
                "or over a range one index after the other with `do in sequence { ... } for i in [1...n]`",
                std::nullopt};
    if (reserved && paramLike) // before the bracket check, which would ask for the `)`
        return reservedAsName();

    if (auto open = openBracketBefore(tokens, index)) {
        bool paren = open->token->getType() == L::LPAREN;
        std::size_t closer = paren ? L::RPAREN : L::RBRACK;
        if (error.expected.contains(static_cast<size_t>(closer))) {
            bool comma = error.expected.contains(static_cast<size_t>(L::COMMA));
            std::string what = paren ? (comma ? "`,` or `)`" : "`)`") : (comma ? "`,` or `]`" : "`]`");
            LexProblem p{
                paren ? DiagKind::MissingClosingParen : DiagKind::MissingClosingBracket, where,
                fmt::format("expected {} to close {}, found {}", what, describeOpener(*open, error.context), found),
                std::nullopt};
            if (open->token->getLine() != t->getLine())
                p.note = DiagnosticNote{tokenRange(file, text, open->token),
                                        fmt::format("the `{}` opened here", open->token->getText())};
            return p;
        }
    }

    // A `Sub-partition` block after its space's closing brace instead of inside it.
    if (type == L::K_SUB_PARTITION_UC && index > 0 && tokens[index - 1]->getType() == L::RBRACE) {
        return {DiagKind::UnexpectedToken, where,
                "a `Sub-partition` block goes inside the braces of the space whose parts it "
                "divides: `Space A <1d> { x: block_count(p)  Sub-partition <1d> <unordered> { x: "
                "block_size(s) } }`",
                std::nullopt};
    }

    // A class named by one letter, made with `new P(...)` or used as a type: the lexer reads a
    // space name there.
    const bool madeByNew = index > 0 && tokens[index - 1]->getType() == L::K_NEW;
    if (type == L::SPACE_ID && (madeByNew || context == "in a type")) {
        return {DiagKind::ClassNameTooShort, where,
                fmt::format("{0}`{1}`: a name of one upper-case letter names a space, not a class; class names "
                            "have at least two characters (rename class `{1}`)",
                            madeByNew ? "`new` of " : "type ", t->getText()),
                std::nullopt};
    }

    // `new Tag` without its argument list: the most likely slip in a `new` expression.
    if (index >= 2 && type != L::LPAREN && tokens[index - 2]->getType() == L::K_NEW) {
        const std::size_t made = tokens[index - 1]->getType();
        if (made == L::TYPE_NAME || made == L::K_RANGE || made == L::K_TASK_ENVIRONMENT) {
            const std::string name = tokens[index - 1]->getText();
            return {DiagKind::UnexpectedToken, where,
                    fmt::format("expected `(` after `new {0}`, found {1}: an object is made with `new {0}()`, "
                                "or `new {0}(field: value, ...)` to set fields",
                                name, found),
                    std::nullopt};
        }
    }

    // A bare `return`, as in C: IT's `return` always gives a value, and stages return nothing.
    if (index > 0 && index - 1 < tokens.size()) {
        std::size_t before = index - 1;
        while (before > 0 && tokens[before]->getType() == L::NL)
            --before;
        if (tokens[before]->getType() == L::K_RETURN) {
            const bool stage = context.find("stage") != std::string::npos;
            return {DiagKind::UnexpectedToken, tokenRange(file, text, tokens[before]),
                    stage ? fmt::format("`return` without a value {}: a stage returns nothing; it gives its "
                                        "results through its parameters (`result = value`)",
                                        context)
                          : fmt::format("`return` without a value {}: IT's `return` always gives the "
                                        "function's result (`return x`)",
                                        context),
                    std::nullopt};
        }
    }

    if (type == L::NL) {
        return {DiagKind::MisplacedNewline, where,
                expected.empty() ? fmt::format("unexpected end of line {}; a statement continues on the next "
                                               "line only after a `\\`",
                                               context)
                                 : fmt::format("unexpected end of line {}: expected {}; a statement continues "
                                               "on the next line only after a `\\`",
                                               context, expected),
                std::nullopt};
    }

    if (index > 0 && index - 1 < tokens.size() && tokens[index - 1]->getType() == L::NL && onlyContinues(type)) {
        return {DiagKind::MisplacedNewline, where,
                fmt::format("a statement cannot start with `{}`; to continue the previous line "
                            "there, end it with `\\`",
                            t->getText()),
                std::nullopt};
    }

    if (error.expected.contains(static_cast<size_t>(L::VAR_NAME)) && isReservedWord(vocabulary, type) &&
        std::islower(static_cast<unsigned char>(t->getText()[0]))) {
        return {DiagKind::UnexpectedToken, where,
                fmt::format("`{}` is a reserved word and cannot be used as a name {}; choose "
                            "another name",
                            t->getText(), context),
                std::nullopt};
    }

    if (reserved && nameLike)
        return reservedAsName();

    // `Space Root {` in the flow, `Space Root <...>` in the Partition section (§8.2, §9.2).
    if (type == L::K_ROOT && index > 0 && index - 1 < tokens.size() && tokens[index - 1]->getType() == L::K_SPACE)
        return {DiagKind::UnexpectedToken, where,
                context == "in the Computation section"
                    ? std::string("`Root` cannot be entered with a `Space` block: the flow already "
                                  "starts in Root; name a declared space, like `Space A {`, "
                                  "or pass `Space Root: v` as a reduction argument")
                    : fmt::format("`Root` is the implicit top space and cannot be named here {}; "
                                  "spaces are named by one capital letter, like `Space A`",
                                  context),
                std::nullopt};

    // A statement of a braceless body (Initialize, Compute) followed by more on its line.
    if (index > 0 && index - 1 < tokens.size() && tokens[index - 1]->getType() != L::NL &&
        tokens[index - 1]->getLine() == t->getLine() && !(type >= L::K_PROGRAM && type <= L::K_COMPUTE))
        if (const Token* body = bracelessBody(tokens, index))
            return {DiagKind::UnexpectedToken, where,
                    fmt::format("expected the end of the statement (a newline) in the {} section, "
                                "found {}; write each statement on its own line",
                                body->getText(), found),
                    std::nullopt};

    // The statement is complete but something follows it on the same line.
    if (dynamic_cast<P::BlockContext*>(error.context) && error.expected.contains(static_cast<size_t>(L::RBRACE)))
        return {DiagKind::UnexpectedToken, where,
                fmt::format("expected the end of the statement (a newline) or `}}` {}, found {}; "
                            "write each statement on its own line",
                            context, found),
                std::nullopt};

    return {DiagKind::UnexpectedToken, where,
            expected.empty() ? fmt::format("unexpected {} {}", found, context)
                             : fmt::format("expected {} {}, found {}", expected, context, found),
            std::nullopt};
}

} // namespace itc::frontend
