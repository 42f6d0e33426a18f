// Sequential reference for tests/e2e/programs/converge.it: halve x until its sum is at most
// `limit`, then divide every element by that sum.
// Arguments: input_file=... output_file=... limit=... (p=... is ignored).
#include <numeric>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_converge", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<double>(args.str("input_file"));
    if (x.dims.size() != 1) throw std::runtime_error("x must be a 1d array");
    const double limit = args.real("limit");
    auto sum = [&] { return std::accumulate(x.values.begin(), x.values.end(), 0.0); };
    double total = sum();
    while (total > limit) {
      for (double& v : x.values) v /= 2;
      total = sum();
    }
    for (double& v : x.values) v /= total;
    itref::write_data(args.str("output_file"), itref::make_array<double>(x.dims, x.values));
  });
}
