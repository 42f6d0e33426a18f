// Sequential reference for tests/e2e/programs/foreach_conditions.it. The n indices split into
// P = min(p, n) blocks of floor(n / P) (the last block takes the rest), each block of length L
// into R = min(r, L) pieces the same way. For each piece lo..hi in increasing order: x[k] += 1000
// if k is in it; the piece is negated if lo is even; then multiplied by 10 if x[hi] > 5.
// Arguments: x_file= k= p= r= x_out=.
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

namespace {
// Blocks of block_count(parts) over lo..hi: (first, last) of each.
std::vector<std::pair<long long, long long>> blocks(long long lo, long long hi, long long parts) {
  const long long n = hi - lo + 1, count = std::min(parts, n), size = n / count;
  std::vector<std::pair<long long, long long>> out;
  for (long long b = 0; b < count; ++b) out.push_back({lo + b * size, b == count - 1 ? hi : lo + (b + 1) * size - 1});
  return out;
}
}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_foreach_conditions", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    const long long k = args.integer("k");
    if (x.dims.size() != 1 || x.values.empty()) throw std::runtime_error("x must be a non-empty 1d array");
    auto& v = x.values;
    const long long n = static_cast<long long>(v.size());
    for (auto [blo, bhi] : blocks(0, n - 1, args.integer("p")))
      for (auto [lo, hi] : blocks(blo, bhi, args.integer("r"))) {
        if (k >= lo && k <= hi) v[static_cast<size_t>(k)] += 1000;
        if (lo % 2 == 0)
          for (long long i = lo; i <= hi; ++i) v[static_cast<size_t>(i)] = -v[static_cast<size_t>(i)];
        if (v[static_cast<size_t>(hi)] > 5)
          for (long long i = lo; i <= hi; ++i) v[static_cast<size_t>(i)] *= 10;
      }
    itref::write_data(args.str("x_out"), x);
  });
}
