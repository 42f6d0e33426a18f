// The "did you mean" rule (runtime/support/nearest_name.h) and its wording
// (frontend/diagnostics/did_you_mean.h): which misspellings get a guess, and which do not.
#include "frontend/diagnostics/did_you_mean.h"

#include <gtest/gtest.h>

using itc::didYouMean;
using itc::didYouMeanOtherwise;
using itc::nearestName;
using itrt::support::edit_distance;

TEST(DidYouMean, DistanceCountsASwapOfNeighboursAsOne) {
    EXPECT_EQ(edit_distance("a_fiel", "a_file"), 1u);
    EXPECT_EQ(edit_distance("Scael", "Scale"), 1u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(DidYouMean, SuggestsTheUniqueNearbyName) {
    EXPECT_EQ(nearestName("multipyl", {"multiply", "divide"}), "multiply");
    EXPECT_EQ(nearestName("byy", {"by", "result", "source"}), "by");
    EXPECT_EQ(nearestName("yy", {"x", "y", "factor"}), "y");
    EXPECT_EQ(nearestName("double-precisoin", {"single-precision", "double-precision"}), "double-precision");
}

TEST(DidYouMean, NoGuessWhenNothingIsNear) {
    EXPECT_EQ(nearestName("zebra", {"by", "result", "source"}), "");
    EXPECT_EQ(nearestName("anything", {}), "");
    // every letter changed: one-letter names never suggest each other
    EXPECT_EQ(nearestName("B", {"A"}), "");
    EXPECT_EQ(nearestName("ab", {"xy"}), "");
}

TEST(DidYouMean, NoGuessBetweenEquallyNearNames) {
    EXPECT_EQ(nearestName("ab", {"abc", "abd"}), "");
    EXPECT_EQ(nearestName("ab", {"abc", "abc"}), "abc"); // the same name twice is one candidate
}

TEST(DidYouMean, TheNameItselfIsNoSuggestion) {
    EXPECT_EQ(nearestName("scale", {"scale"}), "");
    EXPECT_EQ(nearestName("scale", {"scale", "scal"}), "scal");
}

TEST(DidYouMean, Wording) {
    EXPECT_EQ(didYouMean("lnik", {"link", "create", "link-or-create"}), "; did you mean `link`?");
    EXPECT_EQ(didYouMean("zzzz", {"link", "create"}), "");
    EXPECT_EQ(didYouMeanOtherwise("blokcs", {"blocks"}), "did you mean `blocks`? Otherwise ");
    EXPECT_EQ(didYouMeanOtherwise("zzzz", {"blocks"}), "");
    EXPECT_EQ(itc::joinOr({"`Space A`", "`Space B`", "`Space Root`"}), "`Space A`, `Space B` or `Space Root`");
}
