// Functions (guide: Functions): the call graph (no recursion), paper-form result counts (exactly
// one), and instantiation of brace-form functions per combination of argument types (guide: Types),
// each instance checked once with the function scope rules (guide: Functions).
#pragma once

#include "semantic/check/context.h"

namespace itc::semantic::check {

// Reports every direct or indirect recursion once, and paper-form result counts.
void checkFunctionDeclarations(CheckState& state);

// The result type of calling `fn` with arguments of `argTypes` (Void when it returns
// nothing). Checks the instance on first use; errors inside carry a note at `callSite`.
Type instantiateFunction(CheckState& state, const ast::FunctionDef& fn, const std::vector<Type>& argTypes,
                         SourceRange callSite);

// Checks the bodies of functions that no checked code calls (parameters untyped).
void checkUncalledFunctions(CheckState& state);

// Where brace-form function `fn` assigns its parameter number `param`, directly (`x = ...`,
// `x[i] = ...`, `x.f = ...`) or by passing it on to a `&` parameter that the callee assigns
// (then the callee's assignment); nothing when it never does. Native code (`@Extern`) is not looked
// into. Used for the rule that a stage parameter bound to a constant is never assigned (guide:
// Stages and statements).
std::optional<SourceRange> referenceParamAssignment(const CheckState& state, const ast::FunctionDef& fn,
                                                    std::size_t param);

} // namespace itc::semantic::check
