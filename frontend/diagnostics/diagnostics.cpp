// Diagnostic rendering: location prefix, message, kind tag, source line and caret.
#include "frontend/diagnostics/diagnostics.h"

#include <algorithm>
#include <ostream>
#include <set>
#include <string>

namespace itc {
namespace {

struct KindInfo {
    DiagKind kind;
    std::string_view name;
    std::string_view summary;
};

constexpr KindInfo kKinds[] = {
#define DIAG(name, summary) {DiagKind::name, #name, summary},
#include "frontend/diagnostics/kinds.def"
#undef DIAG
};

std::string_view severityWord(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    }
    return "error";
}

} // namespace

std::string_view diagKindName(DiagKind kind) { return kKinds[static_cast<int>(kind)].name; }
std::string_view diagKindSummary(DiagKind kind) { return kKinds[static_cast<int>(kind)].summary; }

const std::vector<DiagKind>& allDiagKinds() {
    static const std::vector<DiagKind> all = [] {
        std::vector<DiagKind> v;
        for (const KindInfo& k : kKinds)
            v.push_back(k.kind);
        return v;
    }();
    return all;
}

Diagnostic& DiagnosticEngine::report(DiagKind kind, SourceRange range, std::string message, Severity severity) {
    if (severity == Severity::Error)
        ++errors_;
    diags_.push_back({kind, severity, range, std::move(message), {}});
    return diags_.back();
}

std::string DiagnosticEngine::renderLocation(SourceRange range) const {
    if (!range.begin.file)
        return "itc: ";
    const std::string& path = sources_.path(range.begin.file);
    if (!range.begin.valid())
        return path + ": ";
    return fmt::format("{}:{}:{}: ", path, range.begin.line, range.begin.column);
}

std::string DiagnosticEngine::renderSnippet(SourceRange range) const {
    if (!range.begin.valid())
        return {};
    std::string_view line = sources_.lineText(range.begin.file, range.begin.line);
    if (line.empty())
        return {};
    std::string text(line);
    std::replace(text.begin(), text.end(), '\t', ' ');
    // Control bytes (a binary file given as a source) would garble the terminal: one `?` each,
    // so that the marker stays under its column.
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = '?';
    std::size_t col = range.begin.column ? range.begin.column - 1 : 0;
    col = std::min(col, text.size());
    std::size_t width = 1;
    if (range.end.valid() && range.end.line == range.begin.line && range.end.column >= range.begin.column)
        width = range.end.column - range.begin.column + 1;
    // A very long line: a window around the column, marked `...` where it is cut.
    constexpr std::size_t kShown = 160, kBefore = 60;
    if (text.size() > kShown) {
        const std::size_t from = col > kBefore ? col - kBefore : 0;
        const std::size_t to = std::min(text.size(), from + kShown);
        std::string window = (from > 0 ? "..." : "") + text.substr(from, to - from) + (to < text.size() ? "..." : "");
        col = col - from + (from > 0 ? 3 : 0);
        text = std::move(window);
        width = std::min(width, kShown);
    }
    width = std::max<std::size_t>(1, std::min(width, text.size() - std::min(col, text.size())));
    std::string marker = std::string(col, ' ') + "^" + std::string(width - 1, '~');
    return fmt::format("    {}\n    {}\n", text, marker);
}

std::string DiagnosticEngine::render(const Diagnostic& diag) const {
    std::string out = fmt::format("{}{}: {} [{}]\n", renderLocation(diag.range), severityWord(diag.severity),
                                  diag.message, diagKindName(diag.kind));
    out += renderSnippet(diag.range);
    for (const DiagnosticNote& note : diag.notes) {
        out += fmt::format("{}note: {}\n", renderLocation(note.range), note.message);
        out += renderSnippet(note.range);
    }
    return out;
}

void DiagnosticEngine::print(std::ostream& out) const {
    // A stage body is checked once per instance, so one fault can be reported more than once
    // with the same notes; the user needs it once.
    // After the first hundred, the rest are counted, not shown: a file that is not an IT program
    // at all gave thousands of lines.
    constexpr std::size_t kMostShown = 100;
    std::set<std::string> printed;
    std::size_t hidden = 0;
    for (const Diagnostic& d : diags_) {
        std::string text = render(d);
        if (!printed.insert(text).second)
            continue;
        if (printed.size() > kMostShown)
            ++hidden;
        else
            out << text;
    }
    if (hidden > 0)
        out << "itc: note: " << hidden << " more diagnostic" << (hidden == 1 ? "" : "s")
            << " not shown; correct the ones above and run again\n";
}

} // namespace itc
