// Sequential reference for tests/e2e/programs/subpartition_levels.it: the rows of m (indices
// from 0) in min(p, rows) blocks (floor(rows / blocks) each, the last one takes the remainder);
// in a block of n rows, the first floor(n / 2) have h = 0 and the others h = 1 (block_count(2);
// a block of one row is one half, h = 0); every cell becomes 6 m[i][j] + 100 h. The column
// chunks (q) and pieces do not change the result.
// Arguments: input_file= p= output_file= (q= is ignored).
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_subpartition_levels", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("input_file"));
    if (m.dims.size() != 2) throw std::runtime_error("m must be a 2d array");
    const auto rows = static_cast<long long>(m.rows());
    const long long p = args.integer("p");
    if (p < 1) throw std::runtime_error("p must be positive");
    const long long blocks = std::min(p, rows), size = rows / blocks;
    for (long long b = 0; b < blocks; ++b) {
      const long long first = b * size, last = b + 1 == blocks ? rows - 1 : first + size - 1;
      const long long n = last - first + 1, halves = std::min(2LL, n), half = n / halves;
      for (long long i = first; i <= last; ++i) {
        const long long h = std::min((i - first) / half, halves - 1);
        for (std::size_t j = 0; j < m.cols(); ++j)
          m.at(static_cast<std::size_t>(i), j) =
              6 * m.at(static_cast<std::size_t>(i), j) + 100.0 * static_cast<double>(h);
      }
    }
    itref::write_data(args.str("output_file"), itref::make_array<double>(m.dims, m.values));
  });
}
