// Implements dense_kernels.h with OpenBLAS's CBLAS interface, loaded at the first call.
#include "runtime/dense/dense_kernels.h"

#include <cblas.h>
#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace itrt::dense {
namespace {

// The CBLAS functions of OpenBLAS, loaded (dlopen) at the first call with one OpenBLAS thread per
// call (the caller is one of the runtime's worker threads, each busy with its own LPUs), unless
// the user chose a number with OPENBLAS_NUM_THREADS. Linked at start-up instead, OpenBLAS would
// start its thread pool before main and its idle threads would spin on the cores the workers use
// (a third of a 2-core machine's time in a 0.1 s matrix multiply); loaded this way it starts none.
struct Cblas {
    decltype(&cblas_sgemm) sgemm = nullptr;
    decltype(&cblas_dgemm) dgemm = nullptr;
    decltype(&cblas_sgemv) sgemv = nullptr;
    decltype(&cblas_dgemv) dgemv = nullptr;
};

template <class F> void resolve(void* lib, const char* name, F& f) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f) {
        std::fprintf(stderr, "itrt: error: OpenBLAS has no `%s`; reinstall libopenblas0, or compile with --no-blas\n",
                     name);
        std::_Exit(1);
    }
}

const Cblas& cblas() {
    static Cblas c;
    static std::once_flag once;
    std::call_once(once, [] {
        setenv("OPENBLAS_NUM_THREADS", "1", 0); // the user's choice stays
        void* lib = nullptr;
        for (const char* name : {"libopenblas.so.0", "libopenblas.so"})
            if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
                break;
        if (!lib) {
            std::fprintf(stderr,
                         "itrt: error: cannot load OpenBLAS (libopenblas.so.0: %s); install libopenblas0, or compile "
                         "the program with --no-blas\n",
                         dlerror());
            std::_Exit(1);
        }
        resolve(lib, "cblas_sgemm", c.sgemm);
        resolve(lib, "cblas_dgemm", c.dgemm);
        resolve(lib, "cblas_sgemv", c.sgemv);
        resolve(lib, "cblas_dgemv", c.dgemv);
    });
    return c;
}

CBLAS_TRANSPOSE op(bool trans) { return trans ? CblasTrans : CblasNoTrans; }

// ITRT_DENSE_STATS=1: at exit, the number of calls, their floating-point operations, the time
// from the start of the first call to the end of the last (the compute phase of a program whose
// work is these calls, all worker threads together) and the time inside the calls summed over
// threads. Benchmarks compare the first with a BLAS call made by hand.
struct Stats {
    bool on = false;
    std::atomic<int64_t> calls{0}, flops{0}, busy_ns{0};
    std::atomic<int64_t> first_ns{INT64_MAX}, last_ns{0};
    Stats() {
        const char* v = std::getenv("ITRT_DENSE_STATS");
        on = v && std::strcmp(v, "1") == 0;
    }
    ~Stats() {
        if (!on || calls.load() == 0)
            return;
        const double span = static_cast<double>(last_ns.load() - first_ns.load()) * 1e-9;
        std::fprintf(stderr,
                     "ITRT_DENSE_STATS: %lld calls, %.3f GFLOP, first call to last %.4f s (%.1f GFLOP/s), "
                     "inside the calls %.4f s summed over threads\n",
                     static_cast<long long>(calls.load()), static_cast<double>(flops.load()) * 1e-9, span,
                     span > 0 ? static_cast<double>(flops.load()) * 1e-9 / span : 0.0,
                     static_cast<double>(busy_ns.load()) * 1e-9);
    }
};
Stats stats;

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Times one call when ITRT_DENSE_STATS=1 (otherwise one predictable branch).
class Timed {
public:
    explicit Timed(int64_t flops) : flops_(flops), start_(stats.on ? now_ns() : 0) {}
    ~Timed() {
        if (!stats.on)
            return;
        const int64_t end = now_ns();
        stats.calls.fetch_add(1);
        stats.flops.fetch_add(flops_);
        stats.busy_ns.fetch_add(end - start_);
        int64_t f = stats.first_ns.load();
        while (start_ < f && !stats.first_ns.compare_exchange_weak(f, start_)) {
        }
        int64_t l = stats.last_ns.load();
        while (end > l && !stats.last_ns.compare_exchange_weak(l, end)) {
        }
    }
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;

private:
    int64_t flops_, start_;
};

} // namespace

void gemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
          int ldb, float beta, float* c, int ldc) {
    Timed t(2LL * m * n * k);
    cblas().sgemm(CblasRowMajor, op(trans_a), op(trans_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(bool trans_a, bool trans_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b,
          int ldb, double beta, double* c, int ldc) {
    Timed t(2LL * m * n * k);
    cblas().dgemm(CblasRowMajor, op(trans_a), op(trans_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemv(bool trans_a, int rows, int cols, float alpha, const float* a, int lda, const float* x, int incx, float beta,
          float* y, int incy) {
    Timed t(2LL * rows * cols);
    cblas().sgemv(CblasRowMajor, op(trans_a), rows, cols, alpha, a, lda, x, incx, beta, y, incy);
}

void gemv(bool trans_a, int rows, int cols, double alpha, const double* a, int lda, const double* x, int incx,
          double beta, double* y, int incy) {
    Timed t(2LL * rows * cols);
    cblas().dgemv(CblasRowMajor, op(trans_a), rows, cols, alpha, a, lda, x, incx, beta, y, incy);
}

} // namespace itrt::dense
