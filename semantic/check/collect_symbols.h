// Pass 1: program-wide symbols. Collects classes (fields, no self-containment), functions,
// tasks (task-globals, Environment entries, stages, spaces and their parents, partition
// parameters) and the coordinator, reporting duplicates and unknown class names. Fills the
// symbol tables of CheckState and the class/global parts of CheckedProgram.
#pragma once

#include "semantic/check/context.h"

namespace itc::semantic::check {

void collectSymbols(CheckState& state);

// Checks that every class named in `type` exists; reports UnknownClass once. Returns the
// semantic type, or the error type when a class is unknown.
Type resolveDeclaredType(CheckState& state, const ast::TypeExpr& type);

} // namespace itc::semantic::check
