// Sequential reference for tests/e2e/programs/foreach_whole.it. m and v have n values each; the
// n indices split into P = min(p, n) blocks of floor(n / P) (the last block takes the rest).
// Block b (cells lo..hi) takes T = ceil(L / q) turns, L its length; in turn t its cells
// lo + t q .. lo + (t + 1) q - 1 of m gain 1 + v (v doubled t times so far), then the whole
// block of v doubles.
// Arguments: m_file= v_file= p= q= m_out= v_out=.
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_foreach_whole", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<int>(args.str("m_file"));
    auto v = itref::read_data<int>(args.str("v_file"));
    const long long q = args.integer("q");
    if (m.dims.size() != 1 || v.dims != m.dims || q < 1)
      throw std::runtime_error("m, v: 1d arrays of one size; q >= 1");
    const long long n = static_cast<long long>(m.values.size());
    const long long blocks = std::min(args.integer("p"), n), size = n / blocks;
    for (long long b = 0; b < blocks; ++b) {
      const long long lo = b * size, hi = b == blocks - 1 ? n - 1 : lo + size - 1;
      const long long turns = (hi - lo + 1 + q - 1) / q;
      for (long long t = 0; t < turns; ++t) {
        for (long long i = lo + t * q; i <= std::min(hi, lo + (t + 1) * q - 1); ++i)
          m.values[static_cast<size_t>(i)] += 1 + v.values[static_cast<size_t>(i)];
        for (long long i = lo; i <= hi; ++i) v.values[static_cast<size_t>(i)] *= 2;
      }
    }
    itref::write_data(args.str("m_out"), m);
    itref::write_data(args.str("v_out"), v);
  });
}
