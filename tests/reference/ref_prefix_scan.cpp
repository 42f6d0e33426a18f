// Sequential reference for tests/e2e/programs/prefix_scan.it: `rounds` inclusive prefix sums
// of an Integer vector, one after the other. Integers are 32-bit two's complement (§3.1, R-8):
// the sums are taken modulo 2^32, which is also what any block-wise order gives.
// The flow's `Repeat for round in [1...rounds]` runs |rounds - 1| + 1 times when rounds < 1
// (an inverted range still runs, R-24); so does this reference.
// Arguments: input_file=... output_file=... rounds=... (p=... is ignored; the program needs
// p <= the length of x, R-55).
#include <cstdint>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_prefix_scan", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<std::int32_t>(args.str("input_file"));
    if (x.dims.size() != 1) throw std::runtime_error("x must be a 1d array");
    const long long rounds = args.integer("rounds");
    const long long count = rounds >= 1 ? rounds : 2 - rounds;
    for (long long r = 0; r < count; ++r) {
      std::uint32_t running = 0;
      for (std::int32_t& v : x.values) {
        running += static_cast<std::uint32_t>(v);
        v = static_cast<std::int32_t>(running);
      }
    }
    itref::write_data(args.str("output_file"), itref::make_array<std::int32_t>(x.dims, x.values));
  });
}
