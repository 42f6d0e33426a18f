// The backend's capability check: one pass over a checked program and its task plans, run before
// any C++ is emitted, that finds every construct this backend does not translate (the reasons are
// listed in backend/limits.def). The emitters assume it found none: what they meet that it should
// have refused is an internal error.
#pragma once

#include "backend/backend.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace itc::backend {

enum class Limit {
#define ITC_BACKEND_LIMIT(enumerator, key, advice) enumerator,
#include "backend/limits.def"
#undef ITC_BACKEND_LIMIT
};

const char* limitKey(Limit l);    // `strided-part-copy`
const char* limitAdvice(Limit l); // what to write instead

// One construct the backend does not translate: `construct` names it (`passing \`v\` to a
// function from a stage where its parts are cut by stride()`).
struct Refusal {
    Limit limit;
    SourceRange at;
    std::string construct;
};

// Every construct of `in`'s program the backend does not translate, in source order (one per
// construct and reason); empty when emitProgram(in) translates the whole program.
std::vector<Refusal> untranslatedConstructs(const BackendInput& in);

// The arrays that may hold a part cut by stride() or block_stride(): function parameters a stage
// or a condition passes one to (directly, or through another function), and stage-local arrays a
// stage copies one into. Their loops over the array's dimension ranges visit the held indices
// (backend/held_part_uses.h).
struct StridedHolders {
    std::set<std::pair<const ast::FunctionDef*, std::string>> parameters;
    std::set<std::pair<const ast::StageDef*, std::string>> stageLocals;
};
StridedHolders stridedPartHolders(const BackendInput& in);

} // namespace itc::backend
