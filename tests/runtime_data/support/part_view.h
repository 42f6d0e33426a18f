// A part of a lower LPS seen inside the local storage of an ancestor part in the same memory:
// offsets and strides into the ancestor's buffer, not a copy. Strided (non-affine) dimensions
// fall back to a per-dimension position table, still O(1) per index.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "runtime/data/part.h"

namespace itrt {

class PartView {
public:
    // `part` must be held inside `ancestor` (any depth of nesting); throws PartitionError if not.
    PartView(const Part& part, const Part& ancestor);

    int rank() const { return static_cast<int>(dims_.size()); }
    // Offset, in the ancestor's buffer, of the element at local coordinates `local` of the part.
    int64_t offset(std::span<const int64_t> local) const;
    // Present when every dimension is affine: ancestor offset = base + sum(local[d] * strides[d]).
    bool affine() const;
    int64_t base() const;
    std::vector<int64_t> strides() const;

    template <class T> T& at(T* ancestor_data, std::span<const int64_t> local) const {
        return ancestor_data[offset(local)];
    }

private:
    struct Dim {
        int64_t first = 0;          // ancestor position of local 0 (affine)
        int64_t step = 1;           // ancestor positions per local step (affine)
        std::vector<int64_t> table; // ancestor position of each local index (non-affine)
        int64_t stride = 1;         // ancestor storage stride of this dimension
        int64_t pos(int64_t k) const { return table.empty() ? first + step * k : table[k]; }
    };
    std::vector<Dim> dims_;
};

} // namespace itrt
