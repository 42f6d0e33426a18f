// Sequential reference for tests/e2e/programs/env_functions.it. With v of n >= 2 values and k:
//   the first task gives a.w = k v, then a.w[0] = 100; the second gives b.w = 2 a.w;
//   stats = [sum a.w, sum b.w, b.w[1]], w = b.w.
// Arguments: v_file= k= p= stats_file= w_file=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_env_functions", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<int>(args.str("v_file"));
    if (v.dims.size() != 1 || v.values.size() < 2) throw std::runtime_error("v must be a 1d array of 2 or more values");
    const int k = static_cast<int>(args.integer("k"));
    std::vector<int> aw(v.values.size()), bw(v.values.size());
    long long sa = 0, sb = 0;
    for (size_t i = 0; i < v.values.size(); ++i) {
      aw[i] = i == 0 ? 100 : k * v.values[i];
      bw[i] = 2 * aw[i];
      sa += aw[i];
      sb += bw[i];
    }
    itref::write_data(args.str("stats_file"),
                      itref::make_array<int>({3}, {static_cast<int>(sa), static_cast<int>(sb), bw[1]}));
    itref::write_data(args.str("w_file"), itref::make_array<int>(v.dims, bw));
  });
}
