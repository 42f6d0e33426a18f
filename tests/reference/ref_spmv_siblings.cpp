// Sequential reference for tests/e2e/programs/spmv_siblings.it: `iterations` times
// y = M x (M in CSR: row i has the entries e with row_ptr[i] <= e < row_ptr[i + 1], e an index
// of vals, column cols[e]; repeated columns add up), then x = scale * y (element-wise).
// y starts at zero (a created array, R-16). `Repeat for iteration in [1...iterations]` runs
// |iterations - 1| + 1 times when iterations < 1; so does this reference.
// Arguments: row_ptr_file=... cols_file=... vals_file=... x_file=... scale_file=...
// iterations=... y_output_file=... x_output_file=... (p=... is ignored).
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_spmv_siblings", argc, argv, [](const itref::Args& args) {
    auto row_ptr = itref::read_data<std::int32_t>(args.str("row_ptr_file"));
    auto cols = itref::read_data<std::int32_t>(args.str("cols_file"));
    auto vals = itref::read_data<double>(args.str("vals_file"));
    auto x = itref::read_data<double>(args.str("x_file"));
    auto scale = itref::read_data<double>(args.str("scale_file"));
    const long long n = static_cast<long long>(x.values.size());
    const long long nnz = static_cast<long long>(vals.values.size());
    if (x.dims.size() != 1 || scale.values.size() != x.values.size())
      throw std::runtime_error("x and scale must be 1d arrays of one length");
    if (static_cast<long long>(row_ptr.values.size()) != n + 1)
      throw std::runtime_error("row_ptr must have length(x) + 1 entries");
    if (cols.values.size() != vals.values.size()) throw std::runtime_error("cols and vals differ in length");
    for (std::int32_t c : cols.values)
      if (c < 0 || c >= n) throw std::runtime_error("column index " + std::to_string(c) + " is outside x");
    const long long iterations = args.integer("iterations");
    const long long count = iterations >= 1 ? iterations : 2 - iterations;
    std::vector<double> y(static_cast<std::size_t>(n), 0.0);
    for (long long it = 0; it < count; ++it) {
      for (long long i = 0; i < n; ++i) {
        const long long first = std::max<long long>(0, row_ptr.values[static_cast<std::size_t>(i)]);
        const long long end = std::min<long long>(nnz, row_ptr.values[static_cast<std::size_t>(i + 1)]);
        double total = 0.0;
        for (long long e = first; e < end; ++e)
          total += vals.values[static_cast<std::size_t>(e)] *
                   x.values[static_cast<std::size_t>(cols.values[static_cast<std::size_t>(e)])];
        y[static_cast<std::size_t>(i)] = total;
      }
      for (std::size_t i = 0; i < y.size(); ++i) x.values[i] = scale.values[i] * y[i];
    }
    itref::write_data(args.str("y_output_file"), itref::make_array<double>(x.dims, y));
    itref::write_data(args.str("x_output_file"), itref::make_array<double>(x.dims, x.values));
  });
}
