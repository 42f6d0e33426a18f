// Sequential reference for tests/e2e/programs/env_scalars.it: found = the last v[k] above the
// threshold (0 if none), steps = the length of v; then v += found and last = the last element.
// Arguments: input_file=... threshold=... output_file=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_env_scalars", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<double>(args.str("input_file"));
    if (v.dims.size() != 1 || v.values.empty()) throw std::runtime_error("v must be a non-empty 1d array");
    const double threshold = args.real("threshold");
    double found = 0;
    for (double x : v.values)
      if (x > threshold) found = x;
    const double steps = static_cast<double>(v.values.size());
    const double last = v.values.back() + found;
    itref::write_data(args.str("output_file"), itref::make_array<double>({3}, {found, steps, last}));
  });
}
