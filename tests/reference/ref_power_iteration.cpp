// Sequential reference for tests/e2e/programs/power_iteration.it: A = tridiag(-1, 2, -1) of order
// n, x[i] = 1 + i % 3; repeat y = A x, norm = |y|^2, x = y / sqrt(norm) while norm changed by more
// than `tolerance` since the previous round (the first round compares with 0) and fewer than
// `max_iterations` rounds ran. Writes [norm, rounds].
// Arguments: n=... tolerance=... max_iterations=... output_file=... (p=... is ignored).
#include <cmath>
#include <vector>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_power_iteration", argc, argv, [](const itref::Args& args) {
    const long long n = args.integer("n"), max_iterations = args.integer("max_iterations");
    const double tolerance = args.real("tolerance");
    std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i) x[static_cast<size_t>(i)] = 1.0 + static_cast<double>(i % 3);
    double lambda = 0, old = 0;
    long long rounds = 0;
    do {
      old = lambda;
      for (long long i = 0; i < n; ++i) {
        double s = 2 * x[static_cast<size_t>(i)];
        if (i > 0) s -= x[static_cast<size_t>(i - 1)];
        if (i + 1 < n) s -= x[static_cast<size_t>(i + 1)];
        y[static_cast<size_t>(i)] = s;
      }
      double norm = 0;
      for (double v : y) norm += v * v;
      const double scale = std::sqrt(norm);
      for (long long i = 0; i < n; ++i) x[static_cast<size_t>(i)] = y[static_cast<size_t>(i)] / scale;
      lambda = norm;
      ++rounds;
    } while ((lambda - old > tolerance || old - lambda > tolerance) && rounds < max_iterations);
    itref::write_data(args.str("output_file"), itref::make_array<double>({2}, {lambda, static_cast<double>(rounds)}));
  });
}
