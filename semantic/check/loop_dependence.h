// A parallel loop (`do { } for i in a`) whose iterations may run in any order, or at once, must
// give the same result in every order. One that writes `a[i]` and reads `a[i - 1]` at the same
// version reads what another iteration writes: a recurrence written as a parallel loop, whose
// result depends on the order and so on the partition. A warning: the program is valid.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"

namespace itc::semantic::check {

// Warns once per array and loop nest of `stage` that reads, at an offset of a parallel-loop
// index, an element of an array the same nest writes at that index.
void warnLoopCarriedReads(const ast::StageDef& stage, DiagnosticEngine& diags);

} // namespace itc::semantic::check
