// Sequential reference for examples/radix-sort (Appendix A.4): key_size / digits rounds of a
// stable distribution sort, one per digit place, least significant first. As in the IT program,
// digit value r of round t selects the keys with (key & ((2^digits - 1) << t*digits)) ==
// r << t*digits, computed on 32-bit two's-complement Integers, and the keys of digit 0 come
// first, then those of digit 1, ..., each group in its previous order.
// Arguments: input_file=... output_file=... digits=... key_size=... (p=... is ignored).
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_radix_sort", argc, argv, [](const itref::Args& args) {
    auto keys = itref::read_data<std::int32_t>(args.str("input_file"));
    long long digits = args.integer("digits"), key_size = args.integer("key_size");
    if (keys.dims.size() != 1) throw std::runtime_error("the keys must be a 1d array");
    if (digits <= 0 || digits > 16) throw std::runtime_error("digits must be in 1...16");
    if (key_size < digits || key_size > 32) throw std::runtime_error("key_size must be in digits...32");
    // (with key_size < digits the IT range 0...key_size/digits - 1 would be inverted, R-24)
    const std::uint32_t radix = 1u << digits;
    const long long rounds = key_size / digits;  // Integer division, as in the IT Initialize
    std::vector<std::int32_t> from = keys.values, to(from.size());
    for (long long round = 0; round < rounds; ++round) {
      const unsigned shift = static_cast<unsigned>(round * digits);
      if (shift >= 32) throw std::runtime_error("round * digits reaches 32 bits");
      const std::uint32_t ones = (radix - 1u) << shift;
      std::size_t next = 0;
      for (std::uint32_t r = 0; r < radix; ++r) {
        const std::uint32_t r_value = r << shift;
        for (std::int32_t key : from)
          if ((static_cast<std::uint32_t>(key) & ones) == r_value) {
            if (next == to.size()) throw std::runtime_error("digit values overlap: digits * rounds exceeds 32 bits");
            to[next++] = key;
          }
      }
      if (next != to.size()) throw std::runtime_error("internal: keys lost in a round");
      from.swap(to);
    }
    keys.values = from;
    itref::write_data(args.str("output_file"), keys);
  });
}
