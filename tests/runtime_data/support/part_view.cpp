// Builds the per-dimension maps from a nested part's local positions to its ancestor's local
// positions, preferring an affine (offset, stride) form so loops over views stay plain strides.
#include "tests/runtime_data/support/part_view.h"

#include <fmt/format.h>

#include "runtime/data/data_error.h"

namespace itrt {

PartView::PartView(const Part& part, const Part& ancestor) {
    if (part.rank() != ancestor.rank())
        throw PartitionError(fmt::format("internal error: view of a {}-dimensional part in a {}-dimensional one",
                                         part.rank(), ancestor.rank()));
    auto astrides = ancestor.strides();
    for (int d = 0; d < part.rank(); ++d) {
        const IndexSet1D& mine = part.held(d);
        const IndexSet1D& outer = ancestor.held(d);
        Dim dim;
        dim.stride = astrides[d];
        auto a = mine.affine_translation();
        auto b = outer.affine_translation();
        bool done = false;
        if (a && b && !mine.empty()) {
            auto first = outer.local_of(a->first);
            int64_t last_global = mine.last();
            if (first && outer.local_of(last_global) && a->step % b->step == 0) {
                dim.first = *first;
                dim.step = mine.size() > 1 ? a->step / b->step : 1;
                done = true;
            }
        }
        if (!done) {
            for (int64_t k = 0; k < mine.size(); ++k) {
                auto p = outer.local_of(mine.at(k));
                if (!p)
                    throw PartitionError(fmt::format("internal error: part {} is not inside part {}", part.to_string(),
                                                     ancestor.to_string()));
                dim.table.push_back(*p);
            }
        }
        dims_.push_back(std::move(dim));
    }
}

int64_t PartView::offset(std::span<const int64_t> local) const {
    int64_t off = 0;
    for (size_t d = 0; d < dims_.size(); ++d)
        off += dims_[d].pos(local[d]) * dims_[d].stride;
    return off;
}

bool PartView::affine() const {
    for (const Dim& d : dims_)
        if (!d.table.empty())
            return false;
    return true;
}

int64_t PartView::base() const {
    int64_t off = 0;
    for (const Dim& d : dims_)
        off += d.pos(0) * d.stride;
    return off;
}

std::vector<int64_t> PartView::strides() const {
    std::vector<int64_t> s;
    for (const Dim& d : dims_)
        s.push_back(d.step * d.stride);
    return s;
}

} // namespace itrt
