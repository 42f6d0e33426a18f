// Sequential reference for examples/row-max: every row sum of m, the largest one, and the first
// row where it occurs ("max_entry": ties go to the first index).
// Arguments: matrix_file=... output_file=... (summary: [max_sum, max_row]) sums_file=...
// (s=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_row_max", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("matrix_file"));
    if (m.dims.size() != 2 || m.dims[0] == 0) throw std::runtime_error("the matrix must be 2d with at least one row");
    std::vector<double> sums(m.rows(), 0.0);
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < m.cols(); ++j) sums[i] += m.at(i, j);
    std::size_t best = 0;
    for (std::size_t i = 1; i < sums.size(); ++i)
      if (sums[i] > sums[best]) best = i;
    itref::write_data(args.str("sums_file"), itref::make_array<double>({sums.size()}, sums));
    itref::write_data(args.str("output_file"), itref::make_array<double>({2}, {sums[best], static_cast<double>(best)}));
  });
}
