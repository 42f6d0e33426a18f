// Sequential reference for tests/e2e/programs/shape_uses.it. With v of length n split into
// P = min(p, n) blocks of floor(n / P) elements (the last block takes the rest):
//   output = v + n (the count of v's indices bounds the Repeat), firsts = 1 at the first index of
//   each block, 0 elsewhere.
// Arguments: input_file= p= q= output_file= firsts_file=.
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_shape_uses", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<int>(args.str("input_file"));
    if (v.dims.size() != 1 || v.values.empty()) throw std::runtime_error("v must be a non-empty 1d array");
    const long long n = static_cast<long long>(v.values.size());
    std::vector<int> out(v.values.size()), firsts(v.values.size(), 0);
    for (size_t i = 0; i < v.values.size(); ++i) out[i] = v.values[i] + static_cast<int>(n);
    const long long blocks = std::min(args.integer("p"), n);
    for (long long b = 0; b < blocks; ++b) firsts[static_cast<size_t>(b * (n / blocks))] = 1;
    itref::write_data(args.str("output_file"), itref::make_array<int>(v.dims, out));
    itref::write_data(args.str("firsts_file"), itref::make_array<int>(v.dims, firsts));
  });
}
