// Test-only brute-force model of §9.5/§9.6: parts as explicit lists of global indices, computed
// position by position straight from the definitions, independent of the runtime's index algebra.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/data/partition_function.h"

namespace itrt::ref {

inline int64_t owner(const PartitionSpec& s, int64_t n, int64_t p) {
    switch (s.fn) {
    case PartitionFn::block_size: return p / s.arg;
    case PartitionFn::block_count: {
        int64_t parts = std::min(s.arg, n), q = n / parts;
        return std::min(p / q, parts - 1);
    }
    case PartitionFn::stride: return p % std::min(s.fanout, n);
    case PartitionFn::block_stride: {
        int64_t blocks = (n + s.arg - 1) / s.arg;
        return (p / s.arg) % std::min(s.fanout, blocks);
    }
    }
    return -1;
}

// Explicit part of a parent given as its index list (in order).
struct Explicit {
    std::vector<int64_t> owned, held;
};

inline Explicit split(const PartitionSpec& s, const std::vector<int64_t>& parent, int64_t c) {
    const int64_t n = static_cast<int64_t>(parent.size());
    Explicit e;
    int64_t lo = -1, hi = -1;
    for (int64_t p = 0; p < n; ++p) {
        if (owner(s, n, p) != c)
            continue;
        e.owned.push_back(parent[p]);
        if (lo < 0)
            lo = p;
        hi = p;
    }
    if (s.fn == PartitionFn::block_size || s.fn == PartitionFn::block_count) {
        for (int64_t p = 0; p < n; ++p)
            if (p >= lo - s.pad_front && p <= hi + s.pad_back)
                e.held.push_back(parent[p]);
    } else {
        e.held = e.owned;
    }
    return e;
}

} // namespace itrt::ref
