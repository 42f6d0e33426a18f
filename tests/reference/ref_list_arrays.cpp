// Sequential reference for tests/e2e/programs/list_arrays.it: with m (r x c) and row k, the list
// holds row 0 and row k; summary = [sum of rows 0 and k, that + 5 + 6 + 7, 3 arrays, 2 c + 3
// elements, then the sizes of the lists of 1..7 by residue modulo 3: 2, 3, 2, then the sum of the
// List of Arrays in_lists_file]. buckets_file: the Array of Lists of 1..7 by residue, each list
// newest first; tails_file: the List of Arrays [21 22 23], [11 12], [1] (each inserted in front).
// It also WRITES in_lists_file, the program's input: the List of Arrays [1 2 3], [4 5], [6].
// Arguments: matrix_file= k= summary_file= buckets_file= tails_file= in_lists_file= (p= ignored).
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
    std::vector<itref::Data<int>> buckets(3);
    for (auto& b : buckets) b.is_list = true;
    for (int i = 1; i <= 7; ++i) {
      residues[i % 3] += 1;
      auto& v = buckets[static_cast<std::size_t>(i % 3)].values;
      v.insert(v.begin(), i);
    }
    itref::write_nested_text(args.str("buckets_file"), false, {3}, buckets);
    std::vector<itref::Data<int>> tails;
    for (int b = 2; b >= 0; --b) {
      std::vector<int> a;
      for (int j = 1; j <= b + 1; ++j) a.push_back(10 * b + j);
      tails.push_back(itref::make_array<int>({a.size()}, a));
    }
    itref::write_nested_text(args.str("tails_file"), true, {}, tails);
    const std::vector<itref::Data<int>> inputs{itref::make_array<int>({3}, {1, 2, 3}),
                                               itref::make_array<int>({2}, {4, 5}), itref::make_array<int>({1}, {6})};
    itref::write_nested_text(args.str("in_lists_file"), true, {}, inputs);
    double inputSum = 0;
    for (const auto& a : inputs)
      for (int e : a.values) inputSum += e;
    const auto cols = static_cast<double>(m.cols());
    itref::write_data(args.str("summary_file"),
                      itref::make_array<double>({8}, {before, before + 18, 3, 2 * cols + 3, residues[0], residues[1],
                                                      residues[2], inputSum}));
  });
}
