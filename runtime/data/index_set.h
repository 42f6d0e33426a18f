// One dimension of a part: the ordered set of global indices it covers, as a short chain of
// O(1) maps (intervals, strided sets, block-strided sets, and their nestings). Gives the
// global<->local translation and the runs of consecutive indices used by intersections.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "runtime/data/dim_range.h"
#include "runtime/support/small_vector.h"

namespace itrt {

inline constexpr int64_t kUnblocked = std::numeric_limits<int64_t>::max();

// One level of an index set: element k (0 <= k < count) maps to element p of the parent sequence,
//   p(k) = offset + period * (k / block) + step * (k % block).
// With block == kUnblocked the map is the progression p(k) = offset + step * k.
// Blocked pieces satisfy sign(period) == sign(step) and |period| > block * |step|.
struct Piece {
    int64_t offset = 0;
    int64_t period = 0;
    int64_t block = kUnblocked;
    int64_t step = 1;
    int64_t count = 0;

    bool affine() const { return block == kUnblocked; }
    int64_t map(int64_t k) const {
        return affine() ? offset + step * k : offset + period * (k / block) + step * (k % block);
    }
    // The k with map(k) == p and 0 <= k < count, if any.
    std::optional<int64_t> inverse(int64_t p) const;

    static Piece interval(int64_t first, int64_t count) { return {first, 0, kUnblocked, 1, count}; }
    static Piece progression(int64_t first, int64_t step, int64_t count) { return {first, 0, kUnblocked, step, count}; }
    static Piece blocked(int64_t first, int64_t period, int64_t block, int64_t count) {
        return {first, period, block, 1, count};
    }
};

// A maximal run of consecutive indices (in the array's direction) inside an index set:
// set elements k .. k+length-1 are the indices first, first+dir, ..., first+(length-1)*dir.
struct IndexRun {
    int64_t k = 0;
    int64_t first = 0;
    int64_t length = 0;
};

// The hoistable form of a single-progression set: local = (global - first) / step.
// For a contiguous set step == dir, so local = (global - first) * dir.
struct AffineTranslation {
    int64_t first = 0;
    int64_t step = 1;
    int64_t local(int64_t global) const { return (global - first) / step; }
    int64_t global(int64_t local) const { return first + step * local; }
};

// The hoistable form of a block-strided set: block number and offset inside the block.
struct BlockTranslation {
    int64_t first = 0;  // global index of local element 0
    int64_t period = 0; // global distance between consecutive blocks (signed)
    int64_t block = 1;  // elements per block
    int64_t step = 1;   // global distance between consecutive elements of a block (signed)
    int64_t local(int64_t global) const {
        int64_t r = global - first;
        int64_t j = r / period;
        return j * block + (r - j * period) / step;
    }
    int64_t global(int64_t local) const { return first + period * (local / block) + step * (local % block); }
};

class IndexSet1D {
public:
    IndexSet1D() = default;
    // All indices of a range, from min to max.
    static IndexSet1D whole(DimRange range);

    int64_t size() const { return chain_.back().count; }
    bool empty() const { return size() == 0; }
    // Direction of the underlying array dimension (+1 or -1); elements are monotone in it.
    int dir() const { return dir_; }
    // The k-th index of the set, 0 <= k < size().
    int64_t at(int64_t k) const;
    // The position of a global index in the set, if the set holds it. O(chain length).
    std::optional<int64_t> local_of(int64_t index) const;
    bool contains(int64_t index) const { return local_of(index).has_value(); }
    int64_t first() const { return at(0); }
    int64_t last() const { return at(size() - 1); }

    // True when the set is one run of consecutive indices (an interval in the array's direction).
    bool contiguous() const;
    // Present when the set is one progression (contiguous or strided).
    std::optional<AffineTranslation> affine_translation() const;
    // Present when the set is one block-strided piece.
    std::optional<BlockTranslation> block_translation() const;

    // The sub-sequence whose element k is element rel.map(k) of this set.
    IndexSet1D select(const Piece& rel) const;
    // The maximal runs of consecutive indices, in set order; the second form only covers elements
    // k_begin <= k < k_end (a run may be cut at the boundaries).
    std::vector<IndexRun> runs() const { return runs(0, size()); }
    std::vector<IndexRun> runs(int64_t k_begin, int64_t k_end) const;
    // The first k whose index lies at or beyond `index` in the array's direction (size() if none).
    int64_t lower_bound(int64_t index) const;
    // All indices, in order (for tests and small sets).
    std::vector<int64_t> indices() const;
    // "3..6" for an interval, "3,6,9,12" otherwise (abbreviated beyond 12 indices), "{}" when
    // empty.
    std::string to_string() const;
    // The maps from the set's elements to global indices, outermost (global) first.
    const SmallVector<Piece, 1>& chain() const { return chain_; }
    // Appends the set's exact description (direction and chain) to `out`: equal signatures mean
    // equal sets (equal sets built differently may differ), cheaper to compare than indices.
    void append_signature(std::vector<int64_t>& out) const;

    friend bool operator==(const IndexSet1D& a, const IndexSet1D& b) { return a.indices() == b.indices(); }

private:
    SmallVector<Piece, 1> chain_{Piece{}};
    int dir_ = 1;
};

} // namespace itrt
