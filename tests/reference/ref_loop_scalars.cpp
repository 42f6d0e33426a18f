// Sequential reference for tests/e2e/programs/loop_scalars.it. With x (n values >= 0), m and an
// index k, as the IT flow runs on one processor:
//   v = u = x; cnt = m; while cnt > 0: v += cnt, cnt -= 1;
//   n = v[k] % 4 + 1; for iter in 1..n: g = iter^2, if g is odd v += g; v += 1;
//   s = u[k]; u += s; v += s.
// Arguments: x_file= m= k= p= c= v_file= u_file= stats_file= (stats: cnt, n, s).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_loop_scalars", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    const long long m = args.integer("m");
    const long long k = args.integer("k");
    if (x.dims.size() != 1 || k < 0 || k >= static_cast<long long>(x.values.size()))
      throw std::runtime_error("x must be a 1d array holding index k");
    std::vector<int> v = x.values, u = x.values;
    auto add = [](std::vector<int>& a, long long by) {
      for (int& e : a) e += static_cast<int>(by);
    };
    long long cnt = m;
    while (cnt > 0) {
      add(v, cnt);
      --cnt;
    }
    const long long n = v[static_cast<size_t>(k)] % 4 + 1;
    for (long long iter = 1; iter <= n; ++iter) {
      const long long g = iter * iter;
      if (g % 2 == 1) add(v, g);
      add(v, 1);
    }
    const int s = u[static_cast<size_t>(k)];
    add(u, s);
    add(v, s);
    itref::write_data(args.str("v_file"), itref::make_array<int>(x.dims, v));
    itref::write_data(args.str("u_file"), itref::make_array<int>(x.dims, u));
    itref::write_data(args.str("stats_file"),
                      itref::make_array<int>({3}, {static_cast<int>(cnt), static_cast<int>(n), s}));
  });
}
