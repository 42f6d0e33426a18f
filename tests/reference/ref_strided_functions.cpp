// Sequential reference for tests/e2e/programs/strided_functions.it: total = sum of m, sq = sum
// of its squares, rows = rows2 = its row count, peak = the largest value of its column 1,
// weighted = the sum of (i + 1) m[i][0] (all before m changes); then, of the `lpus` parts that
// deal out m's rows (row i to part i mod lpus), each whose rows add up to more than 0 in column 0
// negates them there; then m[i][j] += i + 1000 j (indices from 0), and w is scaled by f.
// summary_file holds [total, sq, rows, peak, rows2, weighted].
// Arguments: m_file= w_file= f= lpus= m_out= w_out= summary_file= (b= is ignored).
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_strided_functions", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("m_file"));
    auto w = itref::read_data<double>(args.str("w_file"));
    if (m.dims.size() != 2 || w.dims.size() != 1) throw std::runtime_error("m must be 2d and w 1d");
    const double f = args.real("f");
    double total = 0, sq = 0;
    for (double v : m.values) {
      total += v;
      sq += v * v;
    }
    const auto rows = static_cast<double>(m.rows());
    if (m.cols() < 2) throw std::runtime_error("m needs at least 2 columns");
    double peak = m.at(0, 1);
    for (std::size_t i = 0; i < m.rows(); ++i) peak = std::max(peak, m.at(i, 1));
    double weighted = 0;
    for (std::size_t i = 0; i < m.rows(); ++i) weighted += static_cast<double>(i + 1) * m.at(i, 0);
    const auto lpus = static_cast<std::size_t>(args.integer("lpus"));
    if (lpus == 0) throw std::runtime_error("lpus must be positive");
    for (std::size_t c = 0; c < lpus; ++c) {
      double column = 0;
      for (std::size_t i = c; i < m.rows(); i += lpus) column += m.at(i, 0);
      if (column > 0)
        for (std::size_t i = c; i < m.rows(); i += lpus) m.at(i, 0) = -m.at(i, 0);
    }
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < m.cols(); ++j) m.at(i, j) += static_cast<double>(i) + 1000.0 * static_cast<double>(j);
    for (double& v : w.values) v *= f;
    itref::write_data(args.str("m_out"), itref::make_array<double>(m.dims, m.values));
    itref::write_data(args.str("w_out"), itref::make_array<double>(w.dims, w.values));
    itref::write_data(args.str("summary_file"),
                      itref::make_array<double>({6}, {total, sq, rows, peak, rows, weighted}));
  });
}
