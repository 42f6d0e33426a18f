// Sequential reference for tests/e2e/programs/sibling_writers.it. With x of n >= 1 values:
//   y[i] = x[i] + 100, z[i] = x[i] + 10 except z[0] = -1, stats = [y[n-1]].
// Arguments: x_file= p= q= y_file= z_file= stats_file=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_sibling_writers", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    if (x.dims.size() != 1 || x.values.empty()) throw std::runtime_error("x must be a non-empty 1d array");
    std::vector<int> y(x.values.size()), z(x.values.size());
    for (size_t i = 0; i < x.values.size(); ++i) {
      y[i] = x.values[i] + 100;
      z[i] = x.values[i] + 10;
    }
    z[0] = -1;
    itref::write_data(args.str("y_file"), itref::make_array<int>(x.dims, y));
    itref::write_data(args.str("z_file"), itref::make_array<int>(x.dims, z));
    itref::write_data(args.str("stats_file"), itref::make_array<int>({1}, {y.back()}));
  });
}
