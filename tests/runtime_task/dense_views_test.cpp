// runtime/task/dense_views.h: gemm and gemv on stage views (blocks inside larger row-major
// buffers, any global index offset, transposed operands, alpha -1, beta 0) equal the stage's
// loops computed here directly; views that are not dense row-major blocks are declined (false,
// nothing written) so that the generated code runs its loops.
#include "runtime/task/dense_views.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using itrt::task::IndexSpan;
using itrt::task::View;

namespace {

// A rows x cols row-major buffer (row stride ld >= cols) seen as a view whose global indices
// start at (r0, c0) and which holds rows r0..r0+rows-1, columns c0..c0+cols-1.
template <class T>
struct Matrix {
  std::vector<T> data;
  View<T, 2> v;
  Matrix(int64_t rows, int64_t cols, int64_t ld, int64_t r0, int64_t c0, unsigned seed) {
    data.resize(static_cast<size_t>(rows * ld));
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& x : data) x = static_cast<T>(u(g));
    v.base = data.data();
    v.gstride[0] = v.stride[0] = ld;
    v.gstride[1] = v.stride[1] = 1;
    v.dir[0] = v.dir[1] = 1;
    v.lo[0] = r0, v.hi[0] = r0 + rows - 1;
    v.lo[1] = c0, v.hi[1] = c0 + cols - 1;
    v.origin = v.base - (r0 * ld + c0);
  }
};

template <class T>
struct Vector {
  std::vector<T> data;
  View<T, 1> v;
  Vector(int64_t n, int64_t inc, int64_t i0, unsigned seed) {
    data.resize(static_cast<size_t>(n * inc));
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& x : data) x = static_cast<T>(u(g));
    v.base = data.data();
    v.gstride[0] = v.stride[0] = inc;
    v.dir[0] = 1;
    v.lo[0] = i0, v.hi[0] = i0 + n - 1;
    v.origin = v.base - i0 * inc;
  }
};

template <class T>
void expectNear(const std::vector<T>& got, const std::vector<T>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], tol) << "element " << i;
}

template <class T>
void gemmCase(bool ta, bool tb, int alpha, int beta, double tol) {
  // m = rows 3..9 of c, n = columns 10..16, k = 20..31; operands stored with spare columns
  IndexSpan m{3, 9}, n{10, 16}, k{20, 31};
  Matrix<T> c(9, 8, 11, 2, 10, 1);  // holds rows 2..10, columns 10..17: the block is inside
  Matrix<T> a = ta ? Matrix<T>(12, 7, 9, 20, 3, 2) : Matrix<T>(7, 12, 15, 3, 20, 2);
  Matrix<T> b = tb ? Matrix<T>(7, 12, 13, 10, 20, 3) : Matrix<T>(12, 7, 8, 20, 10, 3);
  Matrix<T> want = c;
  want.v.base = want.data.data();
  want.v.origin = want.v.base - (2 * 11 + 10);
  for (int64_t i = m.lo; i <= m.hi; ++i)
    for (int64_t j = n.lo; j <= n.hi; ++j) {
      T sum = 0;
      for (int64_t q = k.lo; q <= k.hi; ++q) sum += (ta ? a.v(q, i) : a.v(i, q)) * (tb ? b.v(j, q) : b.v(q, j));
      want.v(i, j) = T(beta) * want.v(i, j) + T(alpha) * sum;
    }
  ASSERT_TRUE(itrt::task::dense_gemm(c.v, a.v, ta, b.v, tb, m, n, k, alpha, beta));
  expectNear(c.data, want.data, tol);  // cells outside the block are unchanged too
}

TEST(DenseViews, GemmEqualsTheLoops) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      gemmCase<float>(ta, tb, 1, 1, 1e-4);
      gemmCase<double>(ta, tb, -1, 1, 1e-12);
      gemmCase<double>(ta, tb, 1, 0, 1e-12);
    }
}

TEST(DenseViews, GemvEqualsTheLoops) {
  for (bool ta : {false, true}) {
    IndexSpan m{5, 13}, k{0, 6};
    Matrix<double> a = ta ? Matrix<double>(7, 9, 10, 0, 5, 4) : Matrix<double>(9, 7, 7, 5, 0, 4);
    Vector<double> x(7, 3, 0, 5);  // every third element: a column of a row-major matrix
    Vector<double> y(9, 1, 5, 6);
    std::vector<double> want = y.data;
    for (int64_t i = m.lo; i <= m.hi; ++i) {
      double sum = 0;
      for (int64_t q = k.lo; q <= k.hi; ++q) sum += (ta ? a.v(q, i) : a.v(i, q)) * x.v(q);
      want[static_cast<size_t>(i - 5)] -= sum;
    }
    ASSERT_TRUE(itrt::task::dense_gemv(y.v, a.v, ta, x.v, m, k, -1, 1));
    expectNear(y.data, want, 1e-12);
  }
}

TEST(DenseViews, EmptySumWithBetaZeroLeavesZeros) {
  Matrix<float> c(4, 4, 4, 0, 0, 1), a(4, 4, 4, 0, 0, 2), b(4, 4, 4, 0, 0, 3);
  ASSERT_TRUE(itrt::task::dense_gemm(c.v, a.v, false, b.v, false, {0, 3}, {0, 3}, {0, -1}, 1, 0));
  for (float x : c.data) EXPECT_EQ(x, 0.0f);
}

TEST(DenseViews, DeclinesWhatIsNotADenseBlock) {
  IndexSpan all{0, 3};
  auto declined = [&](const Matrix<float>& c, const Matrix<float>& a, IndexSpan m) {
    Matrix<float> b(4, 4, 4, 0, 0, 3);
    std::vector<float> before = c.data;
    bool done = itrt::task::dense_gemm(c.v, a.v, false, b.v, false, m, all, all, 1, 1);
    if (!done) {
      EXPECT_EQ(c.data, before);  // declined: nothing written
    }
    return !done;
  };
  Matrix<float> c(4, 4, 4, 0, 0, 1), a(4, 4, 4, 0, 0, 2);
  EXPECT_FALSE(declined(c, a, all));    // the dense case itself is taken (and writes c)
  EXPECT_TRUE(declined(c, a, {0, 4}));  // a row beyond what the views hold
  Matrix<float> gappy = c;              // every other column: not unit stride
  gappy.v.origin = gappy.v.base = gappy.data.data();
  gappy.v.gstride[1] = 2;
  gappy.v.hi[1] = 1;
  EXPECT_TRUE(itrt::task::dense_gemm(gappy.v, a.v, false, a.v, false, all, {0, 1}, all, 1, 1) == false);
  Matrix<float> inverted = a;  // a dimension running downwards
  inverted.v.base = inverted.data.data();
  inverted.v.gstride[1] = -1;
  inverted.v.origin = inverted.v.base + 3;
  EXPECT_TRUE(declined(c, inverted, all));
  Matrix<float> strided = a;  // a stride() dimension: positions, not an interval
  strided.v.base = strided.data.data();
  strided.v.origin = strided.v.base;
  const int64_t positions[4] = {0, 2, 4, 6};
  strided.v.index[0] = positions;
  EXPECT_TRUE(declined(c, strided, all));
  Matrix<float> narrow = a;  // rows closer together than the columns used
  narrow.v.base = narrow.v.origin = narrow.data.data();
  narrow.v.gstride[0] = 2;
  EXPECT_TRUE(declined(c, narrow, all));
}

}  // namespace
