// Single-process tests of the reduction operators: identities, entry ties, the name table
// and the per-thread combiner against a sequential reference.
#include "runtime/engine/reduction.h"

#include <gtest/gtest.h>

#include <random>
#include <thread>

namespace itrt {
namespace {

TEST(Reduction, NamesRoundTripAndAliases) {
  for (ReduceOp op : kAllReduceOps) EXPECT_EQ(reduce_op_from_name(reduce_op_name(op)), op);
  EXPECT_EQ(reduce_op_from_name("maxEntry"), ReduceOp::max_entry);
  EXPECT_EQ(reduce_op_from_name("minEntry"), ReduceOp::min_entry);
  EXPECT_FALSE(reduce_op_from_name("avg").has_value());
  EXPECT_EQ(std::size(kAllReduceOps), 10u);
}

TEST(Reduction, IdentitiesFollowR37) {
  EXPECT_EQ((Reducer<ReduceOp::sum, int32_t>::identity()), 0);
  EXPECT_EQ((Reducer<ReduceOp::sum, double>::identity()), 0.0);
  EXPECT_EQ((Reducer<ReduceOp::product, float>::identity()), 1.0f);
  EXPECT_EQ((Reducer<ReduceOp::max, int32_t>::identity()), INT32_MIN);
  EXPECT_EQ((Reducer<ReduceOp::max, double>::identity()), -std::numeric_limits<double>::max());
  EXPECT_EQ((Reducer<ReduceOp::min, char>::identity()), std::numeric_limits<char>::max());
  EXPECT_EQ((Reducer<ReduceOp::min, float>::identity()), std::numeric_limits<float>::max());
  EXPECT_TRUE((Reducer<ReduceOp::land, bool>::identity()));
  EXPECT_FALSE((Reducer<ReduceOp::lor, bool>::identity()));
  EXPECT_EQ((Reducer<ReduceOp::band, int32_t>::identity()), -1);
  EXPECT_EQ((Reducer<ReduceOp::bor, int32_t>::identity()), 0);
  EXPECT_TRUE((Reducer<ReduceOp::max_entry, int32_t>::identity().empty()));
  // An empty loop gives the identity.
  EXPECT_EQ((Reducer<ReduceOp::product, int32_t>::over({})), 1);
  EXPECT_TRUE((Reducer<ReduceOp::min_entry, double>::over({}).empty()));
}

TEST(Reduction, ApplicabilityMatchesTheTable) {
  static_assert(reduce_applicable<ReduceOp::sum, double>());
  static_assert(!reduce_applicable<ReduceOp::sum, char>());
  static_assert(!reduce_applicable<ReduceOp::sum, bool>());
  static_assert(reduce_applicable<ReduceOp::max, char>());
  static_assert(reduce_applicable<ReduceOp::min_entry, char>());
  static_assert(!reduce_applicable<ReduceOp::land, int32_t>());
  static_assert(reduce_applicable<ReduceOp::lor, bool>());
  static_assert(!reduce_applicable<ReduceOp::band, double>());
  static_assert(reduce_applicable<ReduceOp::bor, int32_t>());
}

TEST(Reduction, EntryTiesGoToTheFirstIndex) {
  using Max = Reducer<ReduceOp::max_entry, int32_t>;
  using Min = Reducer<ReduceOp::min_entry, int32_t>;
  std::vector<int32_t> v{3, 5, 1, 5, 1};
  EXPECT_EQ(Max::over(v), (Entry<int32_t>{5, 1}));
  EXPECT_EQ(Min::over(v), (Entry<int32_t>{1, 2}));
  EXPECT_EQ(Max::over(v, 10).index, 11);
  // Combine order does not matter for ties: the later partial with the smaller index wins.
  EXPECT_EQ(Max::combine({5, 3}, {5, 1}), (Entry<int32_t>{5, 1}));
  EXPECT_EQ(Max::combine({5, 1}, {5, 3}), (Entry<int32_t>{5, 1}));
  EXPECT_EQ(Max::combine(Max::identity(), {2, 7}), (Entry<int32_t>{2, 7}));
  EXPECT_EQ(Min::combine({2, 7}, Min::identity()), (Entry<int32_t>{2, 7}));
}

TEST(Reduction, EntriesAtNegativeIndicesAreEntries) {
  // An array indexed -5...-1: its entries are real ones, not "no entry yet".
  using Max = Reducer<ReduceOp::max_entry, int32_t>;
  using Min = Reducer<ReduceOp::min_entry, int32_t>;
  std::vector<int32_t> v{9, 4, 1, 0, 4};
  EXPECT_EQ(Max::over(v, -5), (Entry<int32_t>{9, -5}));
  EXPECT_EQ(Min::over(v, -5), (Entry<int32_t>{0, -2}));
  EXPECT_FALSE(Max::over(v, -5).empty());
  EXPECT_EQ(Max::combine({4, 2}, Max::over(v, -5)).index, -5);
  EXPECT_TRUE(Max::over(std::vector<int32_t>{}, -5).empty());
}

TEST(Reduction, EntryTiesOnAnInvertedRangeGoToTheLargerIndex) {
  // Along 19...10 the order key is -index: 16 comes before 11 in the dimension's order.
  using Max = Reducer<ReduceOp::max_entry, int32_t>;
  using Min = Reducer<ReduceOp::min_entry, double>;
  EXPECT_EQ(Max::combine({3, 11, -11}, {3, 16, -16}).index, 16);
  EXPECT_EQ(Max::combine({3, 16, -16}, {3, 11, -11}).index, 16);
  EXPECT_EQ(Min::combine({-2.0, 18, -18}, {-2.0, 12, -12}).index, 18);
  EXPECT_EQ(Max::combine({3, 16, -16}, {4, 11, -11}).index, 11);  // a larger value still wins
}

TEST(Reduction, BasicValues) {
  std::vector<int32_t> i{6, 3, 5};
  EXPECT_EQ((Reducer<ReduceOp::sum, int32_t>::over(i)), 14);
  EXPECT_EQ((Reducer<ReduceOp::product, int32_t>::over(i)), 90);
  EXPECT_EQ((Reducer<ReduceOp::band, int32_t>::over(i)), 6 & 3 & 5);
  EXPECT_EQ((Reducer<ReduceOp::bor, int32_t>::over(i)), 6 | 3 | 5);
  std::vector<char> c{'q', 'b', 'z'};
  EXPECT_EQ((Reducer<ReduceOp::max, char>::over(c)), 'z');
  EXPECT_EQ((Reducer<ReduceOp::min, char>::over(c)), 'b');
  bool b[3] = {true, false, true};
  EXPECT_FALSE((Reducer<ReduceOp::land, bool>::over(b)));
  EXPECT_TRUE((Reducer<ReduceOp::lor, bool>::over(b)));
  // Integer overflow wraps (two's complement) instead of being undefined.
  std::vector<int32_t> big{INT32_MAX, 1};
  EXPECT_EQ((Reducer<ReduceOp::sum, int32_t>::over(big)), INT32_MIN);
}

// Splits `values` over `threads` real threads in blocks and checks the combined result against
// one sequential pass; the combine is by thread id, so repeated runs agree bit for bit.
template <ReduceOp Op, typename T>
void check_thread_combiner(std::span<const T> values, int threads) {
  using R = Reducer<Op, T>;
  auto run = [&] {
    ThreadCombiner<Op, T> comb(threads);
    std::vector<std::thread> ts;
    size_t per = (values.size() + threads - 1) / threads;
    for (int t = 0; t < threads; ++t)
      ts.emplace_back([&, t] {
        size_t lo = std::min(values.size(), t * per), hi = std::min(values.size(), lo + per);
        std::span<const T> part(values.data() + lo, hi - lo);
        comb.contribute(t, R::over(part, static_cast<int32_t>(lo)));
      });
    for (auto& t : ts) t.join();
    return comb.combine();
  };
  auto first = run();
  auto seq = R::over(values);
  if constexpr (std::is_floating_point_v<T> && !R::kEntry)
    EXPECT_NEAR(first, seq, 1e-6 * std::max<double>(1.0, std::fabs(seq))) << reduce_op_name(Op);
  else
    EXPECT_TRUE(first == seq) << reduce_op_name(Op);
  for (int rep = 0; rep < 3; ++rep) EXPECT_TRUE(run() == first) << "not deterministic";
}

TEST(Reduction, ThreadCombinerMatchesSequentialForAllOperators) {
  std::mt19937 rng(12345);  // fixed seed
  SCOPED_TRACE("seed 12345");
  std::vector<int32_t> ints(1001);
  for (auto& x : ints) x = static_cast<int32_t>(rng() % 7) - 3;
  std::vector<double> dbl(1001);
  for (auto& x : dbl) x = static_cast<double>(rng() % 1000) / 8.0;
  std::vector<float> flt(dbl.begin(), dbl.end());
  std::vector<double> near_one(200);
  for (auto& x : near_one) x = 1.0 + (static_cast<double>(rng() % 21) - 10) / 1000.0;
  std::vector<char> chars(300);
  for (auto& x : chars) x = static_cast<char>('a' + rng() % 5);
  bool bools[64];
  for (auto& b : bools) b = rng() % 10 != 0;
  for (int threads : {1, 3, 4}) {
    check_thread_combiner<ReduceOp::sum, int32_t>(ints, threads);
    check_thread_combiner<ReduceOp::sum, double>(dbl, threads);
    check_thread_combiner<ReduceOp::sum, float>(flt, threads);
    check_thread_combiner<ReduceOp::product, double>(near_one, threads);
    check_thread_combiner<ReduceOp::product, int32_t>(ints, threads);
    check_thread_combiner<ReduceOp::max, int32_t>(ints, threads);
    check_thread_combiner<ReduceOp::min, double>(dbl, threads);
    check_thread_combiner<ReduceOp::max, char>(chars, threads);
    check_thread_combiner<ReduceOp::max_entry, int32_t>(ints, threads);
    check_thread_combiner<ReduceOp::min_entry, int32_t>(ints, threads);
    check_thread_combiner<ReduceOp::max_entry, char>(chars, threads);
    check_thread_combiner<ReduceOp::min_entry, float>(flt, threads);
    check_thread_combiner<ReduceOp::band, int32_t>(ints, threads);
    check_thread_combiner<ReduceOp::bor, int32_t>(ints, threads);
    check_thread_combiner<ReduceOp::land, bool>(bools, threads);
    check_thread_combiner<ReduceOp::lor, bool>(bools, threads);
  }
}

TEST(Reduction, TypeErasedCombinerMatchesTemplate) {
  Combiner c = make_combiner<ReduceOp::min_entry, double>();
  ASSERT_EQ(c.value_size, sizeof(Entry<double>));
  Entry<double> acc[2], in[2] = {{1.5, 4}, {-2.0, 9}};
  c.fill_identity(acc, 2);
  EXPECT_TRUE(acc[0].empty());
  c.combine(acc, in, 2);
  Entry<double> more[2] = {{1.5, 2}, {-1.0, 1}};
  c.combine(acc, more, 2);
  EXPECT_EQ(acc[0], (Entry<double>{1.5, 2}));
  EXPECT_EQ(acc[1], (Entry<double>{-2.0, 9}));
}

}  // namespace
}  // namespace itrt
