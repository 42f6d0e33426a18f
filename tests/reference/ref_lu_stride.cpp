// Sequential reference for tests/e2e/programs/lu_stride.it: classic right-looking LU with
// partial pivoting, in place. At step k the pivot is the first row i >= k with the largest
// |a[i][k]| ("max_entry" ties go to the first index, R-37); p[k] records it; rows k and p[k] are
// swapped whole; then for i > k: a[i][k] /= a[k][k] and a[i][j] -= a[i][k] * a[k][j] (j > k).
// Arguments: matrix_file=... lu_file=... pivot_file=... (square matrix).
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_lu_stride", argc, argv, [](const itref::Args& args) {
    auto a = itref::read_data<double>(args.str("matrix_file"));
    if (a.dims.size() != 2 || a.rows() != a.cols() || a.rows() == 0)
      throw std::runtime_error("the matrix must be square and non-empty");
    const std::size_t n = a.rows();
    std::vector<std::int32_t> p(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t best = k;
      for (std::size_t i = k + 1; i < n; ++i)
        if (std::fabs(a.at(i, k)) > std::fabs(a.at(best, k))) best = i;
      p[k] = static_cast<std::int32_t>(best);
      for (std::size_t j = 0; j < n; ++j) std::swap(a.at(k, j), a.at(best, j));
      for (std::size_t i = k + 1; i < n; ++i) {
        a.at(i, k) = a.at(i, k) / a.at(k, k);
        for (std::size_t j = k + 1; j < n; ++j) a.at(i, j) = a.at(i, j) - a.at(i, k) * a.at(k, j);
      }
    }
    itref::write_data(args.str("lu_file"), itref::make_array<double>(a.dims, a.values));
    itref::write_data(args.str("pivot_file"), itref::make_array<std::int32_t>({n}, p));
  });
}
