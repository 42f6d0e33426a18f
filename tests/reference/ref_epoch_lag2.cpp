// Sequential reference for tests/e2e/programs/epoch_lag2.it: three buffers (the two previous
// levels and the new one), all starting as the input; `steps` times, the interior cells become
//     1.6 * prev[i] - 0.6 * prev2[i] + 0.05 * (prev[i-1] + prev[i+1] - 2 * prev[i])
// and the two end cells stay fixed; in steps whose (1-based) number is a multiple of `skip` the
// new level equals the previous one.
// Arguments: input_file=... output_file=... steps=... skip=... (p ignored).
#include <stdexcept>
#include <utility>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_epoch_lag2", argc, argv, [](const itref::Args& args) {
    auto prev = itref::read_data<double>(args.str("input_file"));
    if (prev.dims.size() != 1) throw std::runtime_error("the signal must be a 1d array");
    const long long steps = args.integer("steps"), skip = args.integer("skip");
    if (steps < 1 || skip == 0) throw std::runtime_error("steps must be positive and skip non-zero");
    auto prev2 = prev, next = prev;
    const std::size_t n = prev.values.size();
    for (long long s = 1; s <= steps; ++s) {
      const auto& a = prev.values;
      const auto& b = prev2.values;
      for (std::size_t i = 1; i + 1 < n; ++i)
        next.values[i] = s % skip == 0 ? a[i] : 1.6 * a[i] - 0.6 * b[i] + 0.05 * (a[i - 1] + a[i + 1] - 2 * a[i]);
      std::swap(prev2, prev);  // prev2 <- prev
      std::swap(prev, next);   // prev <- next; next now holds the old prev2, rewritten next step
    }
    itref::write_data(args.str("output_file"), prev);
  });
}
