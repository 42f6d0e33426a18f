// Sequential reference for tests/e2e/programs/move_order.it. With x of n values and an index k:
//   w[j] = x[k] + j, v = x + 101, s = 2 (x + 1).
// Arguments: x_file= k= p= c= w_file= v_file= s_file=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_move_order", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    const long long k = args.integer("k");
    if (x.dims.size() != 1 || k < 0 || k >= static_cast<long long>(x.values.size()))
      throw std::runtime_error("x must be a 1d array holding index k");
    std::vector<int> w(x.values.size()), v(x.values.size()), s(x.values.size());
    for (size_t j = 0; j < x.values.size(); ++j) {
      w[j] = x.values[static_cast<size_t>(k)] + static_cast<int>(j);
      v[j] = x.values[j] + 101;
      s[j] = 2 * (x.values[j] + 1);
    }
    itref::write_data(args.str("w_file"), itref::make_array<int>(x.dims, w));
    itref::write_data(args.str("v_file"), itref::make_array<int>(x.dims, v));
    itref::write_data(args.str("s_file"), itref::make_array<int>(x.dims, s));
  });
}
