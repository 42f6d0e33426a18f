// Hand-written LU with partial pivoting (double, in place), sequential or with T threads
// (threads=T), same .bin files and arguments as tests/e2e/programs/lu_stride.it:
// matrix_file=... lu_file=... pivot_file=... At step k the pivot is the first row i >= k with the
// largest |a[i][k]| (as ref_lu_stride); rows k and p[k] are swapped whole; then every row i > k
// gets its multiplier and the trailing update. With threads, thread 0 finds the pivot and swaps
// (O(n) per step), then the rows k+1..n-1 are split into T contiguous blocks (a barrier on each
// side of the update).
#include "bench_io.h"
#include <barrier>
#include <cmath>
#include <cstdint>
#include <thread>
#include <utility>

int main(int argc, char** argv) {
  auto args = kv(argc, argv);
  Array<double> a = read_array<double>(args["matrix_file"]);
  const long n = a.dims[0];
  std::vector<std::int32_t> p(static_cast<size_t>(n), 0);
  int t = args.count("threads") ? std::atoi(args["threads"].c_str()) : 1;
  double* m = a.v.data();
  std::barrier sync(t);
  auto work = [&](int me) {
    for (long k = 0; k < n; ++k) {
      if (me == 0) {
        long best = k;
        for (long i = k + 1; i < n; ++i)
          if (std::fabs(m[i * n + k]) > std::fabs(m[best * n + k])) best = i;
        p[static_cast<size_t>(k)] = static_cast<std::int32_t>(best);
        if (best != k)
          for (long j = 0; j < n; ++j) std::swap(m[k * n + j], m[best * n + j]);
      }
      sync.arrive_and_wait();
      const long rows = n - k - 1, r0 = k + 1 + rows * me / t, r1 = k + 1 + rows * (me + 1) / t;
      const double* pk = m + k * n;
      for (long i = r0; i < r1; ++i) {
        double* ai = m + i * n;
        const double l = ai[k] = ai[k] / pk[k];
        for (long j = k + 1; j < n; ++j) ai[j] = ai[j] - l * pk[j];
      }
      sync.arrive_and_wait();
    }
  };
  std::vector<std::thread> ts;
  for (int k = 0; k < t; ++k) ts.emplace_back(work, k);
  for (auto& x : ts) x.join();
  write_array(args["lu_file"], a.dims, a.v.data());
  write_array(args["pivot_file"], {n}, p.data());
}
