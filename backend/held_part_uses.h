// A stage may pass a function the part of an array that stride() or block_stride() cuts (`f(m)`,
// `f(a[...][j])` with rows dealt out): the LPU holds a set of indices along such a dimension, not
// an interval. The function sees it as the LPU does (runtime/task LocalArray::held): elements by
// their global indices, and loops over the parameter's dimension ranges visit the held indices.
// A stage may also copy such a part into a local array (`col = m[...][j]`). These helpers say
// which uses of such an array a function or stage may make, for the capability check
// (backend/capability.cpp) and the emitters' loops (openSequentialFor).
#pragma once

#include "frontend/ast/ast.h"

#include <string>
#include <utility>
#include <vector>

namespace itc::backend {

// `x.dimensionK.range` with `x` a name: that name (and K in *dim, from 1); null otherwise.
const ast::NameRef* dimensionRangeOf(const ast::Expr& e, int* dim = nullptr);

// `x.local.dimensionK.range` with `x` a name: that name (and K in *dim, from 1); null otherwise.
const ast::NameRef* localDimensionRangeOf(const ast::Expr& e, int* dim = nullptr);

// The name of parameter i of a function (brace or paper form); empty past the last.
std::string functionParameter(const ast::FunctionDef& fn, size_t i);

// How `body` uses the array `name`, which has `dims` dimensions and may hold a part cut by
// stride(): the first use such a part does not allow, and the calls that pass it on whole to
// other functions (callee name, parameter index), which then receive it too. Allowed: elements
// (`c[i]`, every dimension indexed, read or written), sequential loops over a dimension range
// (`for i in c.dimension1.range`), that range's `.min`/`.max`, copying it whole into a variable
// (`w = c`: `copiedTo`, which must then be a local array) and passing it whole to a function;
// with `assignable` (a local array, not a parameter a copy goes back from) also assignments to
// it.
struct HeldArrayUses {
    bool found = false; // a use such a part does not allow
    SourceRange at;     // of the first of them
    std::string what;   // how it is used there (`sectioned`), for the diagnostic
    std::vector<std::pair<const ast::Call*, size_t>> passedOn;
    std::vector<std::pair<std::string, SourceRange>> copiedTo; // `w = c`: w, and where
};
HeldArrayUses heldArrayUses(const ast::Block& body, const std::string& name, int dims, bool assignable);

} // namespace itc::backend
