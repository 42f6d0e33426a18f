// Sequential reference for tests/e2e/programs/later_writes.it. With x (n values) and an index k:
// s = 5, w = 10 everywhere but w[k] = 100, and x[i] becomes x[i] + s + w[i].
// Arguments: x_file= k= p= x_out= w_out=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_later_writes", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    const long long k = args.integer("k");
    if (x.dims.size() != 1 || k < 0 || k >= static_cast<long long>(x.values.size()))
      throw std::runtime_error("x must be a 1d array holding index k");
    std::vector<int> w(x.values.size(), 10);
    w[static_cast<size_t>(k)] = 100;
    const int s = 5;
    for (size_t i = 0; i < x.values.size(); ++i) x.values[i] += s + w[i];
    itref::write_data(args.str("x_out"), x);
    itref::write_data(args.str("w_out"), itref::make_array<int>(x.dims, w));
  });
}
