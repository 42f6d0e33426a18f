// Sequential reference for tests/e2e/programs/array_values.it. With x of length n split into
// P = min(p, n) blocks of q = floor(n / P) elements (the last block takes the rest), block b:
//   y[i] = x[i] + mean of block b + (2 + 2k) + 4.25,  c[i] = 102 b + 1;
// summary = [3, 5, 1.5, n + 3]; head = y[0..2].
// Arguments: x_file= k= p= y_file= c_file= summary_file= head_file=.
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_array_values", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<double>(args.str("x_file"));
    if (x.dims.size() != 1 || x.values.size() < 3)
      throw std::runtime_error("x must be a 1d array of at least 3 values");
    const long long n = static_cast<long long>(x.values.size());
    const long long k = args.integer("k");
    const long long blocks = std::min(args.integer("p"), n);
    const long long q = n / blocks;
    std::vector<double> y(x.values.size());
    std::vector<int> c(x.values.size());
    for (long long b = 0; b < blocks; ++b) {
      const long long lo = b * q, hi = b == blocks - 1 ? n - 1 : lo + q - 1;
      double sum = 0;
      for (long long i = lo; i <= hi; ++i) sum += x.values[static_cast<size_t>(i)];
      const double mean = sum / static_cast<double>(hi - lo + 1);
      for (long long i = lo; i <= hi; ++i) {
        // the program's order of additions: x * w[2] + mean + (w[0] + w[1]) + 0 + extra
        y[static_cast<size_t>(i)] =
            x.values[static_cast<size_t>(i)] * 1.0 + mean + (2.0 + 2.0 * static_cast<double>(k)) + 0.0 + 4.25;
        c[static_cast<size_t>(i)] = static_cast<int>(102 * b + 1);
      }
    }
    itref::write_data(args.str("y_file"), itref::make_array<double>(x.dims, y));
    itref::write_data(args.str("c_file"), itref::make_array<int>(x.dims, c));
    itref::write_data(args.str("summary_file"),
                      itref::make_array<double>({4}, {3.0, 5.0, 1.5, static_cast<double>(n + 3)}));
    itref::write_data(args.str("head_file"), itref::make_array<double>({3}, {y[0], y[1], y[2]}));
  });
}
