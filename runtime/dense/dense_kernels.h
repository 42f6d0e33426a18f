// Dense linear-algebra kernels on row-major blocks: BLAS gemm and gemv (OpenBLAS) for float and
// double. Callers pass raw pointers, leading dimensions and sizes already checked to be a valid
// BLAS call (runtime/task/dense_views.h does that for stage views). Each call runs on the
// calling thread only: the runtime's worker threads already run one LPU each, so OpenBLAS is
// set to one thread at the first call unless OPENBLAS_NUM_THREADS says otherwise.
#pragma once

namespace itrt::dense {

// c[m x n] = alpha * op(a) * op(b) + beta * c, op(a) m x k, op(b) k x n; op transposes when
// trans_*; lda, ldb, ldc are the row strides of the stored matrices (elements).
void gemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
          int ldb, float beta, float* c, int ldc);
void gemm(bool trans_a, bool trans_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b,
          int ldb, double beta, double* c, int ldc);

// y[rows of op(a)] = alpha * op(a) * x + beta * y, a stored rows x cols with row stride lda;
// incx, incy: element strides of the vectors (positive).
void gemv(bool trans_a, int rows, int cols, float alpha, const float* a, int lda, const float* x, int incx, float beta,
          float* y, int incy);
void gemv(bool trans_a, int rows, int cols, double alpha, const double* a, int lda, const double* x, int incx,
          double beta, double* y, int incy);

} // namespace itrt::dense
