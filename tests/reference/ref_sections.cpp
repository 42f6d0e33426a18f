// Sequential reference for tests/e2e/programs/sections.it. m (indices from 0) first gets, for
// k = 0, 1, ... in turn, pick = row k as it is now and every other row i += factor * pick; the
// columns lo..hi are negated. Then col = column c, seg[t] = m[r][lo + t], rev = col backwards, blk[a][b] = m[r + a -
// 1][c + b - 1] for a, b from 1, column c of m gets rows - 1 added, back = m, and finally m is doubled. Arguments:
// input_file= factor= c= r= lo= hi= output_file= col_file= seg_file= rev_file= blk_file= back_file= (p= is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_sections", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("input_file"));
    if (m.dims.size() != 2) throw std::runtime_error("m must be a 2d array");
    const double factor = args.real("factor");
    const std::size_t rows = m.rows(), cols = m.cols();
    const auto c = static_cast<std::size_t>(args.integer("c")), r = static_cast<std::size_t>(args.integer("r"));
    const auto lo = static_cast<std::size_t>(args.integer("lo")), hi = static_cast<std::size_t>(args.integer("hi"));
    if (c >= cols || r >= rows || lo > hi || hi >= cols) throw std::runtime_error("c, r, lo, hi outside m");
    std::vector<double> pick(cols);
    for (std::size_t k = 0; k < rows; ++k) {
      for (std::size_t j = 0; j < cols; ++j) pick[j] = m.at(k, j);
      for (std::size_t i = 0; i < rows; ++i)
        if (i != k)
          for (std::size_t j = 0; j < cols; ++j) m.at(i, j) += factor * pick[j];
    }
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = lo; j <= hi; ++j) m.at(i, j) = -m.at(i, j);
    std::vector<double> col(rows), seg, rev(rows), blk;
    for (std::size_t i = 0; i < rows; ++i) col[i] = m.at(i, c);
    for (std::size_t t = lo; t <= hi; ++t) seg.push_back(m.at(r, t));
    for (std::size_t i = 0; i < rows; ++i) rev[i] = col[rows - 1 - i];
    for (std::size_t a = r; a < rows; ++a)
      for (std::size_t b = c; b < cols; ++b) blk.push_back(m.at(a, b));
    for (std::size_t i = 0; i < rows; ++i) m.at(i, c) += static_cast<double>(rows - 1);
    const auto back = m.values;
    for (auto& v : m.values) v *= 2;
    itref::write_data(args.str("output_file"), itref::make_array<double>(m.dims, m.values));
    itref::write_data(args.str("col_file"), itref::make_array<double>({rows}, col));
    itref::write_data(args.str("seg_file"), itref::make_array<double>({hi - lo + 1}, seg));
    itref::write_data(args.str("rev_file"), itref::make_array<double>({rows}, rev));
    itref::write_data(args.str("blk_file"), itref::make_array<double>({rows - r, cols - c}, blk));
    itref::write_data(args.str("back_file"), itref::make_array<double>(m.dims, back));
  });
}
