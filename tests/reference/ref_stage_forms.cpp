// Sequential reference for tests/e2e/programs/stage_forms.it. With x of length n and m of n x 2:
//   bonus = 10 when flag is "yes", else 0 (the String "no" never equals "yes");
//   y[i] = x[i] + (n - 1) + bonus, z[i] = y[i] + (n - 1);
//   w[lo] = b + x[lo] at the first index lo of each block b of P = min(p, n) blocks of
//   floor(n / P) (the last block takes the rest), 0 elsewhere;
//   stats = [max x, 3 * sum x, sum over rows of m[i][1] - m[i][0] + 1],
//   twice = [n - 1 + 5, 2 * stats[1], 2 * stats[2]].
// Arguments: x_file= m_file= n= flag= p= y_file= z_file= w_file= stats_file= twice_file=.
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_stage_forms", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    auto m = itref::read_data<int>(args.str("m_file"));
    const long long n = args.integer("n");
    if (x.dims.size() != 1 || static_cast<long long>(x.values.size()) != n || n < 1)
      throw std::runtime_error("x must be a 1d array of n values");
    if (m.dims.size() != 2 || m.dims[0] != static_cast<std::size_t>(n) || m.dims[1] != 2)
      throw std::runtime_error("m must be an n x 2 array");
    const int bonus = args.str("flag") == "yes" ? 10 : 0;
    std::vector<int> y(x.values.size()), z(x.values.size());
    long long sum = 0, widths = 0;
    int top = x.values[0];
    for (size_t i = 0; i < x.values.size(); ++i) {
      y[i] = x.values[i] + static_cast<int>(n - 1) + bonus;
      z[i] = y[i] + static_cast<int>(n - 1);
      sum += x.values[i];
      top = std::max(top, x.values[i]);
      widths += m.values[2 * i + 1] - m.values[2 * i] + 1;
    }
    itref::write_data(args.str("y_file"), itref::make_array<int>(x.dims, y));
    itref::write_data(args.str("z_file"), itref::make_array<int>(x.dims, z));
    std::vector<int> w(x.values.size(), 0);
    const long long blocks = std::min(args.integer("p"), n);
    for (long long b = 0; b < blocks; ++b) {
      const auto lo = static_cast<size_t>(b * (n / blocks));
      w[lo] = static_cast<int>(b) + x.values[lo];
    }
    itref::write_data(args.str("w_file"), itref::make_array<int>(x.dims, w));
    const std::vector<int> stats = {top, static_cast<int>(3 * sum), static_cast<int>(widths)};
    itref::write_data(args.str("stats_file"), itref::make_array<int>({3}, stats));
    itref::write_data(args.str("twice_file"),
                      itref::make_array<int>({3}, {static_cast<int>(n + 4), 2 * stats[1], 2 * stats[2]}));
  });
}
