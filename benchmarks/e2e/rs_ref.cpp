// Hand-written LSD radix sort of Integer (int32) keys, same .bin files and arguments as
// examples/radix-sort/radix-sort.it: input_file=... output_file=... digits=D key_size=K (p=... is
// ignored). key_size / digits rounds; round t is a stable distribution by the digit
// (unsigned(key) >> t*D) & (2^D - 1), digit 0 first — the IT program's order for every input.
//   method=lsd (default): counting sort, one histogram pass and one scatter pass per round;
//                         threads=T splits the keys into T blocks (per round: block histograms,
//                         offsets digit-major then block as the IT program's g scan, scatter).
//   method=perdigit:      the IT program's algorithm, sequential: per round and digit value r,
//                         one pass over all keys moving those with digit r (2^D passes a round).
//   method=std:           std::sort (the same result only for keys in [0, 2^(rounds*D))).
#include "bench_io.h"
#include <algorithm>
#include <barrier>
#include <cstdint>
#include <thread>

int main(int argc, char** argv) {
  auto args = kv(argc, argv);
  Array<std::int32_t> keys = read_array<std::int32_t>(args["input_file"]);
  const int digits = std::atoi(args["digits"].c_str());
  const int rounds = std::atoi(args["key_size"].c_str()) / digits;
  const std::uint32_t radix = 1u << digits, mask = radix - 1;
  const std::string method = args.count("method") ? args["method"] : "lsd";
  const long n = static_cast<long>(keys.v.size());
  std::vector<std::int32_t> other(keys.v.size());
  std::int32_t *from = keys.v.data(), *to = other.data();
  if (method == "std") {
    std::sort(keys.v.begin(), keys.v.end());
  } else if (method == "perdigit") {
    for (int round = 0; round < rounds; ++round, std::swap(from, to)) {
      const unsigned shift = static_cast<unsigned>(round * digits);
      long next = 0;
      for (std::uint32_t d = 0; d < radix; ++d)
        for (long i = 0; i < n; ++i)
          if (((static_cast<std::uint32_t>(from[i]) >> shift) & mask) == d) to[next++] = from[i];
    }
  } else {
    const int t = args.count("threads") ? std::atoi(args["threads"].c_str()) : 1;
    std::vector<long> count(static_cast<size_t>(t) * radix);  // count[me * radix + d], then offsets
    std::barrier sync(t);
    auto work = [&](int me) {
      const long i0 = n * me / t, i1 = n * (me + 1) / t;
      std::int32_t *src = from, *dst = to;
      long* mine = count.data() + static_cast<size_t>(me) * radix;
      for (int round = 0; round < rounds; ++round, std::swap(src, dst)) {
        const unsigned shift = static_cast<unsigned>(round * digits);
        std::fill(mine, mine + radix, 0L);
        for (long i = i0; i < i1; ++i) ++mine[(static_cast<std::uint32_t>(src[i]) >> shift) & mask];
        sync.arrive_and_wait();
        if (me == 0) {  // exclusive scan, digit-major then block
          long sum = 0;
          for (std::uint32_t d = 0; d < radix; ++d)
            for (int q = 0; q < t; ++q) {
              long c = count[static_cast<size_t>(q) * radix + d];
              count[static_cast<size_t>(q) * radix + d] = sum;
              sum += c;
            }
        }
        sync.arrive_and_wait();
        for (long i = i0; i < i1; ++i) dst[mine[(static_cast<std::uint32_t>(src[i]) >> shift) & mask]++] = src[i];
        sync.arrive_and_wait();
      }
    };
    std::vector<std::thread> ts;
    for (int k = 0; k < t; ++k) ts.emplace_back(work, k);
    for (auto& x : ts) x.join();
    if (rounds % 2) from = to;
  }
  write_array(args["output_file"], keys.dims, method == "std" ? keys.v.data() : from);
}
