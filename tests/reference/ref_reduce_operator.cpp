// Sequential reference for tests/e2e/programs/reduce_operator.it: [max of v, min of v].
// Arguments: input_file=... output_file=... (p=... is ignored).
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_reduce_operator", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<double>(args.str("input_file"));
    if (v.values.empty()) throw std::runtime_error("v must not be empty");
    const auto [lo, hi] = std::minmax_element(v.values.begin(), v.values.end());
    itref::write_data(args.str("output_file"), itref::make_array<double>({2}, {*hi, *lo}));
  });
}
