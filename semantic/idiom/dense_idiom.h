// Recognises the dense linear-algebra idioms of a checked stage instance: a parallel loop nest
// that is a matrix-matrix product (gemm) or a matrix-vector product (gemv) on whole index
// ranges. The answer is plain data naming stage parameters and loop indices; the backend turns
// it into a call of the runtime's dense kernels (BLAS) and keeps the loops as the fallback.
#pragma once

#include "semantic/semantic.h"

#include <optional>
#include <string>

namespace itc::semantic {

// Gemm: out[m][n] = beta * out[m][n] + alpha * sum over k of opA(a)[m][k] * opB(b)[k][n]
// Gemv: out[m]    = beta * out[m]    + alpha * sum over k of opA(a)[m][k] * b[k]
// where opA(a)[m][k] is a[m][k], or a[k][m] when transA (likewise b and transB).
struct DenseIdiom {
    enum class Kind { Gemm, Gemv };
    Kind kind = Kind::Gemm;
    std::string out, a, b; // stage parameters bound to arrays
    bool transA = false, transB = false;
    int alpha = 1;                           // +1 or -1
    int beta = 1;                            // 1: accumulate into out; 0: overwrite it
    std::string m, n, k;                     // loop indices (n is empty for Gemv)
    TypeKind element = TypeKind::RealDouble; // RealSingle or RealDouble, the same for all three
};

// The idiom `loop` (a parallel loop of `inst`'s body) computes, or nothing. Two forms match:
//   accumulate:  do { out[i][j] = out[i][j] + a[i][k] * b[k][j] } for i, j in out; k in a
//                (also `- a*b`, `a*b + out`, the factors in either order, a[k][i] / b[j][k]
//                transposed, and `out[i] = out[i] + a[i][k] * b[k]`);
//   reduction:   do { do { t = reduce("sum", a[i][k] * b[k][j]) } for k in a
//                     out[i][j] = out[i][j] - t } for i, j in out
//                (`out = t`, `out = out + t`, `out = t + out`; `t` a stage local used nowhere else).
// Nothing matches when a loop group has an `and` restriction, an index is not a loop index of
// the nest (a constant, an expression, an epoch `at`), the output is also an input (same root
// task-global), the three arrays do not share a float or double element type, or an array is
// not a stage parameter. Whether the arrays' parts are dense row-major blocks is a run-time
// question the kernels answer (they decline and the loops run).
std::optional<DenseIdiom> matchDenseIdiom(const ast::ParallelLoop& loop, const StageInstance& inst);

} // namespace itc::semantic
