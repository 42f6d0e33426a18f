// Sequential reference for tests/e2e/programs/nested.it: `rounds` times, every element becomes
// x * 0.5 + 1, then each of the p blocks of block_count(p) (docs: P = min(p, n), q = floor(n/P),
// block c is c*q ... (c+1)*q - 1, the last one takes the rest) is replaced by its running sums.
// Arguments: input_file=... output_file=... rounds=... p=... (q=... is ignored: Space B only
// scales, element by element).
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_nested", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<double>(args.str("input_file"));
    if (x.dims.size() != 1) throw std::runtime_error("x must be a 1d array");
    const long long rounds = args.integer("rounds");
    const long long n = static_cast<long long>(x.values.size());
    const long long parts = std::min<long long>(args.integer("p"), n);
    const long long q = n / parts;
    for (long long r = 0; r < rounds; ++r) {
      for (double& v : x.values) v = v * 0.5 + 1;
      for (long long c = 0; c < parts; ++c) {
        const long long first = c * q, last = c == parts - 1 ? n - 1 : (c + 1) * q - 1;
        double total = 0.0;
        for (long long i = first; i <= last; ++i) {
          total += x.values[static_cast<std::size_t>(i)];
          x.values[static_cast<std::size_t>(i)] = total;
        }
      }
    }
    itref::write_data(args.str("output_file"), itref::make_array<double>(x.dims, x.values));
  });
}
