// The diagnostics engine used by every phase: a diagnostic has a stable kind, a location, a
// message and optional notes, and prints as `file:line:col: error: message [Kind]` followed by
// the source line and a caret. Phases report; they never print or exit themselves.
#pragma once

#include "frontend/source_manager.h"

#include <fmt/format.h>

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace itc {

enum class DiagKind {
#define DIAG(name, summary) name,
#include "frontend/diagnostics/kinds.def"
#undef DIAG
};

std::string_view diagKindName(DiagKind kind);
std::string_view diagKindSummary(DiagKind kind);
// Every declared kind, in declaration order (used by the coverage test).
const std::vector<DiagKind>& allDiagKinds();

enum class Severity { Error, Warning, Note };

struct DiagnosticNote {
    SourceRange range; // may be invalid: a note without a location
    std::string message;
};

struct Diagnostic {
    DiagKind kind;
    Severity severity = Severity::Error;
    SourceRange range; // may be invalid for whole-file or command-line problems
    std::string message;
    std::vector<DiagnosticNote> notes;
};

class DiagnosticEngine {
public:
    explicit DiagnosticEngine(const SourceManager& sources) : sources_(sources) {}

    // Reports a diagnostic and returns it so that notes can be attached.
    Diagnostic& report(DiagKind kind, SourceRange range, std::string message, Severity severity = Severity::Error);
    template <typename... Args>
    Diagnostic& error(DiagKind kind, SourceRange range, fmt::format_string<Args...> format, Args&&... args) {
        return report(kind, range, fmt::format(format, std::forward<Args>(args)...));
    }
    static void addNote(Diagnostic& diag, SourceRange range, std::string message) {
        diag.notes.push_back({range, std::move(message)});
    }

    std::size_t errorCount() const { return errors_; }
    bool hasErrors() const { return errors_ != 0; }
    const std::vector<Diagnostic>& diagnostics() const { return diags_; }

    // Renders one diagnostic (with source line and caret) as the user sees it.
    std::string render(const Diagnostic& diag) const;
    // Prints every diagnostic reported so far, in order.
    void print(std::ostream& out) const;

private:
    std::string renderLocation(SourceRange range) const;
    std::string renderSnippet(SourceRange range) const;

    const SourceManager& sources_;
    std::vector<Diagnostic> diags_;
    std::size_t errors_ = 0;
};

} // namespace itc
