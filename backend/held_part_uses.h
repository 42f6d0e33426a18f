// A stage may pass a function the part of an array that stride() or block_stride() cuts (`f(m)`,
// `f(a[...][j])` with rows dealt out): the LPU holds a set of indices along such a dimension, not
// an interval. The function sees it as the LPU does (runtime/task LocalArray::held): elements by
// their global indices, and loops over the parameter's dimension ranges visit the held indices.
// These helpers say which uses of such a parameter a function may make, for the capability
// check (backend/capability.cpp) and the function emitter (SequentialBody's loops).
#pragma once

#include "frontend/ast/ast.h"

#include <string>
#include <utility>
#include <vector>

namespace itc::backend {

// `x.dimensionK.range` with `x` a name: that name (and K in *dim, from 1); null otherwise.
const ast::NameRef* dimensionRangeOf(const ast::Expr& e, int* dim = nullptr);

// The name of parameter i of a function (brace or paper form); empty past the last.
std::string functionParameter(const ast::FunctionDef& fn, size_t i);

// How the body of `fn` uses its parameter `param`, which holds an array of `dims` dimensions
// that may be a part cut by stride(): the first use such a part does not support, and the calls
// that pass it on whole to other functions (callee name, parameter index), which then receive
// it too. Supported: elements (`c[i]`, every dimension indexed, read or written), sequential
// loops over a dimension range (`for i in c.dimension1.range`), that range's `.min`/`.max`, and
// passing it whole to a function.
struct HeldParameterUses {
    bool found = false; // a use such a part does not allow
    SourceRange at;     // of the first of them
    std::string what;   // how it is used there (`sectioned`), for the diagnostic
    std::vector<std::pair<const ast::Call*, size_t>> passedOn;
};
HeldParameterUses heldParameterUses(const ast::FunctionDef& fn, const std::string& param, int dims);

} // namespace itc::backend
