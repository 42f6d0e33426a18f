// Sequential reference for tests/e2e/programs/subpartition_space.it: every cell (i, j) of m
// becomes 2 m[i][j] + 100 ((j mod q) div 2) — the columns are visited in chunks of q and each
// chunk is split into pieces of two columns, the piece's number being the mark.
// Arguments: input_file=... output_file=... q=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_subpartition_space", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("input_file"));
    if (m.dims.size() != 2) throw std::runtime_error("m must be a 2d array");
    const long long q = args.integer("q");
    if (q < 1) throw std::runtime_error("q must be positive");
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < m.cols(); ++j)
        m.at(i, j) = 2 * m.at(i, j) + 100.0 * static_cast<double>((static_cast<long long>(j) % q) / 2);
    itref::write_data(args.str("output_file"), itref::make_array<double>(m.dims, m.values));
  });
}
