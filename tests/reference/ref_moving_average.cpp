// Sequential reference for examples/moving-average: y[i] = mean of x[max(0, i-lag) ... i],
// summed in increasing index order as the IT stage does.
// Arguments: input_file=... output_file=... lag=... (p=... is ignored).
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_moving_average", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<double>(args.str("input_file"));
    long long lag = args.integer("lag");
    if (x.dims.size() != 1) throw std::runtime_error("the input must be a 1d array");
    if (lag <= 0) throw std::runtime_error("lag must be positive (it is a padding width)");
    auto y = x;
    long long n = static_cast<long long>(x.values.size());
    for (long long i = 0; i < n; ++i) {
      long long first = std::max(0LL, i - lag);
      double total = 0.0;
      for (long long t = first; t <= i; ++t) total = total + x.values[static_cast<std::size_t>(t)];
      y.values[static_cast<std::size_t>(i)] = total / static_cast<double>(i - first + 1);
    }
    itref::write_data(args.str("output_file"), y);
  });
}
