// Sequential reference for tests/e2e/programs/epoch_history.it. Each array keeps three versions
// (current, current - 1, current - 2), all equal to the input at the start; entering an Epoch
// shifts them (current keeps its values). Per round:
//   u: shift, u = 2 u[-1] % 1000; shift, u = (10 u[-1] + u[-2]) % 1000;
//   g, twice: shift, then for 0 < i < n - 1 in increasing order g[i] = (g[i - 1][-2] + g[i]) % 1000.
// Arguments: u_file= g_file= rounds= p= u_out= g_out=.
#include <array>
#include <stdexcept>

#include "ref_common.h"

namespace {
using Versions = std::array<std::vector<int>, 3>;  // [0] current, [1] current - 1, [2] current - 2
void shift(Versions& v) {
  v[2] = v[1];
  v[1] = v[0];
}
}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_epoch_history", argc, argv, [](const itref::Args& args) {
    auto u = itref::read_data<int>(args.str("u_file"));
    auto g = itref::read_data<int>(args.str("g_file"));
    const long long rounds = args.integer("rounds");
    if (u.dims.size() != 1 || g.dims.size() != 1) throw std::runtime_error("u and g must be 1d arrays");
    Versions uv{u.values, u.values, u.values}, gv{g.values, g.values, g.values};
    const size_t n = g.values.size();
    for (long long r = 1; r <= rounds; ++r) {
      shift(uv);
      for (size_t i = 0; i < uv[0].size(); ++i) uv[0][i] = uv[1][i] * 2 % 1000;
      shift(uv);
      for (size_t i = 0; i < uv[0].size(); ++i) uv[0][i] = (uv[1][i] * 10 + uv[2][i]) % 1000;
      for (int t = 0; t < 2; ++t) {
        shift(gv);
        for (size_t i = 1; i + 1 < n; ++i) gv[0][i] = (gv[2][i - 1] + gv[0][i]) % 1000;
      }
    }
    u.values = uv[0];
    g.values = gv[0];
    itref::write_data(args.str("u_out"), u);
    itref::write_data(args.str("g_out"), g);
  });
}
