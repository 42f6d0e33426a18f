// Sequential reference for tests/e2e/programs/block_lu.it: right-looking LU without pivoting,
// in place (the 2d block-cyclic distribution of the program does not change the arithmetic):
// for k = 0, 1, ...: a[i][k] /= a[k][k] (i > k), then a[i][j] -= a[i][k] * a[k][j] (i, j > k).
// Arguments: matrix_file=... lu_file=... (b=... is ignored). Square matrix.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_block_lu", argc, argv, [](const itref::Args& args) {
    auto a = itref::read_data<double>(args.str("matrix_file"));
    if (a.dims.size() != 2 || a.rows() != a.cols() || a.rows() == 0)
      throw std::runtime_error("the matrix must be square and non-empty");
    const std::size_t n = a.rows();
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i = k + 1; i < n; ++i) {
        a.at(i, k) = a.at(i, k) / a.at(k, k);
        for (std::size_t j = k + 1; j < n; ++j) a.at(i, j) = a.at(i, j) - a.at(i, k) * a.at(k, j);
      }
    itref::write_data(args.str("lu_file"), itref::make_array<double>(a.dims, a.values));
  });
}
