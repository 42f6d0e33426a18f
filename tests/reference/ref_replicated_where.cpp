// Sequential reference for tests/e2e/programs/replicated_where.it: for k = 0, 1, ... (every
// row of m in order), pick = row k as it is now; every other row i gets m[i][j] += factor *
// pick[j].
// Arguments: input_file=... output_file=... factor=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_replicated_where", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("input_file"));
    if (m.dims.size() != 2) throw std::runtime_error("m must be a 2d array");
    const double factor = args.real("factor");
    std::vector<double> pick(m.cols(), 0.0);
    for (std::size_t k = 0; k < m.rows(); ++k) {
      for (std::size_t j = 0; j < m.cols(); ++j) pick[j] = m.at(k, j);
      for (std::size_t i = 0; i < m.rows(); ++i)
        if (i != k)
          for (std::size_t j = 0; j < m.cols(); ++j) m.at(i, j) = m.at(i, j) + factor * pick[j];
    }
    itref::write_data(args.str("output_file"), itref::make_array<double>(m.dims, m.values));
  });
}
