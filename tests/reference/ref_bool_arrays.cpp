// Sequential reference for tests/e2e/programs/bool_arrays.it. With v of n >= 3 values split into
// P = min(p, n) blocks of floor(n / P) (the last block takes the rest):
//   marks = [1, 0, 1, 0, 0, 1]; stats = [3, the count of v[i] > 0, v[0] > 0, the count of
//   v[1], v[2] > 0, 1 (the list [marks[1], marks[0]] read as digits)]; counts[i] = 11 times the count of v[j] > 0 in
//   the block of i.
// Arguments: v_file= p= marks_file= stats_file= counts_file=.
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_bool_arrays", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<int>(args.str("v_file"));
    if (v.dims.size() != 1 || v.values.size() < 3) throw std::runtime_error("v must be a 1d array of 3 or more values");
    const long long n = static_cast<long long>(v.values.size());
    const long long blocks = std::min(args.integer("p"), n), size = n / blocks;
    auto pos = [&](long long i) { return v.values[static_cast<size_t>(i)] > 0 ? 1 : 0; };
    int total = 0;
    for (long long i = 0; i < n; ++i) total += pos(i);
    std::vector<int> counts(v.values.size());
    for (long long b = 0; b < blocks; ++b) {
      const long long lo = b * size, hi = b == blocks - 1 ? n - 1 : lo + size - 1;
      int c = 0;
      for (long long i = lo; i <= hi; ++i) c += pos(i);
      for (long long i = lo; i <= hi; ++i) counts[static_cast<size_t>(i)] = 11 * c;
    }
    itref::write_data(args.str("marks_file"), itref::make_array<int>({6}, {1, 0, 1, 0, 0, 1}));
    itref::write_data(args.str("stats_file"), itref::make_array<int>({5}, {3, total, pos(0), pos(1) + pos(2), 1}));
    itref::write_data(args.str("counts_file"), itref::make_array<int>(v.dims, counts));
  });
}
