// Sequential reference for tests/e2e/programs/list_arrays.it: with m (r x c) and row k, the list
// holds row 0 and row k; summary = [sum of rows 0 and k, that + 5 + 6 + 7, 3 arrays, 2 c + 3
// elements, then the sizes of the lists of 1..7 by residue modulo 3: 2, 3, 2].
// Arguments: matrix_file= k= summary_file= (p= is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_list_arrays", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<double>(args.str("matrix_file"));
    if (m.dims.size() != 2) throw std::runtime_error("m must be a 2d array");
    const long long k = args.integer("k");
    if (k < 0 || static_cast<std::size_t>(k) >= m.rows()) throw std::runtime_error("k must be a row of m");
    double before = 0;
    for (std::size_t j = 0; j < m.cols(); ++j) before += m.at(0, j) + m.at(static_cast<std::size_t>(k), j);
    double residues[3] = {0, 0, 0};
    for (int i = 1; i <= 7; ++i) residues[i % 3] += 1;
    const auto cols = static_cast<double>(m.cols());
    itref::write_data(args.str("summary_file"),
                      itref::make_array<double>({7}, {before, before + 18, 3, 2 * cols + 3, residues[0], residues[1],
                                                      residues[2]}));
  });
}
