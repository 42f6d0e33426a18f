// Sequential reference for tests/e2e/programs/operators.it, written from the language's rules
// for each operator (not from itc's output): C++ `/` and `%` on ints truncate toward zero with
// the dividend's sign, as IT's; powers are computed by repeated multiplication or std::pow.
// Arguments: n=... output_file=... real_file=...
#include <cmath>
#include <cstdint>
#include <vector>

#include "ref_common.h"

namespace {
int ipow(int b, int e) {  // wraps, as IT's Integers do
  uint32_t r = 1;
  while (e-- > 0) r *= static_cast<uint32_t>(b);
  return static_cast<int>(r);
}
}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_operators", argc, argv, [](const itref::Args& args) {
    const int n = static_cast<int>(args.integer("n"));
    const std::vector<int> r{-7 / 2,
                             -7 % 3,
                             7 % -3,  // every entry is an int: the Integer result
                             ipow(2, 10),
                             ipow(-2, 2) /* unary minus binds tighter than ** */,
                             ipow(2, ipow(3, 2)) /* right-associative */,
                             (1 << 4) | 3,
                             6 ^ 3,
                             12 & 10,
                             static_cast<long long>(7.9),
                             static_cast<long long>(-7.9),
                             'a' + 1,
                             ('b' > 'a') ? 1 : 0,
                             n * 3 - 1,
                             100 >> 2,
                             2 + 3 * 4 - 6 / 4,
                             (!(3 < 2) && 1 != 2) ? 1 : 0,
                             (n + 1) % 4,
                             5 / 2 * 2,
                             ipow(0, 0),
                             'a' + 100,  // a Character holds codes 0...255
                             ('a' + 100 > 'a') ? 1 : 0,
                             ipow(3, 21),
                             ipow(2, 31)};
    const std::vector<double> q{
        7 / 2.0, std::pow(2.0, -1.0), std::pow(2.0, 0.5), static_cast<double>(1 / 3), 1.0 / 3, -(1.5) * 2, 10 % 4 + 0.5,
        3.0, static_cast<double>(ipow(2 + 3, 2)), std::pow(1.5, 2.0), std::fmod(7.5, 2.0), std::fmod(-7.5, 2.0),
        // literals assigned to a single-precision element are floats
        static_cast<double>(16777217.0f - 1.0f), static_cast<double>(16777216.0f + 1.0f + 1.0f)};
    itref::write_data(args.str("output_file"), itref::make_array<int>({r.size()}, r));
    itref::write_data(args.str("real_file"), itref::make_array<double>({q.size()}, q));
  });
}
