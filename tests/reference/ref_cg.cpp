// Sequential reference for examples/conjugate-gradient: the same conjugate gradient iteration as
// the IT coordinator drives through its five tasks, on whole vectors:
//     x = 0, r = p = b, rr = r.r, threshold = tolerance^2 * rr
//     if rr > threshold: repeat
//         ap = a p; alpha = rr / (p.ap); x += alpha p; r -= alpha ap; rr' = r.r
//         p = r + (rr' / rr) p; rr = rr'
//     until iterations == max_iterations or rr <= threshold
// Outputs x (solution_file) and [iterations, final rr, initial rr] (summary_file).
// Arguments: matrix_file=... rhs_file=... tolerance=... max_iterations=... solution_file=...
//            summary_file=... (p=, q=, c= are ignored).
#include <stdexcept>
#include <vector>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_cg", argc, argv, [](const itref::Args& args) {
    auto a = itref::read_data<double>(args.str("matrix_file"));
    auto b = itref::read_data<double>(args.str("rhs_file"));
    double tolerance = args.real("tolerance");
    long long max_iterations = args.integer("max_iterations");
    const std::size_t n = b.values.size();
    if (a.dims.size() != 2 || a.dims[0] != n || a.dims[1] != n || b.dims.size() != 1)
      throw std::runtime_error("need an n-by-n matrix and a vector of length n");
    auto dot = [n](const std::vector<double>& x, const std::vector<double>& y) {
      double s = 0.0;
      for (std::size_t i = 0; i < n; ++i) s += x[i] * y[i];
      return s;
    };
    std::vector<double> x(n, 0.0), r = b.values, p = b.values, ap(n, 0.0);
    double rr = dot(r, r);
    const double rr_initial = rr;
    const double threshold = tolerance * tolerance * rr_initial;
    long long iterations = 0;
    if (rr > threshold) {
      do {
        for (std::size_t i = 0; i < n; ++i) {
          double row_total = 0.0;
          for (std::size_t j = 0; j < n; ++j) row_total += a.at(i, j) * p[j];
          ap[i] = row_total;
        }
        double curvature = dot(p, ap);
        double alpha = rr / curvature;
        for (std::size_t i = 0; i < n; ++i) {
          x[i] = x[i] + alpha * p[i];
          r[i] = r[i] - alpha * ap[i];
        }
        double rr_new = dot(r, r);
        double beta = rr_new / rr;
        for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
        rr = rr_new;
        iterations = iterations + 1;
      } while (iterations < max_iterations && rr > threshold);
    }
    itref::write_data(args.str("solution_file"), itref::make_array<double>({n}, x));
    itref::write_data(args.str("summary_file"),
                      itref::make_array<double>({3}, {static_cast<double>(iterations), rr, rr_initial}));
  });
}
