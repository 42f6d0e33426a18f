// A part of an array held by one LPU: per array dimension, the held index set (padding included)
// and the owned subset. Local storage of a part is row-major, dense, covering the held set.
// Parts of lower LPSes are computed from their parent part; see space_config.h.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/data/dim_range.h"
#include "runtime/data/index_set.h"
#include "runtime/data/partition_function.h"

namespace itrt {

class Part {
public:
    Part() = default;
    // The array's part in Root: the whole ranges, owned and held.
    static Part whole(const std::vector<DimRange>& ranges);

    int rank() const { return static_cast<int>(dims_.size()); }
    const IndexSet1D& held(int d) const { return dims_[static_cast<size_t>(d)].held; }
    const IndexSet1D& owned(int d) const { return dims_[static_cast<size_t>(d)].owned; }
    // The owned elements of dimension d as positions of the held sequence (an interval).
    const Piece& owned_in_held(int d) const { return dims_[static_cast<size_t>(d)].owned_in_held; }

    // Held lengths per dimension = the local storage's extents.
    std::vector<int64_t> extents() const;
    // Row-major strides of the local storage, in elements.
    std::vector<int64_t> strides() const;
    int64_t element_count() const; // held elements (local storage size)
    int64_t owned_count() const;

    bool holds(std::span<const int64_t> global) const;
    bool owns(std::span<const int64_t> global) const;
    // Offset in local storage of a held global index tuple; nullopt if not held.
    std::optional<int64_t> local_offset(std::span<const int64_t> global) const;
    // Range of a contiguous held dimension (`a.local.dimensionK.range`), nullopt if strided.
    std::optional<DimRange> local_range(int d) const;

    // The part that splits this one: for each dimension, the positions chosen by a partition
    // function (nullopt = dimension held whole, as large as this part).
    Part child(const std::vector<std::optional<PartPositions>>& per_dim) const;

    // This part seen in an index space with more dimensions: `fixed` has one entry per
    // dimension of that space, an index for each dimension this part does not have (a section
    // `m[...][c]` drops dimension 2 at c) and nullopt for each of this part's own, in order.
    Part with_fixed(const std::vector<std::optional<int64_t>>& fixed) const;

    // The same part owning only what it owns within [lo, hi] of each dimension (an ancestor's
    // owned box: cells of a parent's padding are not the child's to hand on).
    Part owned_within(const std::vector<std::pair<int64_t, int64_t>>& box) const;

    // "[3..7 | own 3..6] x [0..4 | own 0..4]" for messages and tests.
    std::string to_string() const;
    // The part's exact description (IndexSet1D::append_signature of every held and owned set):
    // a key for parts that are the same, without formatting them.
    std::vector<int64_t> signature() const;

private:
    // One block for all dimensions: a task keeps a part per LPU and array.
    struct Dim {
        IndexSet1D held, owned;
        Piece owned_in_held;
    };
    std::vector<Dim> dims_;
};

} // namespace itrt
