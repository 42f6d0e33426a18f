// The adapter from the IT AST to the plain facts the mapping validator needs: per task its
// spaces and their parents (Partition section), and the tasks the coordinator executes.
#pragma once

#include "frontend/ast/ast.h"
#include "pcubes/mapping.h"

namespace itc::pcubes {

ProgramSpaces programSpacesFromAst(const ast::Program& program);

} // namespace itc::pcubes
