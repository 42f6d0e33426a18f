// Stage views as BLAS operands: gemm and gemv over index ranges of View<T, N>s, for the stages
// itc recognises as dense linear algebra. A view qualifies when the accessed block is held
// (inside lo..hi), its dimensions are intervals in increasing direction (no stride() parts,
// no inverted dimension) and its last dimension is contiguous: then element (i, j) sits at
// base + i * ld + j, which is BLAS's row-major layout. Otherwise, or when a size does not fit
// BLAS's int, the functions do nothing and return false, and the generated code runs the
// stage's loops instead. Included only by programs that call them (they link runtime/dense).
#pragma once

#include <climits>
#include <cstdint>

#include "runtime/dense/dense_kernels.h"
#include "runtime/task/program.h"

namespace itrt::task {

// Global indices lo..hi of one loop index (inclusive; empty when hi < lo).
struct IndexSpan {
  int64_t lo = 0, hi = -1;
  int64_t size() const { return hi < lo ? 0 : hi - lo + 1; }
};

namespace dense_detail {

inline bool fits(int64_t v) { return v >= 0 && v <= INT_MAX; }

// Rows `r` and columns `c` of v form a row-major block with row stride v.gstride[0].
template <class T>
bool row_major_block(const View<T, 2>& v, IndexSpan r, IndexSpan c) {
  return !v.index[0] && !v.index[1] && v.gstride[1] == 1 && v.gstride[0] >= c.size() && fits(v.gstride[0]) &&
         v.lo[0] <= r.lo && r.hi <= v.hi[0] && v.lo[1] <= c.lo && c.hi <= v.hi[1];
}

// Elements `r` of v are evenly spaced, increasing, with a stride BLAS accepts.
template <class T>
bool vector_block(const View<T, 1>& v, IndexSpan r) {
  return !v.index[0] && v.gstride[0] >= 1 && fits(v.gstride[0]) && v.lo[0] <= r.lo && r.hi <= v.hi[0];
}

}  // namespace dense_detail

// c[i][j] = beta * c[i][j] + alpha * sum over k of opA(a)[i][k] * opB(b)[k][j], for i in m,
// j in n, k in kk; opA(a)[i][k] is a[k][i] when trans_a (likewise b). beta is 0 or 1.
template <class T>
bool dense_gemm(const View<T, 2>& c, const View<T, 2>& a, bool trans_a, const View<T, 2>& b, bool trans_b, IndexSpan m,
                IndexSpan n, IndexSpan kk, int alpha, int beta) {
  using namespace dense_detail;
  if (m.size() == 0 || n.size() == 0) return true;  // the loops do nothing either
  if (!fits(m.size()) || !fits(n.size()) || !fits(kk.size())) return false;
  if (!row_major_block(c, m, n)) return false;
  if (kk.size() == 0) {  // a sum over nothing: beta 0 leaves zeros, beta 1 the old values
    if (beta == 0)
      for (int64_t i = m.lo; i <= m.hi; ++i)
        for (int64_t j = n.lo; j <= n.hi; ++j) c(i, j) = T(0);
    return true;
  }
  if (!(trans_a ? row_major_block(a, kk, m) : row_major_block(a, m, kk))) return false;
  if (!(trans_b ? row_major_block(b, n, kk) : row_major_block(b, kk, n))) return false;
  const T* pa = trans_a ? &a(kk.lo, m.lo) : &a(m.lo, kk.lo);
  const T* pb = trans_b ? &b(n.lo, kk.lo) : &b(kk.lo, n.lo);
  itrt::dense::gemm(trans_a, trans_b, static_cast<int>(m.size()), static_cast<int>(n.size()),
                    static_cast<int>(kk.size()), T(alpha), pa, static_cast<int>(a.gstride[0]), pb,
                    static_cast<int>(b.gstride[0]), T(beta), &c(m.lo, n.lo), static_cast<int>(c.gstride[0]));
  return true;
}

// y[i] = beta * y[i] + alpha * sum over k of opA(a)[i][k] * x[k], for i in m, k in kk.
template <class T>
bool dense_gemv(const View<T, 1>& y, const View<T, 2>& a, bool trans_a, const View<T, 1>& x, IndexSpan m, IndexSpan kk,
                int alpha, int beta) {
  using namespace dense_detail;
  if (m.size() == 0) return true;
  if (!fits(m.size()) || !fits(kk.size())) return false;
  if (!vector_block(y, m)) return false;
  if (kk.size() == 0) {
    if (beta == 0)
      for (int64_t i = m.lo; i <= m.hi; ++i) y(i) = T(0);
    return true;
  }
  if (!(trans_a ? row_major_block(a, kk, m) : row_major_block(a, m, kk))) return false;
  if (!vector_block(x, kk)) return false;
  const int rows = static_cast<int>(trans_a ? kk.size() : m.size());
  const int cols = static_cast<int>(trans_a ? m.size() : kk.size());
  const T* pa = trans_a ? &a(kk.lo, m.lo) : &a(m.lo, kk.lo);
  itrt::dense::gemv(trans_a, rows, cols, T(alpha), pa, static_cast<int>(a.gstride[0]), &x(kk.lo),
                    static_cast<int>(x.gstride[0]), T(beta), &y(m.lo), static_cast<int>(y.gstride[0]));
  return true;
}

}  // namespace itrt::task
