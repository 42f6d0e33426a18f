// Sequential reference for tests/e2e/programs/coordinator_arrays.it. x[i] = i / 2 for i = 1..n is
// doubled, then x[1] = -1 and x[n] += 100, and doubled again (x_out, vector_out); its sum
// replaces m[0][0] after each row i of the loaded matrix m was multiplied by i + 1 (matrix_out);
// u[i] = i over the inverted range n...1, tripled, is written in its direction (down_out:
// position p holds index n - p).
// Arguments: n=... matrix_file=... matrix_out=... vector_out=... x_out=... down_out=... (p ignored).
#include <numeric>
#include <stdexcept>
#include <vector>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_coordinator_arrays", argc, argv, [](const itref::Args& args) {
    const long long n = args.integer("n");
    if (n < 1) throw std::runtime_error("n must be at least 1");
    std::vector<double> x(static_cast<size_t>(n));
    for (long long i = 1; i <= n; ++i) x[static_cast<size_t>(i - 1)] = static_cast<double>(i) * 0.5 * 2;
    x[0] = -1.0;
    x[static_cast<size_t>(n - 1)] += 100.0;
    for (double& e : x) e *= 2;
    const double total = std::accumulate(x.begin(), x.end(), 0.0);
    auto m = itref::read_data<double>(args.str("matrix_file"));
    if (m.dims.size() != 2) throw std::runtime_error("the matrix must be 2d");
    for (size_t i = 0; i < m.rows(); ++i)
      for (size_t j = 0; j < m.cols(); ++j) m.values[i * m.cols() + j] *= static_cast<double>(i + 1);
    m.values[0] = total;
    std::vector<double> down(static_cast<size_t>(n));
    for (long long p = 0; p < n; ++p) down[static_cast<size_t>(p)] = 3.0 * static_cast<double>(n - p);
    const std::vector<size_t> len{static_cast<size_t>(n)};
    itref::write_data(args.str("matrix_out"), itref::make_array<double>(m.dims, m.values));
    itref::write_data(args.str("vector_out"), itref::make_array<double>(len, x));
    itref::write_data(args.str("x_out"), itref::make_array<double>(len, x));
    itref::write_data(args.str("down_out"), itref::make_array<double>(len, down));
  });
}
