// Sequential reference for tests/e2e/programs/padded_deal.it: v is split into P = min(p, n)
// blocks as block_count does (floor(n/P) each, the remainder to the last), each held with one
// cell of padding on either side (clipped at the ends); within a held block, position k goes to
// B LPU k mod min(u, held length) (stride() with u PPUs per A PPU). Each cell takes the mark
// of its OWNER block's B LPU: v = v0^2 + 100 * that LPU's number; then w[i] = mean of v[i-1..i+1]
// for the inner cells (w is 0 at both ends).
// Arguments: input_file=... output_file=... smooth_file=... p=... u=...
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_padded_deal", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<double>(args.str("input_file"));
    if (v.dims.size() != 1 || v.values.empty()) throw std::runtime_error("v must be a non-empty 1d array");
    const long long n = static_cast<long long>(v.values.size());
    const long long p = args.integer("p"), u = args.integer("u");
    if (p < 1 || u < 1) throw std::runtime_error("p and u must be positive");
    const long long parts = std::min(p, n), width = n / parts;
    std::vector<double> out(v.values.size());
    for (long long c = 0; c < parts; ++c) {
      const long long lo = c * width, hi = c + 1 == parts ? n - 1 : (c + 1) * width - 1;
      const long long held_lo = std::max(0LL, lo - 1), held_hi = std::min(n - 1, hi + 1);
      const long long dealt = std::min(u, held_hi - held_lo + 1);
      for (long long x = lo; x <= hi; ++x) {
        const double v0 = v.values[static_cast<std::size_t>(x)];
        out[static_cast<std::size_t>(x)] = v0 * v0 + 100.0 * static_cast<double>((x - held_lo) % dealt);
      }
    }
    std::vector<double> w(v.values.size(), 0.0);
    for (long long i = 1; i + 1 < n; ++i)
      w[static_cast<std::size_t>(i)] = (out[static_cast<std::size_t>(i - 1)] + out[static_cast<std::size_t>(i)] +
                                        out[static_cast<std::size_t>(i + 1)]) /
                                       3;
    itref::write_data(args.str("output_file"), itref::make_array<double>(v.dims, out));
    itref::write_data(args.str("smooth_file"), itref::make_array<double>(v.dims, w));
  });
}
