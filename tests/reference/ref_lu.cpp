// Sequential reference for examples/lu-factorization (Appendix A.2). It replays, step by step,
// what the IT coordinator and its three tasks compute, on whole arrays:
//   "Initiate LU"   u = transpose(a), l = 0 with l[i][i] = 1
//   for each block of rows k ... lastRow (block_size rows at a time):
//     "Transposed LU Factorization" for k' in k ... lastRow:
//        pivot = first j >= k' with the largest u[k'][j]  ("maxEntry": no absolute value)
//        p[k'] = pivot; swap columns k' and pivot of u in rows >= k', of l in rows < k'
//        l[k'][j] = u[k'][j] / u[k'][k'], u[k'][j] = 0, l_row[j] = l[k'][j]     for j > k'
//        u[i][j] -= l_row[j] * u[i][k']        for k' < i <= lastRow, j > k'
//        u[i][k'] -= u[i][j] * l[j][k']        for i > lastRow, k <= j < k'
//     "SAXPY" (when lastRow < max): u[i][j] -= sum over k <= t <= lastRow of u[i][t] * l[t][j]
//        for i, j > lastRow, the sum taken q terms at a time (the sub-partitions of size q)
// The outputs u, l, p are the IT program's arrays: u and l hold U and L transposed, so that
// P a = transpose(l) * transpose(u), with P the row swaps (k, p[k]) applied for k = 0, 1, ...
// Arguments: argument_matrix_file=... block_size=... upper_matrix_file=... lower_matrix_file=...
//            pivot_matrix_file=... [q=...] (the SAXPY sub-partition size; default: whole blocks).
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ref_common.h"

namespace {

struct Matrix {
  std::size_t n;
  std::vector<double> v;
  double& operator()(std::size_t i, std::size_t j) { return v[i * n + j]; }
};

}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_lu", argc, argv, [](const itref::Args& args) {
    auto a = itref::read_data<double>(args.str("argument_matrix_file"));
    long long block = args.integer("block_size");
    if (a.dims.size() != 2 || a.dims[0] != a.dims[1] || a.dims[0] == 0)
      throw std::runtime_error("the argument matrix must be square and non-empty");
    if (block <= 0) throw std::runtime_error("block_size must be positive");
    const std::size_t n = a.dims[0];
    long long q = args.integer("q", static_cast<long long>(n));
    if (q <= 0) throw std::runtime_error("q must be positive");

    // Initiate LU
    Matrix u{n, std::vector<double>(n * n)}, l{n, std::vector<double>(n * n, 0.0)};
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) u(j, i) = a.at(i, j);
    for (std::size_t i = 0; i < n; ++i) l(i, i) = 1.0;
    std::vector<std::int32_t> p(n, 0);
    std::vector<double> l_row(n, 0.0), p_column(n, 0.0);

    const std::size_t max1 = n - 1, max2 = n - 1;
    for (std::size_t k = 0; k <= max1; k += static_cast<std::size_t>(block)) {
      std::size_t last = std::min(k + static_cast<std::size_t>(block) - 1, max1);
      // Transposed LU Factorization with k_range = k ... last
      for (std::size_t kk = k; kk <= last; ++kk) {
        std::size_t pivot = kk;
        for (std::size_t j = kk + 1; j < n; ++j)
          if (u(kk, j) > u(kk, pivot)) pivot = j;
        p[kk] = static_cast<std::int32_t>(pivot);
        for (std::size_t i = kk; i < n; ++i) std::swap(u(i, kk), u(i, pivot));
        for (std::size_t i = 0; i < kk; ++i) std::swap(l(i, kk), l(i, pivot));
        for (std::size_t j = kk + 1; j < n; ++j) {
          l(kk, j) = u(kk, j) / u(kk, kk);
          u(kk, j) = 0.0;
          l_row[j] = l(kk, j);
        }
        for (std::size_t i = kk + 1; i <= last; ++i)
          for (std::size_t j = kk + 1; j < n; ++j) u(i, j) = u(i, j) - l_row[j] * u(i, kk);
        for (std::size_t i = k; i < kk; ++i) p_column[i] = l(i, kk);
        for (std::size_t i = last + 1; i < n; ++i)
          for (std::size_t j = k; j < kk; ++j) u(i, kk) = u(i, kk) - u(i, j) * p_column[j];
      }
      // SAXPY on the views a = u[last+1...max1][k...last], b = l[k...last][last+1...max2],
      // c = u[last+1...max1][last+1...max2]
      if (last < max1) {
        for (std::size_t i = last + 1; i <= max1; ++i)
          for (std::size_t j = last + 1; j <= max2; ++j)
            for (std::size_t t0 = k; t0 <= last; t0 += static_cast<std::size_t>(q)) {
              std::size_t t1 = std::min(last, t0 + static_cast<std::size_t>(q) - 1);
              double total = 0.0;
              for (std::size_t t = t0; t <= t1; ++t) total += u(i, t) * l(t, j);
              u(i, j) = u(i, j) - total;
            }
      }
    }
    itref::write_data(args.str("upper_matrix_file"), itref::make_array<double>({n, n}, u.v));
    itref::write_data(args.str("lower_matrix_file"), itref::make_array<double>({n, n}, l.v));
    itref::write_data(args.str("pivot_matrix_file"), itref::make_array<std::int32_t>({n}, p));
  });
}
