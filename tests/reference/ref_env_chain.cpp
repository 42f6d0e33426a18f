// Sequential reference for tests/e2e/programs/env_chain.it: v = 2 v + 2 amount.
// Arguments: input_file=... amount=... output_file=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_env_chain", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<double>(args.str("input_file"));
    if (v.dims.size() != 1) throw std::runtime_error("v must be a 1d array");
    const double amount = args.real("amount");
    for (double& x : v.values) x = 2 * x + amount + amount;
    itref::write_data(args.str("output_file"), itref::make_array<double>(v.dims, v.values));
  });
}
