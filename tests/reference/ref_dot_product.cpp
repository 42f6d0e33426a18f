// Sequential reference for examples/dot-product: result = sum of u[i] * v[i], written as a
// one-element array, exactly like the IT coordinator stores it.
// Arguments: u_file=... v_file=... output_file=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_dot_product", argc, argv, [](const itref::Args& args) {
    auto u = itref::read_data<double>(args.str("u_file"));
    auto v = itref::read_data<double>(args.str("v_file"));
    if (u.dims.size() != 1 || u.dims != v.dims) throw std::runtime_error("u and v must be 1d arrays of one length");
    double total = 0.0;
    for (std::size_t i = 0; i < u.values.size(); ++i) total += u.values[i] * v.values[i];
    itref::write_data(args.str("output_file"), itref::make_array<double>({1}, {total}));
  });
}
