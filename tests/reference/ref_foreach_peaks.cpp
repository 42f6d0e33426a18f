// Sequential reference for tests/e2e/programs/foreach_peaks.it: the columns of m are split into
// P = min(p, columns) blocks as block_count does (q' = columns / P columns each, the last block
// takes the remainder); each block is visited in chunks of q columns from its first column, and
// every chunk is divided by its largest entry (over all rows and the chunk's columns); last[j]
// is the largest entry of the last chunk of column j's block, sums[j] the sum of that chunk's
// entries before the division.
// Arguments: input_file=... output_file=... last_file=... sums_file=... p=... q=...
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_foreach_peaks", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("input_file"));
    if (m.dims.size() != 2) throw std::runtime_error("m must be a 2d array");
    const std::size_t rows = m.rows(), cols = m.cols();
    const std::size_t p = static_cast<std::size_t>(args.integer("p")), q = static_cast<std::size_t>(args.integer("q"));
    if (p < 1 || q < 1) throw std::runtime_error("p and q must be positive");
    const std::size_t parts = std::min(p, cols), width = cols / parts;
    std::vector<double> last(cols), sums(cols);
    for (std::size_t c = 0; c < parts; ++c) {
      const std::size_t first = c * width, last_col = c + 1 == parts ? cols - 1 : (c + 1) * width - 1;
      for (std::size_t lo = first; lo <= last_col; lo += q) {
        const std::size_t hi = std::min(last_col, lo + q - 1);
        double peak = std::numeric_limits<double>::lowest(), sum = 0;
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t j = lo; j <= hi; ++j) sum += m.at(i, j);
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t j = lo; j <= hi; ++j) peak = std::max(peak, m.at(i, j));
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t j = lo; j <= hi; ++j) m.at(i, j) /= peak;
        for (std::size_t j = first; j <= last_col; ++j) last[j] = peak, sums[j] = sum;
      }
    }
    itref::write_data(args.str("output_file"), itref::make_array<double>(m.dims, m.values));
    itref::write_data(args.str("last_file"), itref::make_array<double>({cols}, last));
    itref::write_data(args.str("sums_file"), itref::make_array<double>({cols}, sums));
  });
}
