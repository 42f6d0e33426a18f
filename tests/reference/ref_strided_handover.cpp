// Sequential reference for tests/e2e/programs/strided_handover.it: a becomes 2a + i (row index),
// b[i][j] = 1000 i + j, c = b + 0.5. Arguments: input_file=... a_file=... b_file=... c_file=...
// (the partition arguments s=... p=... are ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_strided_handover", argc, argv, [](const itref::Args& args) {
    auto a = itref::read_data<double>(args.str("input_file"));
    if (a.dims.size() != 2) throw std::runtime_error("a must be a 2d array");
    auto b = a, c = a;
    for (std::size_t i = 0; i < a.rows(); ++i)
      for (std::size_t j = 0; j < a.cols(); ++j) {
        a.at(i, j) = a.at(i, j) * 2 + static_cast<double>(i);
        b.at(i, j) = static_cast<double>(i * 1000 + j);
        c.at(i, j) = b.at(i, j) + 0.5;
      }
    itref::write_data(args.str("a_file"), itref::make_array<double>(a.dims, a.values));
    itref::write_data(args.str("b_file"), itref::make_array<double>(b.dims, b.values));
    itref::write_data(args.str("c_file"), itref::make_array<double>(c.dims, c.values));
  });
}
