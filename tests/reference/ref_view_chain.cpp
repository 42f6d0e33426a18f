// Sequential reference for tests/e2e/programs/view_chain.it. With v (n values) and lo <= k < hi:
// v[i] = 2 v[i] + i everywhere; then v[i] = 3 v[i] + i for lo <= i <= hi; then
// v[i] = 10 v[i] + i for i = k, k + 1; then v[i] = -v[i] + i everywhere. Outputs: v, v[lo..hi],
// v[k..k+1].
// Arguments: v_file= lo= hi= k= p= a_out= s_out= t_out=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_view_chain", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<int>(args.str("v_file"));
    const long long lo = args.integer("lo"), hi = args.integer("hi"), k = args.integer("k");
    const long long n = static_cast<long long>(v.values.size());
    if (v.dims.size() != 1 || lo < 0 || hi >= n || k < lo || k + 1 > hi)
      throw std::runtime_error("need a 1d v and 0 <= lo <= k < k + 1 <= hi < n");
    auto scale = [&](long long from, long long to, int f) {
      for (long long i = from; i <= to; ++i)
        v.values[static_cast<size_t>(i)] = v.values[static_cast<size_t>(i)] * f + static_cast<int>(i);
    };
    scale(0, n - 1, 2);
    scale(lo, hi, 3);
    scale(k, k + 1, 10);
    scale(0, n - 1, -1);
    auto part = [&](long long from, long long to) {
      return std::vector<int>(v.values.begin() + from, v.values.begin() + to + 1);
    };
    itref::write_data(args.str("a_out"), v);
    itref::write_data(args.str("s_out"), itref::make_array<int>({static_cast<size_t>(hi - lo + 1)}, part(lo, hi)));
    itref::write_data(args.str("t_out"), itref::make_array<int>({2}, part(k, k + 1)));
  });
}
