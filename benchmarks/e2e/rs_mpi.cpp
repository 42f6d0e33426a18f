// Hand-written MPI LSD radix sort of Integer (int32) keys, same arguments and files as
// examples/radix-sort/radix-sort.it (p=... ignored). Every rank reads the keys and keeps the
// block [n*r/np, n*(r+1)/np). Per round: a local stable counting sort by the digit; the np x 2^D
// digit counts exchanged by MPI_Allgather; global offsets digit-major then rank (the IT program's
// scan of g); one MPI_Alltoallv moves every key to the rank owning its destination position (the
// receiver places them from the counts alone: a source's keys arrive in increasing position).
// Rank 0 gathers the blocks and writes the sorted keys.
#include "bench_io.h"
#include <algorithm>
#include <cstdint>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  auto args = kv(argc, argv);
  Array<std::int32_t> keys = read_array<std::int32_t>(args["input_file"]);
  const int digits = std::atoi(args["digits"].c_str());
  const int rounds = std::atoi(args["key_size"].c_str()) / digits;
  const std::uint32_t radix = 1u << digits, mask = radix - 1;
  const long n = static_cast<long>(keys.v.size());
  auto lo = [&](long q) { return n * q / np; };
  std::vector<std::int32_t> mine(keys.v.begin() + lo(r), keys.v.begin() + lo(r + 1)), sorted(mine.size()),
      got(mine.size());
  std::vector<int> cnt(radix), all(static_cast<size_t>(np) * radix), scount(np), sdispl(np), rcount(np), rdispl(np);
  std::vector<long> off(static_cast<size_t>(np) * radix);  // off[s * radix + d]: first position
  for (int round = 0; round < rounds; ++round) {
    const unsigned shift = static_cast<unsigned>(round * digits);
    auto digit = [&](std::int32_t k) { return (static_cast<std::uint32_t>(k) >> shift) & mask; };
    std::fill(cnt.begin(), cnt.end(), 0);
    for (auto k : mine) ++cnt[digit(k)];
    std::vector<long> pos(radix);
    for (std::uint32_t d = 1; d < radix; ++d) pos[d] = pos[d - 1] + cnt[d - 1];
    for (auto k : mine) sorted[static_cast<size_t>(pos[digit(k)]++)] = k;
    MPI_Allgather(cnt.data(), static_cast<int>(radix), MPI_INT, all.data(), static_cast<int>(radix), MPI_INT,
                  MPI_COMM_WORLD);
    long sum = 0;
    for (std::uint32_t d = 0; d < radix; ++d)
      for (int s = 0; s < np; ++s)
        off[static_cast<size_t>(s) * radix + d] = sum, sum += all[static_cast<size_t>(s) * radix + d];
    // keys of source s with digit d go to positions [off, off + count): split by owner
    auto overlap = [&](int s, std::uint32_t d, int q) {
      long a = off[static_cast<size_t>(s) * radix + d], b = a + all[static_cast<size_t>(s) * radix + d];
      return std::max(0L, std::min(b, lo(q + 1)) - std::max(a, lo(q)));
    };
    std::fill(scount.begin(), scount.end(), 0);
    std::fill(rcount.begin(), rcount.end(), 0);
    for (std::uint32_t d = 0; d < radix; ++d)
      for (int q = 0; q < np; ++q) {
        scount[q] += static_cast<int>(overlap(r, d, q));
        rcount[q] += static_cast<int>(overlap(q, d, r));
      }
    for (int q = 1; q < np; ++q) sdispl[q] = sdispl[q - 1] + scount[q - 1], rdispl[q] = rdispl[q - 1] + rcount[q - 1];
    MPI_Alltoallv(sorted.data(), scount.data(), sdispl.data(), MPI_INT, got.data(), rcount.data(), rdispl.data(),
                  MPI_INT, MPI_COMM_WORLD);
    for (int s = 0; s < np; ++s) {  // place source s's keys, digit by digit
      const std::int32_t* in = got.data() + rdispl[s];
      for (std::uint32_t d = 0; d < radix; ++d) {
        long a = std::max(off[static_cast<size_t>(s) * radix + d], lo(r));
        long m = overlap(s, d, r);
        if (m > 0) std::copy_n(in, m, mine.data() + (a - lo(r)));
        in += m;
      }
    }
  }
  std::vector<int> counts(np), displs(np);
  for (int q = 0; q < np; ++q) counts[q] = static_cast<int>(lo(q + 1) - lo(q)), displs[q] = static_cast<int>(lo(q));
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_INT, keys.v.data(), counts.data(), displs.data(), MPI_INT,
              0, MPI_COMM_WORLD);
  if (r == 0) write_array(args["output_file"], keys.dims, keys.v.data());
  MPI_Finalize();
}
