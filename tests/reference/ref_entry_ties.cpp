// Sequential reference for tests/e2e/programs/entry_ties.it. With x of n Integers: the first
// (smallest) index of x's maximum and of its minimum, then the same along an inverted copy of x
// (range n-1...0), where the first index in order is the largest.
// Arguments: x_file= p= result_file=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_entry_ties", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    if (x.dims.size() != 1 || x.values.empty()) throw std::runtime_error("x must be a non-empty 1d array");
    const auto& v = x.values;
    int first_max = 0, first_min = 0, last_max = 0, last_min = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      const int k = static_cast<int>(i);
      if (v[i] > v[static_cast<size_t>(first_max)]) first_max = k;
      if (v[i] < v[static_cast<size_t>(first_min)]) first_min = k;
      if (v[i] >= v[static_cast<size_t>(last_max)]) last_max = k;
      if (v[i] <= v[static_cast<size_t>(last_min)]) last_min = k;
    }
    // The same array on indices -n...-1: the first maximum and minimum, moved down by n.
    const int n = static_cast<int>(v.size());
    itref::write_data(args.str("result_file"), itref::make_array<int>({6}, {first_max, first_min, last_max, last_min,
                                                                            first_max - n, first_min - n}));
  });
}
