// Sequential reference for tests/e2e/programs/flow_functions.it. With x of n positive values
// split into P = min(p, n) blocks of floor(n / P) (the last block takes the rest): each block of
// more than two elements gets 10 added to every element, then each block is doubled until its
// own sum reaches limit.
// Arguments: input_file= limit= p= output_file=.
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_flow_functions", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("input_file"));
    if (x.dims.size() != 1 || x.values.empty()) throw std::runtime_error("x must be a non-empty 1d array");
    const long long n = static_cast<long long>(x.values.size());
    const long long blocks = std::min(args.integer("p"), n), size = n / blocks, limit = args.integer("limit");
    std::vector<int> out = x.values;
    for (long long b = 0; b < blocks; ++b) {
      const size_t lo = static_cast<size_t>(b * size), hi = b == blocks - 1 ? out.size() - 1 : lo + size - 1;
      if (hi - lo + 1 > 2)
        for (size_t i = lo; i <= hi; ++i) out[i] += 10;
      for (;;) {
        long long s = 0;
        for (size_t i = lo; i <= hi; ++i) s += out[i];
        if (s >= limit) break;
        if (s <= 0) throw std::runtime_error("a block whose sum cannot grow");
        for (size_t i = lo; i <= hi; ++i) out[i] *= 2;
      }
    }
    itref::write_data(args.str("output_file"), itref::make_array<int>(x.dims, out));
  });
}
