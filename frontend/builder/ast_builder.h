// The AST builder: ANTLR parse tree -> frontend/ast/ast.h. It is the only code that sees both.
// The grammar accepts a few shapes loosely (identifier casing, section order, partition
// arguments, loop headers...); the builder rejects them here with specific diagnostics and
// still returns the AST it could build. Internal to frontend/.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"

#include "ITParser.h"

#include <memory>
#include <string>

namespace itc::frontend {

std::unique_ptr<ast::Program> buildAst(itc::antlr::ITParser::ProgramContext* tree, FileId file, const std::string& text,
                                       DiagnosticEngine& diags);

} // namespace itc::frontend
