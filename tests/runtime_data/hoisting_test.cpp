// Shows the intended use by generated code: the umbrella header only, translations hoisted out of
// the loop nest, and a stencil-like loop over a padded part that reads neighbours through plain
// pointer arithmetic. Also a sub-partition split inside an LPU part, visited in order.
#include <gtest/gtest.h>

#include "runtime/data/data.h"
#include "tests/runtime_data/support/part_view.h"

namespace itrt {
namespace {

TEST(Hoisting, PaddedPartLoopWithHoistedTranslation) {
    const std::vector<DimRange> ranges = {{1, 8}, {20, 11}};
    Part root = Part::whole(ranges);
    ArrayConfig cfg{"plate",
                    {DimInstruction::split(0, {PartitionFn::block_size, 3, 1, 1}),
                     DimInstruction::split(1, {PartitionFn::block_count, 2, 1, 1})}};
    auto counts = lpu_counts(2, {cfg}, {root});
    ASSERT_EQ(counts, (std::vector<int64_t>{3, 2}));
    for (const auto& c : grid_coordinates(counts)) {
        Part p = lpu_part(root, cfg, c);
        std::vector<double> local(p.element_count());
        // Fill the held part (padding included) from global indices.
        const AffineTranslation t0 = *p.held(0).affine_translation(), t1 = *p.held(1).affine_translation();
        const int64_t row = p.strides()[0];
        for (int64_t i = p.held(0).first(); i != p.held(0).last() + p.held(0).dir(); i += p.held(0).dir())
            for (int64_t j = p.held(1).first(); j != p.held(1).last() + p.held(1).dir(); j += p.held(1).dir())
                local[t0.local(i) * row + t1.local(j)] = 100.0 * i + j;
        // Interior of the owned block: global (i, j) neighbours by fixed offsets from a hoisted
        // base.
        const DimRange own0{p.owned(0).first(), p.owned(0).last()}, own1{p.owned(1).first(), p.owned(1).last()};
        for (int64_t i = own0.min; i <= own0.max; ++i) {
            if (i == ranges[0].min || i == ranges[0].max)
                continue;
            const double* r = local.data() + t0.local(i) * row;
            for (int64_t j = own1.min; j >= own1.max; --j) {
                if (j == ranges[1].min || j == ranges[1].max)
                    continue;
                const int64_t lj = t1.local(j);
                // In storage, j+1 (toward min=20) is one element *before* j because the range is
                // inverted.
                EXPECT_EQ(r[lj - 1], 100.0 * i + (j + 1));
                EXPECT_EQ(r[lj + 1], 100.0 * i + (j - 1));
                EXPECT_EQ(r[lj - row], 100.0 * (i - 1) + j);
                EXPECT_EQ(r[lj + row], 100.0 * (i + 1) + j);
            }
        }
    }
}

TEST(SubPartitions, SplitTheLpuPartAndChildSpacesSplitTheCurrentOne) {
    // Space B holds columns 4..7 of a 6-row field; its sub-partition hands over one row at a time.
    Part field = Part::whole({{0, 5}, {0, 9}});
    ArrayConfig b{"field", {DimInstruction::split(1, {PartitionFn::block_size, 4})}};
    int64_t cb[] = {1};
    Part pb = lpu_part(field, b, cb);
    ArrayConfig sub{"field", {DimInstruction::split(0, {PartitionFn::block_size, 1})}};
    auto counts = subpartition_counts(1, {sub}, {pb});
    ASSERT_EQ(counts, (std::vector<int64_t>{6}));
    int64_t expected_row = 5;
    for (const auto& s : subpartition_order(counts, VisitOrder::decreasing)) {
        Part cur = lpu_part(pb, sub, s);
        EXPECT_EQ(cur.to_string(), "[" + std::to_string(expected_row) + ".." + std::to_string(expected_row) +
                                       " | own " + std::to_string(expected_row) + ".." + std::to_string(expected_row) +
                                       "] x [4..7 | own 4..7]");
        // A space dividing B's sub-partitions splits the current row.
        ArrayConfig c{"field", {DimInstruction::split(1, {PartitionFn::block_count, 2})}};
        int64_t cc[] = {1};
        EXPECT_EQ(lpu_part(cur, c, cc).held(1).to_string(), "6..7");
        PartView v(cur, pb);
        EXPECT_TRUE(v.affine());
        EXPECT_EQ(v.base(), expected_row * 4);
        --expected_row;
    }
    EXPECT_EQ(expected_row, -1);
}

} // namespace
} // namespace itrt
