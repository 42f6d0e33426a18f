// In IT a range whose first index is past its last runs backwards; it is not empty. The
// triangular loop of textbooks, `for j in [(i + 1)...n]` inside a loop whose `i` reaches `n`,
// therefore runs j = n + 1, n at the last `i`, past the end of the arrays it indexes. A warning
// where that is certain from the program text: the inner range's first index is an enclosing
// loop index plus a positive literal, its last index is written as one end of that enclosing
// loop's literal range, and no enclosing `if` (nor the loop's own `and` condition) tests it alone.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"

namespace itc::semantic::check {

void warnRangesRunningBackwards(const ast::Program& program, DiagnosticEngine& diags);

} // namespace itc::semantic::check
