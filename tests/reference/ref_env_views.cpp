// Sequential reference for tests/e2e/programs/env_views.it, on one plain matrix m (rows r,
// columns c, indices from 0): m *= 2; every other column j (0, 2, ...) *= j + 1; the inner
// block rows 1..r-2, columns 0..(c-1)/2 (if r >= 3) += 1000 i + j; totals: the sum of the last
// row at the end, the sum of the first row of the input.
// Arguments: matrix_file=... output_file=... total_file=... (p=... is ignored).
#include <numeric>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_env_views", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("matrix_file"));
    if (m.dims.size() != 2) throw std::runtime_error("m must be a 2d array");
    const std::size_t r = m.rows(), c = m.cols();
    double first = 0;
    for (std::size_t j = 0; j < c; ++j) first += m.at(0, j);
    for (double& x : m.values) x *= 2;
    for (std::size_t j = 0; j < c; j += 2)
      for (std::size_t i = 0; i < r; ++i) m.at(i, j) *= static_cast<double>(j + 1);
    if (r >= 3)
      for (std::size_t i = 1; i + 1 < r; ++i)
        for (std::size_t j = 0; j <= (c - 1) / 2; ++j)
          m.at(i, j) += 1000.0 * static_cast<double>(i) + static_cast<double>(j);
    double total = 0;
    for (std::size_t j = 0; j < c; ++j) total += m.at(r - 1, j);
    itref::write_data(args.str("output_file"), itref::make_array<double>(m.dims, m.values));
    itref::write_data(args.str("total_file"), itref::make_array<double>({2}, {total, first}));
  });
}
