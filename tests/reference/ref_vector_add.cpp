// Sequential reference for examples/vector-add: c = a + b (Real double-precision).
// Arguments as for the IT program: a_file=... b_file=... c_file=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_vector_add", argc, argv, [](const itref::Args& args) {
    auto a = itref::read_data<double>(args.str("a_file"));
    auto b = itref::read_data<double>(args.str("b_file"));
    if (a.dims.size() != 1 || a.dims != b.dims) throw std::runtime_error("a and b must be 1d arrays of one length");
    auto c = a;
    for (std::size_t i = 0; i < c.values.size(); ++i) c.values[i] = a.values[i] + b.values[i];
    itref::write_data(args.str("c_file"), c);
  });
}
