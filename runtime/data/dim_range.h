// A dimension's index range {min, max} (§3.5): `min` is the first index, `max` the last, and
// their order gives the direction. Positions 0..length-1 walk the range from min to max.
// Pure value type; no allocation, no IT syntax.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace itrt {

struct DimRange {
    int64_t min = 0;
    int64_t max = 0;

    constexpr int dir() const { return min <= max ? 1 : -1; }
    constexpr int64_t length() const { return (min <= max ? max - min : min - max) + 1; }
    // Index at position p (0 = min).
    constexpr int64_t index_at(int64_t p) const { return min + p * dir(); }
    // Position of index i; only meaningful when contains(i).
    constexpr int64_t position_of(int64_t i) const { return (i - min) * dir(); }
    constexpr bool contains(int64_t i) const {
        int64_t p = position_of(i);
        return p >= 0 && p < length();
    }
    friend constexpr bool operator==(const DimRange&, const DimRange&) = default;
};

} // namespace itrt
