// Sequential reference for tests/e2e/programs/part_functions.it: above = how many x exceed t,
// peak = max x, held = length of x (all before x is scaled), x scaled by f, and
// m[i][j] += i + 1000 j (indices from 0), column_peak = max of column 0 after that, then row
// `row` of m scaled by f. summary_file holds [above, peak, held, column_peak].
// Arguments: x_file= m_file= t= f= row= x_out= m_out= summary_file= (p= is ignored).
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_part_functions", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<double>(args.str("x_file"));
    auto m = itref::read_data<double>(args.str("m_file"));
    if (x.dims.size() != 1 || m.dims.size() != 2) throw std::runtime_error("x must be 1d and m 2d");
    if (x.values.empty()) throw std::runtime_error("x is empty");
    const double t = args.real("t"), f = args.real("f");
    const auto row = static_cast<std::size_t>(args.integer("row"));
    double above = 0;
    for (double v : x.values) above += v > t ? 1 : 0;
    const double peak = *std::max_element(x.values.begin(), x.values.end());
    const auto held = static_cast<double>(x.values.size());
    for (double& v : x.values) v *= f;
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < m.cols(); ++j) m.at(i, j) += static_cast<double>(i) + 1000.0 * static_cast<double>(j);
    double columnPeak = m.at(0, 0);
    for (std::size_t i = 0; i < m.rows(); ++i) columnPeak = std::max(columnPeak, m.at(i, 0));
    if (row >= m.rows()) throw std::runtime_error("row is outside m");
    for (std::size_t j = 0; j < m.cols(); ++j) m.at(row, j) *= f;
    itref::write_data(args.str("x_out"), itref::make_array<double>(x.dims, x.values));
    itref::write_data(args.str("m_out"), itref::make_array<double>(m.dims, m.values));
    itref::write_data(args.str("summary_file"), itref::make_array<double>({4}, {above, peak, held, columnPeak}));
  });
}
