// Sequential reference for tests/e2e/programs/cg_csr.it: conjugate gradient on a sparse
// symmetric positive definite matrix in CSR form (row_ptr, cols, vals), the iteration the IT
// coordinator drives through its five environments, on whole vectors:
//     x = 0, r = p = b, rr = r.r, threshold = tolerance^2 * rr
//     repeat: ap = A p; alpha = rr / (p.ap); x += alpha p; r -= alpha ap; rr' = r.r
//             p = (rr' / rr) p + r; rr = rr'
//     until iterations == max_iterations or rr <= threshold          (the body runs at least once)
// Outputs x (solution_file) and [iterations, final rr, initial rr] (summary_file).
// Arguments: row_ptr_file= cols_file= vals_file= rhs_file= tolerance= max_iterations=
//            solution_file= summary_file= (zero_file= and p= are ignored).
//
// With grid=G it instead writes a test matrix: the 5-point Laplacian of a G-by-G grid with a
// seeded random shift of each diagonal entry in [0, 1) (seed=S), symmetric and diagonally
// dominant, hence positive definite; rows in grid order, columns ascending within a row.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ref_common.h"

namespace {

void write_poisson(const itref::Args& args) {
  const long long g = args.integer("grid");
  std::uint64_t state = static_cast<std::uint64_t>(args.integer("seed", 1)) * 2654435761u + 12345u;
  auto shift = [&state] {  // a small linear congruential generator: only the shape matters
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  std::vector<int> row_ptr{0}, cols;
  std::vector<double> vals;
  for (long long r = 0; r < g; ++r) {
    for (long long c = 0; c < g; ++c) {
      const long long i = r * g + c;
      auto add = [&](long long j, double v) {
        cols.push_back(static_cast<int>(j));
        vals.push_back(v);
      };
      if (r > 0) add(i - g, -1.0);
      if (c > 0) add(i - 1, -1.0);
      add(i, 4.0 + shift());
      if (c + 1 < g) add(i + 1, -1.0);
      if (r + 1 < g) add(i + g, -1.0);
      row_ptr.push_back(static_cast<int>(cols.size()));
    }
  }
  itref::write_data(args.str("row_ptr_file"), itref::make_array<int>({row_ptr.size()}, row_ptr));
  itref::write_data(args.str("cols_file"), itref::make_array<int>({cols.size()}, cols));
  itref::write_data(args.str("vals_file"), itref::make_array<double>({vals.size()}, vals));
}

void solve(const itref::Args& args) {
  auto row_ptr = itref::read_data<int>(args.str("row_ptr_file")).values;
  auto cols = itref::read_data<int>(args.str("cols_file")).values;
  auto vals = itref::read_data<double>(args.str("vals_file")).values;
  auto b = itref::read_data<double>(args.str("rhs_file")).values;
  const double tolerance = args.real("tolerance");
  const long long max_iterations = args.integer("max_iterations");
  const std::size_t n = b.size();
  if (row_ptr.size() != n + 1 || cols.size() != vals.size())
    throw std::runtime_error("row_ptr must have n + 1 entries and cols as many as vals");
  auto dot = [n](const std::vector<double>& x, const std::vector<double>& y) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
  };
  std::vector<double> x(n, 0.0), r = b, p = b, ap(n, 0.0);
  double rr = dot(r, r);
  const double rr_initial = rr;
  const double threshold = tolerance * tolerance * rr_initial;
  long long iterations = 0;
  do {
    for (std::size_t i = 0; i < n; ++i) {
      double total = 0.0;
      for (int e = row_ptr[i]; e < row_ptr[i + 1]; ++e) total += vals[e] * p[cols[e]];
      ap[i] = total;
    }
    const double alpha = rr / dot(p, ap);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * p[i];
    for (std::size_t i = 0; i < n; ++i) r[i] -= alpha * ap[i];
    const double rr_new = dot(r, r);
    const double beta = rr_new / rr;
    for (std::size_t i = 0; i < n; ++i) p[i] = beta * p[i] + r[i];
    rr = rr_new;
    iterations = iterations + 1;
  } while (iterations < max_iterations && rr > threshold);
  itref::write_data(args.str("solution_file"), itref::make_array<double>({n}, x));
  itref::write_data(args.str("summary_file"),
                    itref::make_array<double>({3}, {static_cast<double>(iterations), rr, rr_initial}));
}

}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_cg_csr", argc, argv, [](const itref::Args& args) {
    if (args.has("grid"))
      write_poisson(args);
    else
      solve(args);
  });
}
