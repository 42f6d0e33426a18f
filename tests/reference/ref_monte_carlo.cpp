// Sequential reference for examples/monte-carlo: the same rounds of draws, with the same
// hash-based generator as the program's @Extern code, so the outputs are reproducible exactly
// (up to nothing: all arithmetic on the counts is exact, and the estimate is computed by the same
// formulas in the same order).
//   output_file:  [estimate, std_error, rounds, total_draws, total_hits, drift]
//   lpu_file:     hits credited to each of the p Space B LPUs (block_count(p) over the batches)
//   history_file: the `keep` most recent estimates, newest first (a List)
// Arguments: batches= draws= seed= max_rounds= tolerance= keep= p= output_file= lpu_file=
//            history_file=
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <stdexcept>
#include <vector>

#include "ref_common.h"

namespace {

// identical to uniform() in examples/monte-carlo/monte-carlo.it
double uniform(int seed, int round, int batch, int draw) {
  auto mix = [](std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  std::uint64_t h = mix(static_cast<std::uint32_t>(seed));
  h = mix(h ^ static_cast<std::uint32_t>(round));
  h = mix(h ^ static_cast<std::uint32_t>(batch));
  h = mix(h ^ static_cast<std::uint32_t>(draw));
  return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_monte_carlo", argc, argv, [](const itref::Args& args) {
    const int batches = static_cast<int>(args.integer("batches"));
    const int draws = static_cast<int>(args.integer("draws"));
    const int seed = static_cast<int>(args.integer("seed"));
    const int max_rounds = static_cast<int>(args.integer("max_rounds"));
    const double tolerance = args.real("tolerance");
    const int keep = static_cast<int>(args.integer("keep"));
    const int p = static_cast<int>(args.integer("p"));
    if (batches <= 0 || draws <= 0) throw std::runtime_error("batches and draws must be positive");
    if (p <= 0 || p > batches) throw std::runtime_error("p must be in 1...batches (one lpu_hits entry per LPU)");

    // block_count(p) over batches 0 ... batches-1 (§9.5): the last part takes the remainder
    const int parts = p, quota = batches / parts;
    auto owner = [&](int b) { return std::min(b / quota, parts - 1); };

    std::vector<std::int32_t> lpu_hits(static_cast<std::size_t>(p), 0);
    std::deque<double> history;
    const double round_draws = static_cast<double>(batches) * draws;
    double total_hits = 0.0, total_draws = 0.0, estimate = 0.0, drift = 0.0;
    double std_error = tolerance + 1.0;
    int round = 0;
    while (round < max_rounds && std_error > tolerance) {
      std::int32_t round_hits = 0;
      for (int b = 0; b < batches; ++b) {
        std::int32_t hits = 0;
        for (int d = 0; d < draws; ++d) {
          double x = uniform(seed, round, b, 2 * d), y = uniform(seed, round, b, 2 * d + 1);
          if (x * x + y * y <= 1.0) ++hits;
        }
        round_hits += hits;
        lpu_hits[static_cast<std::size_t>(owner(b))] += hits;
      }
      total_hits = total_hits + round_hits;
      total_draws = total_draws + round_draws;
      double fraction = total_hits / total_draws;
      estimate = 4.0 * fraction;
      std_error = 4.0 * std::sqrt(fraction * (1.0 - fraction) / total_draws);
      round = round + 1;
      if (keep > 0) {
        history.push_front(estimate);
        if (history.size() > static_cast<std::size_t>(keep)) history.pop_back();
        drift = estimate - history.back();
      }
    }
    itref::write_data(args.str("output_file"),
                      itref::make_array<double>(
                          {6}, {estimate, std_error, static_cast<double>(round), total_draws, total_hits, drift}));
    itref::write_data(args.str("lpu_file"), itref::make_array<std::int32_t>({static_cast<std::size_t>(p)}, lpu_hits));
    itref::write_data(args.str("history_file"),
                      itref::make_list<double>(std::vector<double>(history.begin(), history.end())));
    std::printf("pi ~ %.12f +- %.3g after %d rounds\n", estimate, std_error, round);
  });
}
