// Sequential reference for tests/e2e/programs/static_globals.it: w = [a, b, c],
// y[i] = a + b x[i] + c x[i]^2 + (n - 1) with n the length of x (indices from 0), plus 1000
// when x's last element is positive, and
// grid[i][j] = 10 i + j for a 2 x 3 grid.
// Arguments: x_file= a= b= c= y_file= w_file= grid_file= (p= is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_static_globals", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<double>(args.str("x_file"));
    if (x.dims.size() != 1 || x.values.size() < 7)
      throw std::runtime_error("x must be a 1d array of at least 7 values");
    const double a = args.real("a"), b = args.real("b"), c = args.real("c");
    const auto last = static_cast<double>(x.values.size() - 1);
    std::vector<double> y;
    const double shift = x.values.back() > 0 ? 1000 : 0;
    for (double v : x.values) y.push_back(a + b * v + c * v * v + last + shift);
    std::vector<int> grid;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) grid.push_back(10 * i + j);
    itref::write_data(args.str("y_file"), itref::make_array<double>(x.dims, y));
    itref::write_data(args.str("w_file"), itref::make_array<double>({3}, {a, b, c}));
    itref::write_data(args.str("grid_file"), itref::make_array<int>({2, 3}, grid));
  });
}
