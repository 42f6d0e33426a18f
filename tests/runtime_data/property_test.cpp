// Property tests with fixed, printed seeds: random shapes (non-zero starts, inverted ranges,
// uneven division), random nested partitions; every check compares against the brute-force
// model in reference.h or against exhaustive enumeration of the array's index space.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "runtime/data/data_error.h"
#include "tests/runtime_data/support/ghost_exchange.h"
#include "tests/runtime_data/support/part_view.h"
#include "tests/runtime_data/support/redistribution.h"
#include "runtime/data/space_config.h"
#include "runtime/data/transfer_schedule.h"
#include "tests/runtime_data/reference.h"

namespace itrt {
namespace {

using Tuple = std::vector<int64_t>;

struct Rng {
    explicit Rng(uint64_t seed) : gen(seed) {}
    int64_t in(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(gen); }
    bool coin() { return in(0, 1) == 1; }
    std::mt19937_64 gen;
};

std::vector<DimRange> random_ranges(Rng& r, int rank, int64_t max_len) {
    std::vector<DimRange> out;
    for (int d = 0; d < rank; ++d) {
        int64_t start = r.in(-20, 20), len = r.in(1, max_len);
        out.push_back(r.coin() ? DimRange{start, start + len - 1} : DimRange{start, start - len + 1});
    }
    return out;
}

PartitionSpec random_spec(Rng& r, int64_t n, bool allow_strided, bool allow_padding) {
    PartitionSpec s;
    int kinds = allow_strided ? 4 : 2;
    s.fn = static_cast<PartitionFn>(r.in(0, kinds - 1));
    s.fanout = r.in(1, 5);
    switch (s.fn) {
    case PartitionFn::block_size: s.arg = r.in(1, n + 1); break;
    case PartitionFn::block_count: s.arg = r.in(1, n + 2); break;
    case PartitionFn::stride: break;
    case PartitionFn::block_stride: s.arg = r.in(1, 4); break;
    }
    if (allow_padding && (s.fn == PartitionFn::block_size || s.fn == PartitionFn::block_count)) {
        s.pad_front = r.in(0, 3);
        s.pad_back = r.in(0, 3);
    }
    return s;
}

// A random configuration of a space over `parent`: some space dims split distinct array dims,
// others (only if `allow_replicated`) are replicated.
ArrayConfig random_config(Rng& r, const Part& parent, bool allow_replicated, bool allow_strided = true) {
    std::vector<int> dims(parent.rank());
    for (int d = 0; d < parent.rank(); ++d)
        dims[d] = d;
    std::shuffle(dims.begin(), dims.end(), r.gen);
    int splits = static_cast<int>(r.in(1, parent.rank()));
    ArrayConfig c{"x", {}};
    for (int i = 0; i < splits; ++i)
        c.dims.push_back(
            DimInstruction::split(dims[i], random_spec(r, parent.held(dims[i]).size(), allow_strided, true)));
    if (allow_replicated && r.coin())
        c.dims.insert(c.dims.begin() + r.in(0, splits), DimInstruction::replicate());
    return c;
}

// LPU counts; replicated space dimensions get 1..3 LPUs (another array would fix them).
std::vector<int64_t> counts_for(Rng& r, const Part& parent, const ArrayConfig& c) {
    std::vector<int64_t> counts;
    for (const auto& in : c.dims)
        counts.push_back(in.replicated ? r.in(1, 3) : part_count(in.spec, parent.held(in.array_dim).size()));
    return counts;
}

void for_each_tuple(const std::vector<std::vector<int64_t>>& sets, const std::function<void(const Tuple&)>& fn) {
    Tuple t(sets.size());
    std::function<void(size_t)> rec = [&](size_t d) {
        if (d == sets.size())
            return fn(t);
        for (int64_t i : sets[d]) {
            t[d] = i;
            rec(d + 1);
        }
    };
    rec(0);
}

std::vector<std::vector<int64_t>> held_lists(const Part& p) {
    std::vector<std::vector<int64_t>> out;
    for (int d = 0; d < p.rank(); ++d)
        out.push_back(p.held(d).indices());
    return out;
}

uint64_t base_seed() { return 20261122; }

// Checks one level: all children of `parent` under config `c`.
void check_level(const Part& root, const Part& parent, const ArrayConfig& c, const std::vector<int64_t>& counts) {
    auto coords = grid_coordinates(counts);
    std::map<Tuple, int> owners;
    for (const auto& co : coords) {
        Part child = lpu_part(parent, c, co);
        // 1. Exact per-dimension sets against the brute-force model.
        for (int d = 0; d < parent.rank(); ++d) {
            auto parent_list = parent.held(d).indices();
            std::vector<int64_t> want_held = parent_list, want_owned = parent_list;
            for (size_t t = 0; t < c.dims.size(); ++t) {
                if (c.dims[t].replicated || c.dims[t].array_dim != d)
                    continue;
                auto e = ref::split(c.dims[t].spec, parent_list, co[t]);
                want_held = e.held;
                want_owned = e.owned;
            }
            ASSERT_EQ(child.held(d).indices(), want_held) << "dim " << d << " of " << child.to_string();
            ASSERT_EQ(child.owned(d).indices(), want_owned) << "dim " << d << " of " << child.to_string();
            // Owned sits inside held at owned_in_held.
            const Piece& oih = child.owned_in_held(d);
            for (int64_t k = 0; k < oih.count; ++k)
                ASSERT_EQ(child.held(d).at(oih.map(k)), want_owned[k]);
            // 2. Global -> local translation agrees with the list, for members and non-members.
            int64_t lo = std::min(root.held(d).first(), root.held(d).last()) - 2;
            int64_t hi = std::max(root.held(d).first(), root.held(d).last()) + 2;
            for (int64_t g = lo; g <= hi; ++g) {
                auto it = std::find(want_held.begin(), want_held.end(), g);
                auto got = child.held(d).local_of(g);
                if (it == want_held.end()) {
                    ASSERT_FALSE(got.has_value()) << g << " in " << child.held(d).to_string();
                } else {
                    ASSERT_EQ(got, it - want_held.begin()) << g << " in " << child.held(d).to_string();
                }
            }
            // 3. Nested parts lie inside their parent.
            for (int64_t g : want_held)
                ASSERT_TRUE(parent.held(d).contains(g));
        }
        // Replicas: LPUs differing only in replicated coordinates hold identical parts.
        bool canonical = true;
        for (size_t t = 0; t < c.dims.size(); ++t)
            if (c.dims[t].replicated && co[t] != 0)
                canonical = false;
        if (!canonical) {
            Tuple base = co;
            for (size_t t = 0; t < c.dims.size(); ++t)
                if (c.dims[t].replicated)
                    base[t] = 0;
            ASSERT_EQ(child.to_string(), lpu_part(parent, c, base).to_string());
            continue;
        }
        std::vector<std::vector<int64_t>> owned;
        for (int d = 0; d < child.rank(); ++d)
            owned.push_back(child.owned(d).indices());
        for_each_tuple(owned, [&](const Tuple& t) { ++owners[t]; });
        // 4. Views into the parent and into the root (any depth) address the same global element.
        PartView vp(child, parent), vr(child, root);
        auto ext = child.extents();
        Tuple local(child.rank(), 0);
        for (int64_t n = 0; n < child.element_count(); n += 1 + n / 3) {
            int64_t rem = n;
            Tuple g(child.rank());
            for (int d = child.rank() - 1; d >= 0; --d) {
                local[d] = rem % ext[d];
                rem /= ext[d];
                g[d] = child.held(d).at(local[d]);
            }
            ASSERT_EQ(child.local_offset(g), n);
            ASSERT_EQ(vp.offset(local), parent.local_offset(g));
            ASSERT_EQ(vr.offset(local), root.local_offset(g));
        }
    }
    // 5. Every element of the parent part is owned by exactly one (non-replica) LPU.
    int64_t covered = 0;
    for_each_tuple(held_lists(parent), [&](const Tuple& t) {
        auto it = owners.find(t);
        ASSERT_TRUE(it != owners.end()) << "element not owned";
        ASSERT_EQ(it->second, 1) << "element owned " << it->second << " times";
        ++covered;
    });
    ASSERT_EQ(static_cast<int64_t>(owners.size()), covered);
}

TEST(PartProperties, RandomNestedPartitions) {
    const uint64_t seed = base_seed();
    std::cout << "[ seed ] PartProperties.RandomNestedPartitions seed=" << seed << " trials=400\n";
    Rng r(seed);
    for (int trial = 0; trial < 400; ++trial) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
        int rank = static_cast<int>(r.in(1, 3));
        Part root = Part::whole(random_ranges(r, rank, rank == 3 ? 9 : 14));
        Part parent = root;
        int depth = static_cast<int>(r.in(1, 3));
        for (int level = 0; level < depth && parent.element_count() > 0; ++level) {
            ArrayConfig c = random_config(r, parent, /*allow_replicated=*/true);
            auto counts = counts_for(r, parent, c);
            check_level(root, parent, c, counts);
            if (HasFatalFailure())
                return;
            Tuple pick;
            for (int64_t n : counts)
                pick.push_back(r.in(0, n - 1));
            parent = lpu_part(parent, c, pick);
        }
    }
}

TEST(PartProperties, LpuCountsAgreeWhenConsistent) {
    const uint64_t seed = base_seed() + 1;
    std::cout << "[ seed ] PartProperties.LpuCountsAgreeWhenConsistent seed=" << seed << "\n";
    Rng r(seed);
    for (int trial = 0; trial < 200; ++trial) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
        // Two arrays with the same length along the split dimension and the same function agree;
        // a different block_count argument (both below n) disagrees.
        auto ranges = random_ranges(r, 2, 12);
        Part a = Part::whole(ranges);
        Part b = Part::whole({ranges[1]});
        int64_t n = ranges[1].length();
        PartitionSpec s = random_spec(r, n, true, true);
        ArrayConfig ca{"a", {DimInstruction::split(1, s)}}, cb{"b", {DimInstruction::split(0, s)}};
        ASSERT_EQ(lpu_counts(1, {ca, cb}, {a, b}), (std::vector<int64_t>{part_count(s, n)}));
        if (n >= 3) {
            ArrayConfig c1{"a", {DimInstruction::split(1, {PartitionFn::block_count, 1})}};
            ArrayConfig c2{"b", {DimInstruction::split(0, {PartitionFn::block_count, r.in(2, n)})}};
            ASSERT_THROW(lpu_counts(1, {c1, c2}, {a, b}), PartitionError);
        }
    }
}

int64_t encode(const Tuple& t) {
    int64_t v = 0;
    for (int64_t i : t)
        v = v * 1000 + (i + 500);
    return v;
}

std::vector<int64_t> storage_of(const Part& p) {
    std::vector<int64_t> s(p.element_count());
    for_each_tuple(held_lists(p), [&](const Tuple& t) { s[*p.local_offset(t)] = encode(t); });
    return s;
}

Part random_leaf(Rng& r, const Part& root) {
    Part p = root;
    int depth = static_cast<int>(r.in(1, 2));
    for (int level = 0; level < depth && p.element_count() > 0; ++level) {
        ArrayConfig c = random_config(r, p, false);
        auto counts = counts_for(r, p, c);
        Tuple pick;
        for (int64_t n : counts)
            pick.push_back(r.in(0, n - 1));
        p = lpu_part(p, c, pick);
    }
    return p;
}

void check_transfer(const Part& root, const Part& a, const Part& b, bool owned_sender) {
    auto sched = owned_sender ? TransferSchedule::owned_to_held(a, b) : TransferSchedule::held_to_held(a, b);
    std::set<Tuple> want;
    for_each_tuple(held_lists(root), [&](const Tuple& t) {
        if ((owned_sender ? a.owns(t) : a.holds(t)) && b.holds(t))
            want.insert(t);
    });
    auto got = sched.receiver_indices(b);
    ASSERT_EQ(static_cast<int64_t>(got.size()), sched.element_count());
    std::set<Tuple> got_set(got.begin(), got.end());
    ASSERT_EQ(got_set.size(), got.size()) << "an element is moved twice";
    ASSERT_EQ(got_set, want) << a.to_string() << " -> " << b.to_string();
    // pack -> unpack: exactly the intersection changes, with the sender's values.
    auto src = storage_of(a);
    std::vector<int64_t> buf(sched.element_count(), -7), dst(b.element_count(), -1);
    sched.pack(src.data(), sizeof(int64_t), buf.data());
    sched.unpack(buf.data(), sizeof(int64_t), dst.data());
    for_each_tuple(held_lists(b), [&](const Tuple& t) {
        int64_t v = dst[*b.local_offset(t)];
        ASSERT_EQ(v, want.count(t) ? encode(t) : -1);
    });
}

TEST(TransferProperties, ScheduleMovesExactlyTheIntersection) {
    const uint64_t seed = base_seed() + 2;
    std::cout << "[ seed ] TransferProperties.ScheduleMovesExactlyTheIntersection seed=" << seed << " trials=500\n";
    Rng r(seed);
    for (int trial = 0; trial < 500; ++trial) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
        int rank = static_cast<int>(r.in(1, 3));
        Part root = Part::whole(random_ranges(r, rank, rank == 3 ? 8 : 13));
        Part a = random_leaf(r, root), b = random_leaf(r, root);
        check_transfer(root, a, b, true);
        if (HasFatalFailure())
            return;
        check_transfer(root, a, b, false);
        if (HasFatalFailure())
            return;
    }
}

// The same cells seen from an array whose ranges run the other way (a view `x = w[2...6]` of an
// array ranged 9...0): every cell of the intersection moves, to its own place.
TEST(TransferProperties, ScheduleBetweenOppositeDirections) {
    const uint64_t seed = base_seed() + 5;
    std::cout << "[ seed ] TransferProperties.ScheduleBetweenOppositeDirections seed=" << seed << " trials=300\n";
    Rng r(seed);
    for (int trial = 0; trial < 300; ++trial) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
        int rank = static_cast<int>(r.in(1, 2));
        std::vector<DimRange> ranges = random_ranges(r, rank, 13), flipped = ranges;
        for (DimRange& d : flipped)
            if (r.in(0, 1) == 1)
                std::swap(d.min, d.max);
        Part root = Part::whole(ranges), other_root = Part::whole(flipped);
        Part a = random_leaf(r, root), b = random_leaf(r, other_root);
        check_transfer(root, a, b, true);
        if (HasFatalFailure())
            return;
        check_transfer(root, b, a, false);
        if (HasFatalFailure())
            return;
    }
}

TEST(TransferProperties, GhostExchangeFillsExactlyThePadding) {
    const uint64_t seed = base_seed() + 3;
    std::cout << "[ seed ] TransferProperties.GhostExchangeFillsExactlyThePadding seed=" << seed << " trials=200\n";
    Rng r(seed);
    for (int trial = 0; trial < 200; ++trial) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
        int rank = static_cast<int>(r.in(1, 3));
        Part root = Part::whole(random_ranges(r, rank, rank == 3 ? 8 : 13));
        Part parent = r.coin() ? root : random_leaf(r, root);
        if (parent.element_count() == 0)
            continue;
        ArrayConfig c = random_config(r, parent, true, /*allow_strided=*/false);
        auto counts = counts_for(r, parent, c);
        auto transfers = ghost_exchange(parent, c, counts);
        std::map<Tuple, std::vector<std::pair<Tuple, Tuple>>> received; // receiver -> (element, sender)
        for (const auto& g : transfers) {
            Part to = lpu_part(parent, c, g.to), from = lpu_part(parent, c, g.from);
            for (const auto& e : g.schedule.receiver_indices(to)) {
                ASSERT_TRUE(from.owns(e));
                received[g.to].push_back({e, g.from});
            }
            for (size_t t = 0; t < c.dims.size(); ++t) {
                if (c.dims[t].replicated) {
                    ASSERT_EQ(g.from[t], g.to[t]);
                }
            }
        }
        for (const auto& co : grid_coordinates(counts)) {
            Part me = lpu_part(parent, c, co);
            std::set<Tuple> want, got;
            for_each_tuple(held_lists(me), [&](const Tuple& t) {
                if (!me.owns(t))
                    want.insert(t);
            });
            for (const auto& [e, from] : received[co])
                ASSERT_TRUE(got.insert(e).second) << "padding element received twice";
            ASSERT_EQ(got, want) << me.to_string();
        }
    }
}

// All LPUs' parts of a random one- or two-level layout of `root` (primary replicas only when
// `primary_only`).
std::vector<Part> random_layout(Rng& r, const Part& root, bool primary_only) {
    ArrayConfig c = random_config(r, root, true);
    auto counts = counts_for(r, root, c);
    std::vector<Part> out;
    for (const auto& co : grid_coordinates(counts)) {
        if (primary_only && !primary_replica(c, co))
            continue;
        out.push_back(lpu_part(root, c, co));
    }
    return out;
}

TEST(TransferProperties, RedistributionDeliversEveryHeldElementExactlyOnce) {
    const uint64_t seed = base_seed() + 4;
    std::cout << "[ seed ] TransferProperties.RedistributionDeliversEveryHeldElementExactlyOnce seed=" << seed
              << " trials=200\n";
    Rng r(seed);
    for (int trial = 0; trial < 200; ++trial) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
        int rank = static_cast<int>(r.in(1, 3));
        Part root = Part::whole(random_ranges(r, rank, rank == 3 ? 7 : 12));
        auto senders = random_layout(r, root, true);
        auto receivers = random_layout(r, root, false);
        auto plan = redistribution(senders, receivers);
        std::vector<std::map<Tuple, int>> got(receivers.size());
        int64_t moved = 0;
        for (const auto& t : plan) {
            for (const auto& e : t.schedule.receiver_indices(receivers[t.to])) {
                ASSERT_TRUE(senders[t.from].owns(e));
                ++got[t.to][e];
            }
            moved += t.schedule.element_count();
        }
        int64_t needed = 0;
        for (size_t j = 0; j < receivers.size(); ++j) {
            for_each_tuple(held_lists(receivers[j]), [&](const Tuple& t) {
                ++needed;
                ASSERT_EQ(got[j][t], 1) << "receiver " << j << " element received " << got[j][t] << " times";
            });
            ASSERT_EQ(static_cast<int64_t>(got[j].size()), receivers[j].element_count());
        }
        ASSERT_EQ(moved, needed); // nothing more, nothing less
    }
}

} // namespace
} // namespace itrt
