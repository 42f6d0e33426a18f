// The LPS tree built by analyzePartition: shorthand expansion with copied padding (§9.3 step 1),
// the positional rule with and without `dimN` selectors, parents, sub-partitions, and the
// space whose part a child splits.
#include "semantic/partition/analyze_partition.h"
#include "tests/support/parse_for_test.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace itc;
using namespace itc::semantic;

namespace {

struct Built : test::ParsedForTest {
    LpsTree tree;
};

std::unique_ptr<Built> build(const std::string& partition, const std::string& computation) {
    auto b = std::make_unique<Built>();
    std::string text = "Program (args) {\n}\n\nTask \"T\":\n    Define:\n"
                       "        plate, c: 2d Array of Real single-precision\n"
                       "        v: 1d Array of Integer\n"
                       "    Environment:\n        plate, c, v: link\n"
                       "    Stages:\n        touch(x) {\n            x = x\n        }\n"
                       "    Computation:\n" +
                       computation + partition;
    b->parse("t.it", text);
    EXPECT_FALSE(b->diags->hasErrors()) << b->diagText();
    const ast::TaskDef& task = b->program->tasks.at(0);
    b->tree = analyzePartition(task, collectTaskGlobals(task), *b->diags);
    EXPECT_FALSE(b->diags->hasErrors()) << b->diagText();
    return b;
}

TEST(LpsTree, ShorthandCopiesPaddingToEveryExpandedInstruction) {
    auto b = build("    Partition (p1, p2, k, l, m, n):\n"
                   "        Space A <2d> { plate: block_size(k, l) padding(p1) }\n"
                   "        Space B <2d> divides Space A partitions {\n"
                   "            plate: block_size(m, n) padding(p2, 0)\n"
                   "        }\n",
                   "        Space B { touch(plate) }\n");
    ASSERT_EQ(b->tree.spaces.size(), 3u);
    const ArrayPartition* a = b->tree.at(1).find("plate");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->text(), "plate<dim1, dim2>: block_size(k) padding(p1), block_size(l) padding(p1)");
    const ArrayPartition* bp = b->tree.at(2).find("plate");
    EXPECT_EQ(bp->text(), "plate<dim1, dim2>: block_size(m) padding(p2, 0), block_size(n) padding(p2, 0)");
    EXPECT_EQ(b->tree.at(2).parent, 1);
    EXPECT_TRUE(b->tree.isProperAncestor(1, 2));
    EXPECT_TRUE(b->tree.isProperAncestor(kRootLps, 2));
    EXPECT_EQ(b->tree.configuringSpace(1, "plate"), 1);
    EXPECT_EQ(b->tree.configuringSpace(1, "v"), kRootLps);
}

TEST(LpsTree, PositionalRuleWithSelectorsAndReplication) {
    auto b = build("    Partition (k, l, n, q):\n"
                   "        Space A <2d> {\n"
                   "            c: block_size(k, l)\n"
                   "            plate: replicated, block_size(l)\n"
                   "            v<dim1>: replicated, block_count(n)\n"
                   "            Sub-partition <1d> <ordered> { c<dim2>: block_size(q) }\n"
                   "        }\n",
                   "        Space A { Repeat foreach sub-partition { touch(c) } }\n");
    const Lps& a = b->tree.at(1);
    EXPECT_EQ(a.find("plate")->instructions[0].replicated, true);
    EXPECT_EQ(a.find("plate")->instructions[1].arrayDim, 2); // position 2 splits dimension 2
    EXPECT_EQ(a.find("v")->instructions[1].arrayDim, 1);     // the selector moves it to dim 1
    EXPECT_EQ(a.find("v")->splitting(1), &a.find("v")->instructions[1]);
    ASSERT_TRUE(a.subpartition.has_value());
    EXPECT_EQ(a.subpartition->find("c")->instructions[0].arrayDim, 2);
    EXPECT_EQ(a.subpartition->order, ast::SubpartitionOrder::Ordered);
}

TEST(LpsTree, UnpartitionedSpacesHoldListedArraysWholeAndIgnoreScalars) {
    auto b = build("    Partition (n):\n"
                   "        Space A <un-partitioned> { plate, v }\n"
                   "        Space B <1d> divides Space A partitions { v: block_count(n) }\n",
                   "        Space A { Space B { touch(v) } }\n");
    EXPECT_TRUE(b->tree.at(1).find("plate")->whole);
    EXPECT_EQ(b->tree.configuringSpace(2, "plate"), 1);
    EXPECT_EQ(b->tree.at(1).children, std::vector<int>{2});
}

} // namespace
