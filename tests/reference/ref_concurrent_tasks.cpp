// Sequential reference for tests/e2e/programs/concurrent_tasks.it: each element c of the left and
// right arrays becomes x after `rounds` steps of x = 0.9999 x + 0.0001 c from x = 0; the summary
// is [the sum of the relaxed left array, the relaxed right[0]]; loop_out is the right array after
// one step.
// Arguments: left_file=... right_file=... rounds=... left_out=... right_out=... summary_file=...
//            loop_out=... (p=... and loops=... are ignored).
#include <stdexcept>

#include "ref_common.h"

namespace {
std::vector<double> relax(std::vector<double> v, long rounds) {
  for (double& c : v) {
    double x = 0.0;
    for (long k = 0; k < rounds; ++k) x = 0.9999 * x + 0.0001 * c;
    c = x;
  }
  return v;
}
}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_concurrent_tasks", argc, argv, [](const itref::Args& args) {
    auto left = itref::read_data<double>(args.str("left_file"));
    auto right = itref::read_data<double>(args.str("right_file"));
    if (left.dims.size() != 1 || right.dims.size() != 1 || right.values.empty())
      throw std::runtime_error("left and right must be non-empty 1d arrays");
    const long rounds = args.integer("rounds");
    itref::write_data(args.str("loop_out"), itref::make_array<double>(right.dims, relax(right.values, 1)));
    left.values = relax(left.values, rounds);
    right.values = relax(right.values, rounds);
    double sum = 0;
    for (double x : left.values) sum += x;
    itref::write_data(args.str("left_out"), itref::make_array<double>(left.dims, left.values));
    itref::write_data(args.str("right_out"), itref::make_array<double>(right.dims, right.values));
    itref::write_data(args.str("summary_file"), itref::make_array<double>({2}, {sum, right.values.front()}));
  });
}
