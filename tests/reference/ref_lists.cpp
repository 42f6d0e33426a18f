// Sequential reference for tests/e2e/programs/lists.it: best = the `keep` largest of the values
// in decreasing order (of equal values, the one read first comes first); every element of m is
// multiplied by the sum of best.
// Arguments: values_file=... matrix_file=... keep=... best_file=... output_file=... (p ignored)
#include <algorithm>
#include <functional>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_lists", argc, argv, [](const itref::Args& args) {
    auto values = itref::read_data<double>(args.str("values_file"));
    auto m = itref::read_data<double>(args.str("matrix_file"));
    if (values.values.empty()) throw std::runtime_error("the program needs at least one value");
    const long long keep = args.integer("keep");
    if (keep < 1) throw std::runtime_error("keep must be positive");
    std::vector<double> best = values.values;
    std::stable_sort(best.begin(), best.end(), std::greater<double>());
    best.resize(std::min<std::size_t>(best.size(), static_cast<std::size_t>(keep)));
    double s = 0;
    for (double b : best) s += b;
    for (double& x : m.values) x *= s;
    itref::write_data(args.str("best_file"), itref::make_list<double>(best));
    itref::write_data(args.str("output_file"), itref::make_array<double>(m.dims, m.values));
  });
}
