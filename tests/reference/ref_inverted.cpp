// Sequential reference for tests/e2e/programs/inverted.it: with a indexed 0 ... n-1, b and c
// run from n-1 down to 0: b[i] = 10 a[i] + i, c[i] = a[i] - i, written in their direction
// (position p holds index n-1-p).
// Arguments: input_file=... output_file=... strided_file=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_inverted", argc, argv, [](const itref::Args& args) {
    auto a = itref::read_data<double>(args.str("input_file"));
    if (a.dims.size() != 1 || a.values.empty()) throw std::runtime_error("a must be a non-empty 1d array");
    const std::size_t n = a.values.size();
    std::vector<double> b(n), c(n);
    for (std::size_t p = 0; p < n; ++p) {
      const std::size_t i = n - 1 - p;
      b[p] = 10 * a.values[i] + static_cast<double>(i);
      c[p] = a.values[i] - static_cast<double>(i);
    }
    itref::write_data(args.str("output_file"), itref::make_array<double>(a.dims, b));
    itref::write_data(args.str("strided_file"), itref::make_array<double>(a.dims, c));
  });
}
