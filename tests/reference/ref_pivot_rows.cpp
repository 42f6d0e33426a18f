// Sequential reference for tests/e2e/programs/pivot_rows.it: for every row k in order, best is
// the column of row k's largest entry (the first on ties), row k is copied out, every row i > k
// becomes a[i][j] - 0.25 * row[j] + 0.001 * best, and picks[k] = best.
// Arguments: input_file=... output_file=... picks_file=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_pivot_rows", argc, argv, [](const itref::Args& args) {
    auto a = itref::read_data<double>(args.str("input_file"));
    if (a.dims.size() != 2) throw std::runtime_error("a must be a 2d array");
    const std::size_t n = a.rows(), m = a.cols();
    std::vector<int> picks(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t best = 0;
      for (std::size_t j = 1; j < m; ++j)
        if (a.at(k, j) > a.at(k, best)) best = j;
      std::vector<double> row(a.values.begin() + static_cast<long>(k * m),
                              a.values.begin() + static_cast<long>((k + 1) * m));
      for (std::size_t i = k + 1; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) a.at(i, j) = a.at(i, j) - 0.25 * row[j] + 0.001 * static_cast<double>(best);
      picks[k] = static_cast<int>(best);
    }
    itref::write_data(args.str("output_file"), itref::make_array<double>(a.dims, a.values));
    itref::write_data(args.str("picks_file"), itref::make_array<int>({n}, picks));
  });
}
