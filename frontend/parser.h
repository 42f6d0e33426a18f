// Entry point of the frontend: IT source text -> AST, with syntax diagnostics.
// Never throws on bad input and never lets ANTLR's own messages reach the user.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"

#include <memory>

namespace itc {

// Parses the file `file` (already in `sources`). Syntax errors go to `diags` (one message per
// problem). The returned program is always non-null; after errors it holds whatever could be
// built and must not be handed to semantic analysis.
std::unique_ptr<ast::Program> parseProgram(FileId file, const SourceManager& sources, DiagnosticEngine& diags);

// The version of the ANTLR4 C++ runtime the parser runs on (for `itc --version`).
std::string antlrRuntimeVersion();

} // namespace itc
