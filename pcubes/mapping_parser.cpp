// Mapping file text -> MappingFile (grammar/Mapping.g4). Syntax errors go through our own
// wording; a space name must be one capital letter or `Root`.
#include "MappingLexer.h"
#include "MappingParser.h"
#include "pcubes/antlr_errors.h"
#include "pcubes/mapping.h"

#include <charconv>
#include <set>

namespace itc::pcubes {
namespace {

using P = itc::antlr::MappingParser;

bool isSpaceName(const std::string& s) { return s == "Root" || (s.size() == 1 && s[0] >= 'A' && s[0] <= 'Z'); }

std::string composeSyntaxMessage(antlr4::Parser& parser, const antlr4::Token* found) {
    std::string what = describeToken(found);
    if (found && found->getType() == P::UNTERMINATED_STRING)
        return fmt::format("the task name {} has no closing `\"`; write it as `\"Task Name\"`", what);
    if (found && found->getType() == P::ERROR_CHAR)
        return fmt::format("unexpected character {}; a mapping looks like "
                           "`\"Task Name\" {{ Space A: 2 }}` and `//` starts a comment",
                           what);
    auto* ctx = parser.getContext();
    const antlr4::misc::IntervalSet expected = expectedTokens(parser);
    auto expects = [&](size_t type) { return expected.contains(type); };
    if (auto* m = dynamic_cast<P::LpsMappingContext*>(enclosingRule(ctx, P::RuleLpsMapping))) {
        if (!m->space)
            return fmt::format("expected a space name (a capital letter or `Root`) after "
                               "`Space`, found {}",
                               what);
        if (expects(P::COLON))
            return fmt::format("expected `:` after `Space {}`, found {}", m->space->getText(), what);
        return fmt::format("expected a PPS number after `Space {}:`, found {}", m->space->getText(), what);
    }
    if (enclosingRule(ctx, P::RuleTaskMapping)) {
        if (expects(P::LBRACE))
            return fmt::format("expected `{{` after the task name, found {}", what);
        if (found && found->getType() == P::STRING)
            return fmt::format("expected `}}` to close the task's mapping before the next task "
                               "{}",
                               what);
        if (found && found->getType() == P::ID && found->getText().rfind("Space", 0) == 0)
            return fmt::format("expected `Space X: N` with a blank after `Space`, found {}", what);
        return fmt::format("expected `Space X: N` or `}}`, found {}", what);
    }
    // A mapping line outside a task's block (`Space A: 1` as the whole file): say where it goes.
    antlr4::TokenStream* stream = parser.getTokenStream();
    const antlr4::Token* next = nullptr;
    if (found && found->getText() == "Space") {
        // (get() throws past the tokens read so far; LT(2) reads on when `found` is the next one.)
        if (stream->LT(1) == found)
            next = stream->LT(2);
        else if (found->getTokenIndex() + 1 < stream->size())
            next = stream->get(found->getTokenIndex() + 1);
    }
    if (next && isSpaceName(next->getText()))
        return fmt::format("expected a task name in quotes, such as `\"Task Name\" {{`, found {}: each `Space {}: N` "
                           "line goes inside the block of its task, `\"Task Name\" {{ Space {}: 1 }}`, one block "
                           "per task the program executes",
                           what, next->getText(), next->getText());
    // A machine model given as the mapping (`Space 2<segment>: Node (4)`): say so.
    if (found && found->getText() == "Space" && !parser.getTokenStream()->LT(-1))
        return fmt::format("expected a task name in quotes, such as `\"Task Name\" {{`, found {}: this looks like "
                           "a machine model (`Space 2<segment>: Node (4)`); give the mapping after the program and "
                           "the machine model with `--machine`",
                           what);
    // An IT program given as the mapping (the program named twice): say so.
    static const std::set<std::string> programWords = {"Program", "Task", "Class", "Function"};
    if (found && programWords.count(found->getText()) && !parser.getTokenStream()->LT(-1))
        return fmt::format("expected a task name in quotes, such as `\"Task Name\" {{`, found {}: this looks like "
                           "an IT program; give the program first and its mapping file (`\"Task Name\" {{ Space "
                           "A: 1 }}`) second",
                           what);
    return fmt::format("expected a task name in quotes, such as `\"Task Name\" {{`, found {}", what);
}

// The parse tree of a syntactically correct mapping file -> MappingFile.
std::optional<MappingFile> buildMapping(FileId file, const SourceManager& sources, DiagnosticEngine& diags,
                                        P::MappingFileContext* tree) {
    MappingFile result;
    result.file = file;
    result.path = sources.path(file);
    bool ok = true;
    // An empty mapping is complete for a program that executes no task; validateMapping reports
    // every executed task it does not map, and validateMappingAgainstMachine an empty file.
    // taskMapping : STRING '{' lpsMapping* '}'
    for (P::TaskMappingContext* t : tree->taskMapping()) {
        MappingFile::Task task;
        std::string quoted = t->STRING()->getText();
        task.name = quoted.substr(1, quoted.size() - 2);
        task.nameRange = tokenRange(file, t->STRING()->getSymbol());
        task.range = {task.nameRange.begin, tokenRange(file, t->getStop()).end};
        // lpsMapping : SPACE space=spaceName ':' pps=INTEGER
        for (P::LpsMappingContext* m : t->lpsMapping()) {
            MappingFile::Entry e;
            e.space = m->space->getText();
            e.spaceRange = tokenRange(file, m->space->getStart());
            e.ppsRange = tokenRange(file, m->pps);
            e.range = {tokenRange(file, m->getStart()).begin, e.ppsRange.end};
            if (!isSpaceName(e.space)) {
                diags.error(DiagKind::MappingBadSpaceName, e.spaceRange,
                            "`{}` is not a space name; spaces are named by one capital letter, "
                            "such as `Space A`, or `Space Root`",
                            e.space);
                ok = false;
                continue;
            }
            std::string digits = m->pps->getText();
            int value = 0;
            auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
            e.pps = ec == std::errc() && end == digits.data() + digits.size() ? value : 1 << 30;
            e.ppsText = digits;
            task.entries.push_back(std::move(e));
        }
        result.tasks.push_back(std::move(task));
    }
    if (!ok)
        return std::nullopt;
    return result;
}

} // namespace

std::optional<MappingFile> parseMapping(FileId file, const SourceManager& sources, DiagnosticEngine& diags) {
    return parseFirstError<itc::antlr::MappingLexer, P>(
        file, sources, diags, DiagKind::MappingSyntax, composeSyntaxMessage, &P::mappingFile,
        [&](P::MappingFileContext* tree) { return buildMapping(file, sources, diags, tree); });
}

std::optional<MappingFile> loadMapping(const std::string& path, SourceManager& sources, DiagnosticEngine& diags) {
    auto file = loadInputFile(path, "mapping file", sources, diags);
    if (!file)
        return std::nullopt;
    return parseMapping(*file, sources, diags);
}

} // namespace itc::pcubes
