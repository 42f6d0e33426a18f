// runtime/task/boxes: copy_outside, which completes an epoch's new current version after a
// rotation (FlowContext::complete_epoch), copies exactly the cells of the part outside the box
// the stage wrote. Checked cell by cell against a direct membership test, for inner boxes at
// every position of small 1-, 2- and 3-d parts (touching, inside, overlapping the edge, outside,
// empty) and for 200 random boxes (fixed seed, printed on failure).
#include "runtime/task/boxes.h"

#include <gtest/gtest.h>

#include <random>

namespace {

using itrt::task::Box;
using namespace itrt::task::boxes;

// Fills dst with -1, src with its cell numbers, runs copy_outside and checks every cell.
void check(const Box& whole, const Box& inner, const std::string& what) {
  const int64_t n = box_size(whole);
  std::vector<int32_t> src(static_cast<size_t>(n)), dst(static_cast<size_t>(n), -1);
  for (int64_t k = 0; k < n; ++k) src[static_cast<size_t>(k)] = static_cast<int32_t>(k);
  copy_outside(dense_of(reinterpret_cast<std::byte*>(src.data()), whole),
               dense_of(reinterpret_cast<std::byte*>(dst.data()), whole), whole, inner, sizeof(int32_t));
  std::vector<int64_t> g(whole.size());
  for (size_t d = 0; d < whole.size(); ++d) g[d] = whole[d].first;
  for (int64_t k = 0; k < n; ++k) {
    bool in = true;
    for (size_t d = 0; d < whole.size(); ++d) in = in && g[d] >= inner[d].first && g[d] <= inner[d].second;
    ASSERT_EQ(dst[static_cast<size_t>(k)], in ? -1 : k) << what << ": cell " << k;
    for (size_t d = whole.size(); d-- > 0;) {
      if (++g[d] <= whole[d].second) break;
      g[d] = whole[d].first;
    }
  }
}

std::string show(const Box& b) {
  std::string s;
  for (auto& [lo, hi] : b) s += "[" + std::to_string(lo) + "," + std::to_string(hi) + "]";
  return s;
}

TEST(CopyOutside, EveryIntervalPairIn1d) {
  const Box whole = {{3, 9}};
  for (int64_t lo = 1; lo <= 11; ++lo)
    for (int64_t hi = lo - 1; hi <= 11; ++hi) check(whole, {{lo, hi}}, show({{lo, hi}}));
}

TEST(CopyOutside, RingsAndEdgesIn2d) {
  const Box whole = {{-2, 6}, {10, 17}};
  check(whole, {{-1, 5}, {11, 16}}, "the stencil's interior: a one-cell ring is copied");
  check(whole, whole, "everything written: nothing copied");
  check(whole, {{-2, 6}, {12, 13}}, "full rows");
  check(whole, {{0, 0}, {10, 17}}, "one full-width row");
  check(whole, {{-5, 20}, {0, 30}}, "larger than the part");
  check(whole, {{7, 9}, {11, 12}}, "outside: everything copied");
  check(whole, {{3, 2}, {11, 12}}, "empty: everything copied");
}

TEST(CopyOutside, RandomBoxes) {
  const unsigned seed = 20261124;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> coord(-3, 8);
  for (int t = 0; t < 200; ++t) {
    const size_t dims = 1 + static_cast<size_t>(t % 3);
    Box whole, inner;
    for (size_t d = 0; d < dims; ++d) {
      int64_t a = coord(rng), b = coord(rng);
      whole.push_back({std::min(a, b), std::max(a, b)});
      a = coord(rng), b = coord(rng);
      inner.push_back({std::min(a, b), std::max(a, b) - (t % 7 == 0)});
    }
    check(whole, inner,
          "seed " + std::to_string(seed) + ", case " + std::to_string(t) + ": whole " + show(whole) + " inner " +
              show(inner));
  }
}

}  // namespace
