// Unit tests of §9.5/§9.6 on one dimension: the worked example table reproduced exactly, part
// counts, inverted ranges, argument errors, and global<->local translation forms.
#include <gtest/gtest.h>

#include <map>

#include "runtime/data/data_error.h"
#include "tests/runtime_data/support/ghost_exchange.h"
#include "runtime/data/part.h"
#include "tests/runtime_data/support/part_view.h"
#include "runtime/data/space_config.h"
#include "runtime/data/transfer_schedule.h"

namespace itrt {
namespace {

// Held and owned sets of parts 0..P-1 of `range` under `spec`, as "a..b" / "a,b,c" strings.
std::vector<std::string> parts_of(DimRange range, PartitionSpec spec, bool held) {
    Part root = Part::whole({range});
    ArrayConfig cfg{"a", {DimInstruction::split(0, spec)}};
    auto counts = lpu_counts(1, {cfg}, {root});
    std::vector<std::string> out;
    for (int64_t c = 0; c < counts[0]; ++c) {
        int64_t coord[] = {c};
        Part p = lpu_part(root, cfg, coord);
        out.push_back(held ? p.held(0).to_string() : p.owned(0).to_string());
    }
    return out;
}

using V = std::vector<std::string>;
constexpr DimRange kExample{3, 12};

PartitionSpec spec(PartitionFn fn, int64_t arg = 1, int64_t front = 0, int64_t back = 0) {
    return PartitionSpec{fn, arg, front, back, /*fanout=*/3};
}

TEST(WorkedExample, BlockSize) {
    EXPECT_EQ(parts_of(kExample, spec(PartitionFn::block_size, 4), false), (V{"3..6", "7..10", "11..12"}));
}
TEST(WorkedExample, BlockCount) {
    EXPECT_EQ(parts_of(kExample, spec(PartitionFn::block_count, 3), false), (V{"3..5", "6..8", "9..12"}));
}
TEST(WorkedExample, Stride) {
    EXPECT_EQ(parts_of(kExample, spec(PartitionFn::stride), false), (V{"3,6,9,12", "4,7,10", "5,8,11"}));
}
TEST(WorkedExample, BlockStride) {
    EXPECT_EQ(parts_of(kExample, spec(PartitionFn::block_stride, 2), false), (V{"3,4,9,10", "5,6,11,12", "7..8"}));
}
TEST(WorkedExample, BlockSizePadding1Held) {
    EXPECT_EQ(parts_of(kExample, spec(PartitionFn::block_size, 4, 1, 1), true), (V{"3..7", "6..11", "10..12"}));
    // Padding changes neither count nor ownership.
    EXPECT_EQ(parts_of(kExample, spec(PartitionFn::block_size, 4, 1, 1), false), (V{"3..6", "7..10", "11..12"}));
}
TEST(WorkedExample, BlockSizePadding20Held) {
    EXPECT_EQ(parts_of(kExample, spec(PartitionFn::block_size, 4, 2, 0), true), (V{"3..6", "5..10", "9..12"}));
}
TEST(WorkedExample, BlockSizeInverted) {
    EXPECT_EQ(parts_of(DimRange{12, 3}, spec(PartitionFn::block_size, 4), false), (V{"12..9", "8..5", "4..3"}));
}

TEST(PartCount, Formulas) {
    EXPECT_EQ(part_count({PartitionFn::block_size, 4}, 10), 3);
    EXPECT_EQ(part_count({PartitionFn::block_size, 5}, 10), 2);
    EXPECT_EQ(part_count({PartitionFn::block_size, 20}, 10), 1);
    EXPECT_EQ(part_count({PartitionFn::block_count, 4}, 10), 4);
    EXPECT_EQ(part_count({PartitionFn::block_count, 40}, 10), 10);
    EXPECT_EQ(part_count({PartitionFn::stride, 1, 0, 0, 7}, 10), 7);
    EXPECT_EQ(part_count({PartitionFn::stride, 1, 0, 0, 70}, 10), 10);
    EXPECT_EQ(part_count({PartitionFn::block_stride, 3, 0, 0, 8}, 10), 4);
    EXPECT_EQ(part_count({PartitionFn::block_stride, 3, 0, 0, 2}, 10), 2);
}

TEST(BlockCount, RemainderGoesToLastPart) {
    EXPECT_EQ(parts_of(DimRange{0, 10}, spec(PartitionFn::block_count, 4), false),
              (V{"0..1", "2..3", "4..5", "6..10"}));
    EXPECT_EQ(parts_of(DimRange{0, 2}, spec(PartitionFn::block_count, 5), false), (V{"0..0", "1..1", "2..2"}));
}

TEST(Padding, FrontIsLargerIndexOnInvertedRange) {
    // Front padding 2 on 12...3: part 1 owns 8..5, holds 10..5 (two more on the 12 side).
    EXPECT_EQ(parts_of(DimRange{12, 3}, spec(PartitionFn::block_size, 4, 2, 0), true), (V{"12..9", "10..5", "6..3"}));
    EXPECT_EQ(parts_of(DimRange{12, 3}, spec(PartitionFn::block_size, 4, 0, 1), true), (V{"12..8", "8..4", "4..3"}));
}

TEST(Padding, ClippedAtBothEnds) {
    EXPECT_EQ(parts_of(DimRange{-2, 2}, spec(PartitionFn::block_count, 1, 9, 9), true), (V{"-2..2"}));
}

TEST(Arguments, NonPositiveIsAnError) {
    Part root = Part::whole({DimRange{0, 9}});
    for (int64_t bad : {0, -3}) {
        ArrayConfig cfg{"grid", {DimInstruction::split(0, {PartitionFn::block_size, bad})}};
        try {
            lpu_counts(1, {cfg}, {root});
            FAIL() << "expected a PartitionError";
        } catch (const PartitionError& e) {
            EXPECT_EQ(std::string(e.what()), "array `grid`, space dimension 1: the argument of "
                                             "`block_size` must be positive, got " +
                                                 std::to_string(bad));
        }
    }
    ArrayConfig cfg{"v", {DimInstruction::split(0, {PartitionFn::stride, 1, 1, 0, 2})}};
    EXPECT_THROW(
        {
            try {
                lpu_counts(1, {cfg}, {root});
            } catch (const PartitionError& e) {
                EXPECT_STREQ(e.what(), "array `v`, space dimension 1: `stride` does not take padding");
                throw;
            }
        },
        PartitionError);
}

TEST(Agreement, DisagreeingCountsNameArraysAndCounts) {
    Part a = Part::whole({DimRange{3, 12}});
    Part b = Part::whole({DimRange{0, 8}, DimRange{0, 1}});
    ArrayConfig ca{"a", {DimInstruction::split(0, {PartitionFn::block_size, 4})}};
    ArrayConfig cb{"b", {DimInstruction::split(0, {PartitionFn::block_count, 2})}};
    try {
        lpu_counts(1, {ca, cb}, {a, b});
        FAIL() << "expected a PartitionError";
    } catch (const PartitionError& e) {
        EXPECT_STREQ(e.what(), "part counts disagree on space dimension 1: `a` gives 3 parts "
                               "(block_size(4) of 10 indices), but `b` "
                               "gives 2 parts (block_count(2) of 9 indices)");
    }
    ArrayConfig cb3{"b", {DimInstruction::split(0, {PartitionFn::block_count, 3})}};
    EXPECT_EQ(lpu_counts(1, {ca, cb3}, {a, b}), (std::vector<int64_t>{3}));
}

TEST(Agreement, SpaceDimensionSplitByNoArray) {
    Part a = Part::whole({DimRange{0, 9}});
    ArrayConfig ca{"a", {DimInstruction::split(0, {PartitionFn::block_size, 4}), DimInstruction::replicate()}};
    EXPECT_THROW(lpu_counts(2, {ca}, {a}), PartitionError);
}

TEST(Translation, ContiguousIsOffsetAndDirection) {
    Part root = Part::whole({DimRange{20, 1}});
    ArrayConfig cfg{"a", {DimInstruction::split(0, {PartitionFn::block_size, 6, 1, 1})}};
    int64_t c[] = {1};
    Part p = lpu_part(root, cfg, c);
    ASSERT_EQ(p.held(0).to_string(), "15..8");
    auto t = p.held(0).affine_translation();
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->first, 15);
    EXPECT_EQ(t->step, -1);
    for (int64_t g = 15; g >= 8; --g)
        EXPECT_EQ(t->local(g), 15 - g);
    EXPECT_EQ(p.local_range(0), (DimRange{15, 8}));
    EXPECT_EQ(p.owned_in_held(0).offset, 1);
    EXPECT_EQ(p.owned_in_held(0).count, 6);
}

TEST(Translation, BlockStrideIsBlockNumberAndOffset) {
    Part root = Part::whole({DimRange{3, 12}});
    ArrayConfig cfg{"a", {DimInstruction::split(0, {PartitionFn::block_stride, 2, 0, 0, 3})}};
    int64_t c[] = {1};
    Part p = lpu_part(root, cfg, c);
    auto t = p.held(0).block_translation();
    ASSERT_TRUE(t.has_value());
    std::vector<int64_t> expect = {5, 6, 11, 12};
    for (int64_t k = 0; k < 4; ++k) {
        EXPECT_EQ(t->global(k), expect[k]);
        EXPECT_EQ(t->local(expect[k]), k);
        EXPECT_EQ(p.held(0).local_of(expect[k]), k);
    }
    EXPECT_FALSE(p.held(0).local_of(7).has_value());
    EXPECT_FALSE(p.local_range(0).has_value());
}

TEST(Translation, StridedIsProgression) {
    Part root = Part::whole({DimRange{12, 3}});
    ArrayConfig cfg{"a", {DimInstruction::split(0, {PartitionFn::stride, 1, 0, 0, 3})}};
    int64_t c[] = {2};
    Part p = lpu_part(root, cfg, c);
    EXPECT_EQ(p.held(0).to_string(), "10,7,4");
    auto t = p.held(0).affine_translation();
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->step, -3);
    EXPECT_EQ(t->local(4), 2);
}

TEST(Replication, LpusDifferingInReplicatedDimHoldIdenticalParts) {
    Part root = Part::whole({DimRange{0, 7}, DimRange{0, 5}});
    ArrayConfig cfg{"a", {DimInstruction::split(0, {PartitionFn::block_size, 3}), DimInstruction::replicate()}};
    ArrayConfig other{"b", {DimInstruction::replicate(), DimInstruction::split(0, {PartitionFn::block_count, 2})}};
    Part root_b = Part::whole({DimRange{0, 5}});
    auto counts = lpu_counts(2, {cfg, other}, {root, root_b});
    ASSERT_EQ(counts, (std::vector<int64_t>{3, 2}));
    for (int64_t i = 0; i < 3; ++i) {
        int64_t c0[] = {i, 0}, c1[] = {i, 1};
        Part p0 = lpu_part(root, cfg, c0), p1 = lpu_part(root, cfg, c1);
        EXPECT_EQ(p0.to_string(), p1.to_string());
        EXPECT_EQ(p0.held(1).to_string(), "0..5"); // row dimension held whole
    }
}

TEST(Nesting, ChildSplitsPaddedParentPart) {
    // Space A: block_size(5) padding(1) on 0..19; Space B divides A: block_count(2) of the held
    // part.
    Part root = Part::whole({DimRange{0, 19}});
    ArrayConfig a{"x", {DimInstruction::split(0, {PartitionFn::block_size, 5, 1, 1})}};
    int64_t ca[] = {1};
    Part pa = lpu_part(root, a, ca);
    ASSERT_EQ(pa.held(0).to_string(), "4..10");
    ArrayConfig b{"x", {DimInstruction::split(0, {PartitionFn::block_count, 2, 0, 1})}};
    EXPECT_EQ(lpu_counts(1, {b}, {pa}), (std::vector<int64_t>{2}));
    int64_t c0[] = {0}, c1[] = {1};
    EXPECT_EQ(lpu_part(pa, b, c0).held(0).to_string(), "4..7");
    EXPECT_EQ(lpu_part(pa, b, c1).owned(0).to_string(), "7..10");
}

TEST(Nesting, StrideInsideBlockStrideUsesParentPositions) {
    Part root = Part::whole({DimRange{3, 12}});
    ArrayConfig a{"x", {DimInstruction::split(0, {PartitionFn::block_stride, 2, 0, 0, 3})}};
    int64_t c0[] = {0};
    Part pa = lpu_part(root, a, c0); // 3,4,9,10
    ArrayConfig b{"x", {DimInstruction::split(0, {PartitionFn::stride, 1, 0, 0, 2})}};
    int64_t c1[] = {1};
    EXPECT_EQ(lpu_part(pa, b, c1).held(0).to_string(), "4,10");
    // block_stride(2) blocks taken every other element of width 2: one progression again.
    ArrayConfig b2{"x", {DimInstruction::split(0, {PartitionFn::stride, 1, 0, 0, 2})}};
    EXPECT_EQ(lpu_part(pa, b2, c0).held(0).to_string(), "3,9");
    EXPECT_EQ(lpu_part(pa, b2, c0).held(0).chain().size(), 1u);
    EXPECT_EQ(lpu_part(pa, b2, c0).held(0).affine_translation()->step, 6);
    ArrayConfig bs{"x", {DimInstruction::split(0, {PartitionFn::block_size, 3})}};
    EXPECT_EQ(lpu_part(pa, bs, c0).held(0).to_string(), "3,4,9");
    EXPECT_EQ(lpu_part(pa, bs, c0).held(0).chain().size(), 2u); // not one piece: kept as a chain
    EXPECT_EQ(lpu_part(pa, bs, c1).held(0).to_string(), "10..10");
}

TEST(SubPartition, OnlyBlockFunctionsWithoutPadding) {
    Part p = Part::whole({DimRange{0, 9}, DimRange{0, 3}});
    ArrayConfig bad{"field", {DimInstruction::split(0, {PartitionFn::stride, 1, 0, 0, 2})}};
    try {
        subpartition_counts(1, {bad}, {p});
        FAIL();
    } catch (const PartitionError& e) {
        EXPECT_STREQ(e.what(), "array `field`: `stride` is not allowed in a sub-partition (only "
                               "block_size, block_count and replicated)");
    }
    ArrayConfig padded{"field", {DimInstruction::split(0, {PartitionFn::block_size, 2, 1, 0})}};
    EXPECT_THROW(subpartition_counts(1, {padded}, {p}), PartitionError);
    ArrayConfig ok{"field", {DimInstruction::split(0, {PartitionFn::block_size, 1})}};
    EXPECT_EQ(subpartition_counts(1, {ok}, {p}), (std::vector<int64_t>{10}));
}

TEST(SubPartition, VisitOrders) {
    int64_t counts[] = {2, 3};
    auto inc = subpartition_order(counts, VisitOrder::increasing);
    auto dec = subpartition_order(counts, VisitOrder::decreasing);
    auto any = subpartition_order(counts, VisitOrder::unordered);
    ASSERT_EQ(inc.size(), 6u);
    EXPECT_EQ(inc.front(), (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(inc[1], (std::vector<int64_t>{0, 1}));
    EXPECT_EQ(inc[3], (std::vector<int64_t>{1, 0}));
    for (size_t i = 1; i < inc.size(); ++i)
        EXPECT_LT(inc[i - 1], inc[i]);
    for (size_t i = 0; i < inc.size(); ++i)
        EXPECT_EQ(dec[i], inc[inc.size() - 1 - i]);
    auto sorted = any;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, inc); // each sub-partition exactly once
}

TEST(View, NestedPartIsAffineViewIntoParentStorage) {
    Part root = Part::whole({DimRange{0, 9}, DimRange{10, 1}});
    ArrayConfig a{"m",
                  {DimInstruction::split(0, {PartitionFn::block_size, 5, 1, 1}),
                   DimInstruction::split(1, {PartitionFn::block_count, 2})}};
    int64_t ca[] = {1, 0};
    Part pa = lpu_part(root, a, ca); // rows 4..9, cols 10..6
    ArrayConfig b{"m", {DimInstruction::split(1, {PartitionFn::block_size, 2})}};
    int64_t cb[] = {1};
    Part pb = lpu_part(pa, b, cb); // rows 4..9, cols 8..7
    PartView v(pb, pa);
    ASSERT_TRUE(v.affine());
    EXPECT_EQ(v.base(), 2);
    EXPECT_EQ(v.strides(), (std::vector<int64_t>{5, 1}));
    std::vector<int> storage(pa.element_count());
    for (size_t i = 0; i < storage.size(); ++i)
        storage[i] = static_cast<int>(i);
    int64_t local[] = {3, 1};
    int64_t global[] = {7, 7};
    EXPECT_EQ(v.at(storage.data(), local), *pa.local_offset(global));
}

} // namespace
} // namespace itrt

namespace itrt {
namespace {

TEST(Intersection, HugeStridedSetAgainstSmallIntervalIsClipped) {
    // 2e9 indices split by stride() into 3 parts: enumerating all runs would not finish; the
    // intersection with a 10-index interval must only look at the overlap.
    Part root = Part::whole({DimRange{-1000000000, 999999999}});
    ArrayConfig s{"big", {DimInstruction::split(0, {PartitionFn::stride, 1, 0, 0, 3})}};
    int64_t c1[] = {1};
    Part strided = lpu_part(root, s, c1); // positions 1, 4, 7, ... => indices -999999999, ...
    ArrayConfig b{"big", {DimInstruction::split(0, {PartitionFn::block_size, 10})}};
    int64_t cb[] = {100000000}; // positions 1e9 .. 1e9+9 => indices 0..9
    Part block = lpu_part(root, b, cb);
    ASSERT_EQ(block.held(0).to_string(), "0..9");
    auto sched = TransferSchedule::owned_to_held(strided, block);
    // Positions p = 1e9 + t with p % 3 == 1: 1e9 % 3 == 1, so t = 0, 3, 6, 9.
    EXPECT_EQ(sched.element_count(), 4);
    auto got = sched.receiver_indices(block);
    EXPECT_EQ(got, (std::vector<std::vector<int64_t>>{{0}, {3}, {6}, {9}}));
    EXPECT_EQ(sched.runs()[0][0].src, 333333333);
}

} // namespace
} // namespace itrt

namespace itrt {
namespace {

TEST(GhostExchange, OneDimensionalNeighboursExactly) {
    // block_size(4) padding(1) on 0..11: LPU 1 holds 3..8, owns 4..7; it gets 3 from LPU 0 and
    // 8 from LPU 2, at local positions 0 and 5.
    Part root = Part::whole({DimRange{0, 11}});
    ArrayConfig cfg{"u", {DimInstruction::split(0, {PartitionFn::block_size, 4, 1, 1})}};
    auto transfers = ghost_exchange(root, cfg, {3});
    ASSERT_EQ(transfers.size(), 4u); // 0<-1, 1<-0, 1<-2, 2<-1
    std::vector<std::string> seen;
    for (const auto& t : transfers) {
        ASSERT_EQ(t.schedule.runs()[0].size(), 1u);
        const RunPair& r = t.schedule.runs()[0][0];
        seen.push_back(std::to_string(t.from[0]) + "->" + std::to_string(t.to[0]) + " src " + std::to_string(r.src) +
                       " dst " + std::to_string(r.dst) + " len " + std::to_string(r.length));
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"1->0 src 1 dst 4 len 1", "0->1 src 3 dst 0 len 1",
                                              "2->1 src 1 dst 5 len 1", "1->2 src 4 dst 0 len 1"}));
}

TEST(GhostExchange, TwoDimensionalStripsAreCompressedIntoRuns) {
    // 8x8 in 2x2 blocks of 4x4 with padding 1: LPU (0,0) holds 5x5; from (0,1) it receives one
    // column (4 segments of 1), from (1,0) one row (1 segment of 4), from (1,1) one corner.
    Part root = Part::whole({DimRange{0, 7}, DimRange{0, 7}});
    ArrayConfig cfg{"p",
                    {DimInstruction::split(0, {PartitionFn::block_size, 4, 1, 1}),
                     DimInstruction::split(1, {PartitionFn::block_size, 4, 1, 1})}};
    auto transfers = ghost_exchange(root, cfg, {2, 2});
    std::map<std::vector<int64_t>, const TransferSchedule*> to00;
    for (const auto& t : transfers)
        if (t.to == std::vector<int64_t>{0, 0})
            to00[t.from] = &t.schedule;
    ASSERT_EQ(to00.size(), 3u);
    EXPECT_EQ(to00.at({0, 1})->element_count(), 4);
    EXPECT_EQ(to00.at({0, 1})->segment_count(), 4);
    EXPECT_EQ(to00.at({1, 0})->element_count(), 4);
    EXPECT_EQ(to00.at({1, 0})->segment_count(), 1);
    EXPECT_EQ(to00.at({1, 1})->element_count(), 1);
    int64_t corner[] = {4, 4};
    Part me = lpu_part(root, cfg, std::vector<int64_t>{0, 0});
    EXPECT_EQ(to00.at({1, 1})->receiver_indices(me), (std::vector<std::vector<int64_t>>{{corner[0], corner[1]}}));
}

} // namespace
} // namespace itrt
