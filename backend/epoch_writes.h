// Internal to backend/: which cells of an array's current epoch version a stage writes, so that
// entering an `Epoch` can rotate the version ring instead of copying whole parts (guide: Epochs).
// The analysis is conservative: it recognises one shape and says "unknown" for everything else,
// in which case the flow keeps the full copy.
#pragma once

#include "frontend/ast/ast.h"

#include <string>

namespace itc::backend {

// The parallel loop of `stage` that writes the current version of array `name` (as the body
// spells it: a parameter, or a task-global used directly; `dims` dimensions) exactly on a box
// that is known before the loop runs; nullptr when the stage may do anything else. The shape:
//   do { ... name[i1]...[iN] = e ... } for i1, ..., iN in name and (i1 > lo1) and (i2 <= hi2) ...
// * the loop is a statement of the stage body itself (runs exactly once per call), with one
//   index group over `name` binding index k to dimension k;
// * every restriction conjunct compares one loop index with an expression that names no loop
//   index and nothing the loop body assigns (the backend tightens loop bounds with these, so
//   the written box is the part's box cut by them);
// * every write of `name` is such an unconditional assignment `name[i1]...[iN] = ...` at the
//   top level of that loop's body, to the current version;
// * the current version of `name` is never read, `name` is never passed to a call (a `&`
//   parameter could write it), and the stage has no native code.
const ast::ParallelLoop* boxWritingLoop(const ast::StageDef& stage, const std::string& name, int dims);

} // namespace itc::backend
