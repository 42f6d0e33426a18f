// Builds a MachineModel from a PCubeS text file: ANTLR parse (grammar/PCubeS.g4), then a walk of
// the parse tree that checks attributes, properties and the processor numbering, then
// validateMachine. Grammar rules are quoted above the code that handles them.
#include "pcubes/machine_parser.h"

#include "PCubeSLexer.h"
#include "PCubeSParser.h"
#include "pcubes/antlr_errors.h"

#include <cctype>
#include <charconv>
#include <map>

namespace itc::pcubes {
namespace {

using P = itc::antlr::PCubeSParser;

std::optional<std::uint64_t> parseUnsigned(std::string_view text) {
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return v;
}

// The message for the first syntax error, from where the parser stands.
std::string composeSyntaxMessage(antlr4::Parser& parser, const antlr4::Token* found) {
    std::string what = describeToken(found);
    // A `/` right after a name: the name's last character (`C/`), not a comment.
    const auto before = [](const antlr4::Token* t) -> char {
        const std::size_t at = t->getStartIndex();
        if (at == 0 || !t->getInputStream())
            return ' ';
        const std::string c = t->getInputStream()->getText(antlr4::misc::Interval(at - 1, at - 1));
        return c.empty() ? ' ' : c[0];
    };
    if (found && found->getType() == P::ERROR_CHAR && found->getText() == "/" &&
        !std::isspace(static_cast<unsigned char>(before(found))) && before(found) != ')')
        return std::string("a level name may hold `/` only between other characters (`L3/Domain`), and `//` "
                           "starts a comment; remove the `/` or write a character after it");
    if (found && found->getType() == P::ERROR_CHAR)
        return fmt::format("unexpected character {}; level lines look like "
                           "`Space 2<segment>: Node (4)` and `//` starts a comment",
                           what);
    auto* ctx = parser.getContext();
    const antlr4::misc::IntervalSet expected = expectedTokens(parser);
    auto expects = [&](size_t type) { return expected.contains(type); };
    if (enclosingRule(ctx, P::RuleAttribute)) {
        if (expects(P::GT))
            return fmt::format("expected `>` to close the attribute, found {}", what);
        return fmt::format("expected an attribute name (`segment`, `unit` or `core`) after `<`, "
                           "found {}",
                           what);
    }
    if (enclosingRule(ctx, P::RuleLevelName))
        return fmt::format("expected the level name after `:`, found {}", what);
    if (enclosingRule(ctx, P::RuleProperties)) {
        if (expects(P::COLON))
            return fmt::format("expected `:` after the property name, found {}", what);
        if (enclosingRule(ctx, P::RuleValueWord) || (expects(P::NAME) && ctx->getRuleIndex() == P::RuleProperty))
            return fmt::format("expected a value after `:`, such as `64GiB`, found {}", what);
        if (expects(P::RBRACE) && expects(P::COMMA)) {
            if (found && found->getType() == P::COLON)
                return fmt::format("expected `,` or `}}` after the property value, found {}; "
                                   "separate properties with `,`",
                                   what);
            return fmt::format("expected `,` or `}}` after the property value, found {}", what);
        }
        return fmt::format("expected a property such as `memory: 64GiB`, or `}}`, found {}", what);
    }
    if (auto* line = dynamic_cast<P::SpaceLineContext*>(enclosingRule(ctx, P::RuleSpaceLine))) {
        if (!line->number)
            return fmt::format("expected the level number after `Space`, found {}", what);
        if (expects(P::COLON))
            return fmt::format("expected `:` after `Space {}` and its attributes, found {}", line->number->getText(),
                               what);
        if (expects(P::LPAREN)) {
            if (found && found->getType() == P::INTEGER)
                return fmt::format("the PPU count goes in parentheses after the level name: write `({})`, "
                                   "like `Core (2)`",
                                   found->getText());
            if (found && found->getType() == P::NAME)
                return fmt::format("a level name cannot contain whitespace: found {} after it; "
                                   "join the words, e.g. `Core-Pair`",
                                   what);
            return fmt::format("expected `(` and the PPU count after the level name, found {}", what);
        }
        if (expects(P::INTEGER))
            return fmt::format("expected the PPU count, a whole number, inside `( )`, found {}", what);
        if (expects(P::RPAREN))
            return fmt::format("expected `)` after the PPU count, found {}", what);
    }
    if (enclosingRule(ctx, P::RuleProcessorsLine)) {
        if (expects(P::COLON))
            return fmt::format("expected `:` after `Processors`, found {}", what);
        return fmt::format("expected an OS processor id such as `4` or a range such as `0-7`, "
                           "found {}",
                           what);
    }
    const antlr4::Token* previous = parser.getTokenStream()->LT(-1);
    if (found && previous && found->getType() != antlr4::Token::EOF && previous->getLine() == found->getLine() &&
        previous->getType() == P::RPAREN)
        return fmt::format("unexpected {} after the level's count; a level line ends with its "
                           "count `(N)` or its properties `{{ ... }}`, and comments start with `//`",
                           what);
    // A mapping file given as the machine (`"Task" { Space A: 2 }`): say so.
    if (found && found->getText().size() > 1 && found->getText().front() == '"' && !previous)
        return fmt::format("expected a level line starting with `Space`, found {}: this looks like a mapping "
                           "file (`\"Task\" {{ Space A: N }}`); give the machine model with `--machine` and the "
                           "mapping after the program",
                           what);
    return fmt::format("expected a level line starting with `Space`, such as "
                       "`Space 1<core>: Core (4)`, found {}",
                       what);
}

class Builder {
public:
    Builder(FileId file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

    std::optional<MachineModel> build(P::MachineFileContext* root) {
        MachineModel model;
        for (P::ItemContext* item : root->item()) {
            if (item->spaceLine())
                model.levels.push_back(level(item->spaceLine()));
            else
                processors(item->processorsLine(), model);
        }
        if (failed_)
            return std::nullopt;
        return model;
    }

private:
    SourceRange range(antlr4::Token* t) const { return tokenRange(file_, t); }
    SourceRange range(antlr4::ParserRuleContext* c) const {
        SourceRange a = tokenRange(file_, c->getStart()), b = tokenRange(file_, c->getStop());
        if (b.end.line != a.begin.line)
            return a;
        return {a.begin, b.end};
    }

    // spaceLine : SPACE number=INTEGER attribute* ':' levelName '(' count=INTEGER ')' properties?
    Level level(P::SpaceLineContext* line) {
        Level l;
        l.declared = range(line); // the whole line, or its first token if it spans lines
        auto number = parseUnsigned(line->number->getText());
        if (!number || *number > 1000) {
            fail(DiagKind::MachineLevelOrder, range(line->number),
                 "level number `{}` is too large; levels are numbered from the root down to 1",
                 line->number->getText());
            l.number = 0;
        } else {
            l.number = static_cast<int>(*number);
        }
        auto count = parseUnsigned(line->count->getText());
        if (!count || *count > (std::uint64_t(1) << 32)) {
            fail(DiagKind::MachineBadCount, range(line->count),
                 "the PPU count `{}` is too large; at most 2^32 PPUs per parent PPU", line->count->getText());
            l.fanOut = 1;
        } else {
            l.fanOut = *count;
        }
        l.name = line->levelName()->getText();
        std::map<std::string, SourceRange> seen;
        for (P::AttributeContext* a : line->attribute()) {
            std::string name = a->word()->getText();
            SourceRange r = range(a);
            if (auto it = seen.find(name); it != seen.end()) {
                fail(DiagKind::MachineDuplicateAttribute, r,
                     "attribute `<{}>` is given twice on this level; remove one", name);
                continue;
            }
            seen[name] = r;
            if (name == "segment")
                l.segment = true;
            else if (name == "unit")
                l.unit = true;
            else if (name == "core")
                l.core = true;
            else
                fail(DiagKind::MachineUnknownAttribute, r,
                     "unknown attribute `<{}>`; a level may carry `<segment>`, `<unit>` and "
                     "`<core>` (capacities go in `{{ ... }}`, e.g. `{{ memory: 64GiB }}`)",
                     name);
        }
        if (line->properties())
            properties(line->properties(), l);
        return l;
    }

    // properties : '{' ( property ( ',' property )* ','? )? '}'
    // property   : key=word ':' valueWord+
    void properties(P::PropertiesContext* props, Level& l) {
        std::map<PropertyId, SourceRange> seen;
        for (P::PropertyContext* p : props->property()) {
            std::string key = p->key->getText();
            auto id = propertyByKey(key);
            if (!id) {
                std::string known;
                for (std::size_t i = 0; i < kPropertyCount; ++i)
                    known += fmt::format("{}`{}`", i ? ", " : "", propertyKey(PropertyId(i)));
                fail(DiagKind::MachineUnknownProperty, range(p->key),
                     "unknown property `{}`; the known properties are {}", key, known);
                continue;
            }
            if (auto it = seen.find(*id); it != seen.end()) {
                auto& d = diags_.error(DiagKind::MachineDuplicateProperty, range(p->key),
                                       "property `{}` is given twice for this level; keep one", key);
                DiagnosticEngine::addNote(d, it->second, "first given here");
                failed_ = true;
                continue;
            }
            seen[*id] = range(p->key);
            // Adjacent words form one value: `64GiB` or `64 GiB`.
            std::string text;
            for (P::ValueWordContext* w : p->valueWord())
                text += w->getText();
            std::string error;
            SourceRange valueRange = range(p->valueWord().front());
            valueRange.end = range(p->valueWord().back()).end;
            auto value = parsePropertyValue(*id, text, error);
            if (!value) {
                fail(DiagKind::MachineBadPropertyValue, valueRange, "{}", error);
                continue;
            }
            l.properties[static_cast<std::size_t>(*id)] = *value;
        }
    }

    // processorsLine : PROCESSORS ':' processorWord+ ( ',' processorWord+ )*
    void processors(P::ProcessorsLineContext* line, MachineModel& model) {
        if (model.processorsDeclared.valid()) {
            auto& d = diags_.error(DiagKind::MachineBadProcessors, range(line->getStart()),
                                   "`Processors` is given twice; give the numbering once");
            DiagnosticEngine::addNote(d, model.processorsDeclared, "first given here");
            failed_ = true;
            return;
        }
        model.processorsDeclared = range(line->getStart());
        // Split the words into comma-separated items.
        std::vector<std::vector<P::ProcessorWordContext*>> items(1);
        for (auto* child : line->children) {
            if (auto* w = dynamic_cast<P::ProcessorWordContext*>(child))
                items.back().push_back(w);
            else if (auto* t = dynamic_cast<antlr4::tree::TerminalNode*>(child);
                     t && t->getSymbol()->getType() == P::COMMA)
                items.emplace_back();
        }
        std::map<std::uint32_t, SourceRange> seen;
        for (auto& item : items) {
            SourceRange r = range(item.front());
            r.end = range(item.back()).end;
            std::string text;
            for (std::size_t i = 0; i < item.size(); ++i) {
                if (i && item[i]->getStart()->getStartIndex() != item[i - 1]->getStop()->getStopIndex() + 1) {
                    fail(DiagKind::MachineBadProcessors, r, "separate processor ids with `,`: found `{}` after `{}`",
                         item[i]->getText(), item[i - 1]->getText());
                    return;
                }
                text += item[i]->getText();
            }
            std::uint64_t lo = 0, hi = 0;
            auto dash = text.find('-');
            auto a = parseUnsigned(text.substr(0, dash));
            auto b = dash == std::string::npos ? a : parseUnsigned(text.substr(dash + 1));
            if (!a || !b || *a > 0xffffffffu || *b > 0xffffffffu) {
                fail(DiagKind::MachineBadProcessors, r, "`{}` is not an OS processor id or a range such as `0-7`",
                     text);
                return;
            }
            lo = *a;
            hi = *b;
            if (hi < lo) {
                fail(DiagKind::MachineBadProcessors, r,
                     "the range `{}` is empty; write the lower id first, e.g. `{}-{}`", text, hi, lo);
                return;
            }
            if (hi - lo > 1u << 20) {
                fail(DiagKind::MachineBadProcessors, r, "the range `{}` is too large", text);
                return;
            }
            for (std::uint64_t id = lo; id <= hi; ++id) {
                auto id32 = static_cast<std::uint32_t>(id);
                if (auto it = seen.find(id32); it != seen.end()) {
                    auto& d = diags_.error(DiagKind::MachineBadProcessors, r,
                                           "OS processor {} is listed twice; each `<core>` PPU "
                                           "needs its own processor",
                                           id);
                    DiagnosticEngine::addNote(d, it->second, "first listed here");
                    failed_ = true;
                    return;
                }
                seen[id32] = r;
                model.processors.push_back(id32);
            }
        }
    }

    template <typename... Args> void fail(DiagKind kind, SourceRange r, fmt::format_string<Args...> f, Args&&... args) {
        diags_.error(kind, r, f, std::forward<Args>(args)...);
        failed_ = true;
    }

    FileId file_;
    DiagnosticEngine& diags_;
    bool failed_ = false;
};

} // namespace

std::optional<std::uint64_t> parsePropertyValue(PropertyId id, const std::string& text, std::string& error) {
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
        ++digits;
    std::string key(propertyKey(id));
    if (digits == 0) {
        error = fmt::format("the value of `{}` must start with a whole number, found `{}`", key, text);
        return std::nullopt;
    }
    auto number = parseUnsigned(std::string_view(text).substr(0, digits));
    std::string unit = text.substr(digits);
    std::uint64_t factor = 1;
    switch (propertyUnit(id)) {
    case PropertyUnit::Count:
        if (!unit.empty()) {
            error = fmt::format("`{}` is a plain count and takes no unit; write `{}: {}`", key, key,
                                text.substr(0, digits));
            return std::nullopt;
        }
        break;
    case PropertyUnit::Bytes: {
        static const std::map<std::string, std::uint64_t> units = {{"", 1},
                                                                   {"B", 1},
                                                                   {"KiB", 1ull << 10},
                                                                   {"MiB", 1ull << 20},
                                                                   {"GiB", 1ull << 30},
                                                                   {"TiB", 1ull << 40},
                                                                   {"PiB", 1ull << 50}};
        static const std::map<std::string, std::string> decimal = {
            {"K", "KiB"},  {"KB", "KiB"}, {"kB", "KiB"}, {"k", "KiB"}, {"M", "MiB"},
            {"MB", "MiB"}, {"G", "GiB"},  {"GB", "GiB"}, {"T", "TiB"}, {"TB", "TiB"}};
        if (auto it = units.find(unit); it != units.end()) {
            factor = it->second;
        } else if (auto d = decimal.find(unit); d != decimal.end()) {
            error = fmt::format("ambiguous size unit `{}` in `{}`; sizes use binary units, "
                                "write `{}{}`",
                                unit, text, text.substr(0, digits), d->second);
            return std::nullopt;
        } else {
            error = fmt::format("unknown size unit `{}` in `{}`; use B, KiB, MiB, GiB or TiB", unit, text);
            return std::nullopt;
        }
        break;
    }
    case PropertyUnit::Nanoseconds: {
        static const std::map<std::string, std::uint64_t> units = {
            {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
        auto it = units.find(unit);
        if (it == units.end()) {
            error = fmt::format("`{}` needs a time unit, one of ns, us, ms, s; found `{}`", key, text);
            return std::nullopt;
        }
        factor = it->second;
        break;
    }
    }
    if (!number || (factor != 0 && *number > UINT64_MAX / factor)) {
        error = fmt::format("the value `{}` of `{}` is too large", text, key);
        return std::nullopt;
    }
    if (*number == 0 && propertyUnit(id) == PropertyUnit::Bytes) {
        error = fmt::format("`{}` is a size and must be at least 1 byte; leave the property out if it is unknown", key);
        return std::nullopt;
    }
    return *number * factor;
}

std::optional<MachineModel> parseMachine(FileId file, const SourceManager& sources, DiagnosticEngine& diags) {
    return parseFirstError<itc::antlr::PCubeSLexer, P>(file, sources, diags, DiagKind::MachineSyntax,
                                                       composeSyntaxMessage, &P::machineFile,
                                                       [&](P::MachineFileContext* tree) -> std::optional<MachineModel> {
                                                           Builder builder(file, diags);
                                                           auto model = builder.build(tree);
                                                           if (!model)
                                                               return std::nullopt;
                                                           if (!validateMachine(*model, file, diags))
                                                               return std::nullopt;
                                                           return model;
                                                       });
}

std::optional<MachineModel> loadMachine(const std::string& path, SourceManager& sources, DiagnosticEngine& diags) {
    auto file = loadInputFile(path, "machine file", sources, diags);
    if (!file)
        return std::nullopt;
    return parseMachine(*file, sources, diags);
}

} // namespace itc::pcubes
