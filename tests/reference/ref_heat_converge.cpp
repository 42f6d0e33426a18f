// Sequential reference for tests/e2e/programs/heat_converge.it: sweeps t[i] = mean of t[i-1..i+1]
// (ends fixed) until the largest squared change of a sweep is at most `tolerance` or `max_sweeps`
// sweeps ran; writes t and the summary [sweeps, last change] (change = tolerance + 1 if none ran).
// Arguments: input_file=... output_file=... summary_file=... tolerance=... max_sweeps=...
// (p=... is ignored).
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_heat_converge", argc, argv, [](const itref::Args& args) {
    auto t = itref::read_data<double>(args.str("input_file"));
    if (t.dims.size() != 1) throw std::runtime_error("t must be a 1d array");
    const double tolerance = args.real("tolerance");
    const long max_sweeps = args.integer("max_sweeps");
    std::vector<double>& v = t.values;
    double change = tolerance + 1;
    long sweeps = 0;
    while (change > tolerance && sweeps < max_sweeps) {
      const std::vector<double> old = v;
      for (size_t i = 1; i + 1 < v.size(); ++i) v[i] = (old[i - 1] + old[i] + old[i + 1]) / 3;
      change = 0;
      for (size_t i = 0; i < v.size(); ++i) change = std::max(change, (v[i] - old[i]) * (v[i] - old[i]));
      ++sweeps;
    }
    itref::write_data(args.str("output_file"), itref::make_array<double>(t.dims, v));
    itref::write_data(args.str("summary_file"), itref::make_array<double>({2}, {static_cast<double>(sweeps), change}));
  });
}
