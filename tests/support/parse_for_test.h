// Test helper: parse an IT program held in a string. Keeps the source manager, the diagnostics
// engine and the AST together (the AST and the diagnostics refer to the sources), so tests hold
// one heap object, usually as a base of their own result struct. Header-only.
#pragma once

#include "frontend/parser.h"

#include <memory>
#include <sstream>
#include <string>

namespace itc::test {

struct ParsedForTest {
    SourceManager sources;
    std::unique_ptr<DiagnosticEngine> diags;
    std::unique_ptr<ast::Program> program;

    // Adds `text` as buffer `name` and parses it; errors stay in `diags`.
    void parse(const std::string& name, const std::string& text) {
        FileId f = sources.addBuffer(name, text);
        diags = std::make_unique<DiagnosticEngine>(sources);
        program = parseProgram(f, sources, *diags);
    }

    // Everything reported so far, as the command line would print it.
    std::string diagText() const {
        std::ostringstream s;
        diags->print(s);
        return s.str();
    }
};

} // namespace itc::test
