// Sequential reference for tests/e2e/programs/function_sections.it: m[i][j] = 10 i + j + s for
// rows i = 1..r and columns j = 0..c-1. summary = [sum of row 2, sum of column 3, sum of rows
// 2..3 x columns 1..4, 1, 2, sum of row 1 from column 2 on, 2 * (m[2][c-1] + m[3][c-1]), 15,
// 9 + (c-1)^2, 4, 2 s, sum of row 2 + 100 c + 1000, m[3][0] + 1000, 20 s, s < r and r != c];
// seg = m[r][1..4]; rev = row 1 backwards; x = rows 2..3 doubled, then tripled, then 0.5 added
// to its first column.
// Arguments: r= c= s= summary_file= seg_file= rev_file= x_file= (p= is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_function_sections", argc, argv, [](const itref::Args& args) {
    const long long r = args.integer("r"), c = args.integer("c"), s = args.integer("s");
    if (r < 3 || c < 6) throw std::runtime_error("need r >= 3 and c >= 6");
    auto m = [&](long long i, long long j) { return static_cast<double>(10 * i + j + s); };
    double row2 = 0, col3 = 0, block = 0, tail = 0;
    for (long long j = 0; j < c; ++j) row2 += m(2, j);
    for (long long i = 1; i <= r; ++i) col3 += m(i, 3);
    for (long long i = 2; i <= 3; ++i)
      for (long long j = 1; j <= 4; ++j) block += m(i, j);
    for (long long j = 2; j < c; ++j) tail += m(1, j);
    const double last = 2 * (m(2, c - 1) + m(3, c - 1));
    std::vector<double> seg, rev, x;
    for (long long j = 1; j <= 4; ++j) seg.push_back(m(r, j));
    for (long long j = c - 1; j >= 0; --j) rev.push_back(m(1, j));
    for (long long i = 2; i <= 3; ++i)
      for (long long j = 0; j < c; ++j) x.push_back(6 * m(i, j) + (j == 0 ? 0.5 : 0.0));
    const auto cols = static_cast<std::size_t>(c);
    const double row2After = row2 + 100.0 * static_cast<double>(c) + 1000;
    itref::write_data(args.str("summary_file"),
                      itref::make_array<double>(
                          {15}, {row2, col3, block, 1, 2, tail, last, 15, static_cast<double>(9 + (c - 1) * (c - 1)), 4,
                                 static_cast<double>(2 * s), row2After, m(3, 0) + 1000, static_cast<double>(20 * s),
                                 s < r && r != c ? 1.0 : 0.0}));
    itref::write_data(args.str("seg_file"), itref::make_array<double>({4}, seg));
    itref::write_data(args.str("rev_file"), itref::make_array<double>({cols}, rev));
    itref::write_data(args.str("x_file"), itref::make_array<double>({2, cols}, x));
  });
}
