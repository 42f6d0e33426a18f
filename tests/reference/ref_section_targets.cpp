// Sequential reference for tests/e2e/programs/section_targets.it, for n >= 5:
//   a[i] = 10 i + 1, then a[0...1] = a[n-2...n-1];
//   m (3 x n, zeros): m[1] = a, m[0][1...2] = a[0...1]; then a[2...3] = 0 and m[2] = a;
//   w = [7, 9, 7, 9] (b.w[0...1] = b.w[2...3]);
//   g = m with g[0] = a and g[2][0...1] = w[0...1] (through a second environment sharing g);
//   x = a with x[1...2] = x[3...4];
//   sums[r] = sum of g[r] + 2 (the stage's static [1, 2, 3] shifted left by its own section).
//   fo = [0, f[0], f[1], f[2], 0] for the 3 values f of f_file; w = [7, 9, 7, 9].
// Arguments: n= p= f_file= m_file= sums_file= x_file= g_file= fo_file= w_file=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_section_targets", argc, argv, [](const itref::Args& args) {
    const long long n = args.integer("n");
    if (n < 5) throw std::runtime_error("n must be at least 5");
    const size_t len = static_cast<size_t>(n);
    std::vector<int> a(len);
    for (size_t i = 0; i < len; ++i) a[i] = static_cast<int>(10 * i + 1);
    a[0] = a[len - 2];
    a[1] = a[len - 1];
    std::vector<int> m(3 * len, 0);
    for (size_t j = 0; j < len; ++j) m[len + j] = a[j];
    m[1] = a[0];
    m[2] = a[1];
    a[2] = a[3] = 0;
    for (size_t j = 0; j < len; ++j) m[2 * len + j] = a[j];
    const int w[4] = {7, 9, 7, 9};
    std::vector<int> g = m;
    for (size_t j = 0; j < len; ++j) g[j] = a[j];
    g[2 * len] = w[0];
    g[2 * len + 1] = w[1];
    std::vector<int> x = a;
    x[1] = a[3];
    x[2] = a[4];
    std::vector<int> sums(3);
    for (size_t r = 0; r < 3; ++r) {
      long long s = 0;
      for (size_t j = 0; j < len; ++j) s += g[r * len + j];
      sums[r] = static_cast<int>(s + 2);
    }
    itref::write_data(args.str("m_file"), itref::make_array<int>({3, len}, m));
    itref::write_data(args.str("g_file"), itref::make_array<int>({3, len}, g));
    itref::write_data(args.str("x_file"), itref::make_array<int>({len}, x));
    itref::write_data(args.str("sums_file"), itref::make_array<int>({3}, sums));
    auto f = itref::read_data<int>(args.str("f_file"));
    if (f.values.size() != 3) throw std::runtime_error("f_file must hold 3 values");
    itref::write_data(args.str("fo_file"), itref::make_array<int>({5}, {0, f.values[0], f.values[1], f.values[2], 0}));
    itref::write_data(args.str("w_file"), itref::make_array<int>({4}, {w[0], w[1], w[2], w[3]}));
  });
}
