// SmallVector against std::vector: the same random operations on both must leave the same
// contents, across the switch between in-place and heap storage (N = 3, as a Box has).
#include "runtime/support/small_vector.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using Small = itrt::SmallVector<std::pair<int64_t, int64_t>, 3>;
using Reference = std::vector<std::pair<int64_t, int64_t>>;

void expect_same(const Small& s, const Reference& r) {
    ASSERT_EQ(s.size(), r.size());
    EXPECT_EQ(s.empty(), r.empty());
    for (size_t i = 0; i < r.size(); ++i)
        EXPECT_EQ(s[i], r[i]) << "element " << i;
    EXPECT_EQ(Reference(s.begin(), s.end()), r);
}

TEST(SmallVector, RandomOperationsMatchStdVector) {
    std::mt19937_64 rng(7);
    Small s;
    Reference r;
    for (int step = 0; step < 20000; ++step) {
        const int op = static_cast<int>(rng() % 10);
        if (op < 4) {
            std::pair<int64_t, int64_t> v{static_cast<int64_t>(rng() % 100), static_cast<int64_t>(rng() % 100)};
            s.push_back(v);
            r.push_back(v);
        } else if (op < 7 && !r.empty()) {
            s.pop_back();
            r.pop_back();
        } else if (op == 7) {
            const size_t n = rng() % 7;
            s.resize(n);
            r.resize(n);
        } else if (op == 8 && rng() % 8 == 0) {
            s.clear();
            r.clear();
        } else if (op == 9 && !r.empty()) {
            const size_t i = rng() % r.size();
            s[i].first += 1;
            r[i].first += 1;
        }
        expect_same(s, r);
        if (HasFailure())
            return;
    }
}

TEST(SmallVector, ComparesAsStdVectorDoes) {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 2000; ++trial) {
        Small a, b;
        Reference ra, rb;
        for (size_t i = 0, n = rng() % 6; i < n; ++i) {
            std::pair<int64_t, int64_t> v{static_cast<int64_t>(rng() % 3), 0};
            a.push_back(v);
            ra.push_back(v);
        }
        for (size_t i = 0, n = rng() % 6; i < n; ++i) {
            std::pair<int64_t, int64_t> v{static_cast<int64_t>(rng() % 3), 0};
            b.push_back(v);
            rb.push_back(v);
        }
        EXPECT_EQ(a == b, ra == rb);
        EXPECT_EQ(a < b, ra < rb);
        EXPECT_EQ(b < a, rb < ra);
    }
}

TEST(SmallVector, MovedFromIsEmptyAndCopiesAreIndependent) {
    for (size_t n : {size_t{2}, size_t{5}}) { // in place, and on the heap
        Small a;
        for (size_t i = 0; i < n; ++i)
            a.push_back({static_cast<int64_t>(i), 0});
        Small copy = a;
        copy[0].first = 99;
        EXPECT_EQ(a[0].first, 0);
        Small moved = std::move(a);
        EXPECT_TRUE(a.empty()); // NOLINT(bugprone-use-after-move): the guarantee under test
        EXPECT_EQ(moved.size(), n);
        Small assigned;
        assigned = std::move(moved);
        EXPECT_TRUE(moved.empty()); // NOLINT(bugprone-use-after-move)
        EXPECT_EQ(assigned.size(), n);
        EXPECT_EQ(assigned.at(n - 1).first, static_cast<int64_t>(n - 1));
        EXPECT_THROW(assigned.at(n), std::out_of_range);
    }
}

} // namespace
