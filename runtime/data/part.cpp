// Multi-dimensional parts as products of per-dimension index sets, their local storage layout,
// and the construction of a child part inside its parent part (padding included, R-56).
#include "runtime/data/part.h"

#include <algorithm>
#include <sstream>

namespace itrt {

Part Part::whole(const std::vector<DimRange>& ranges) {
    Part p;
    p.dims_.reserve(ranges.size());
    for (const DimRange& r : ranges)
        p.dims_.push_back({IndexSet1D::whole(r), IndexSet1D::whole(r), Piece::interval(0, r.length())});
    return p;
}

Part Part::with_fixed(const std::vector<std::optional<int64_t>>& fixed) const {
    Part p;
    p.dims_.reserve(fixed.size());
    size_t own = 0;
    for (const auto& f : fixed) {
        if (f) {
            const IndexSet1D one = IndexSet1D::whole(DimRange{*f, *f});
            p.dims_.push_back({one, one, Piece::interval(0, 1)});
        } else {
            p.dims_.push_back(dims_.at(own));
            ++own;
        }
    }
    return p;
}

Part Part::owned_within(const std::vector<std::pair<int64_t, int64_t>>& box) const {
    Part p = *this;
    for (int d = 0; d < rank(); ++d) {
        const IndexSet1D& o = owned(d);
        if (o.empty())
            continue;
        const auto [lo, hi] = box[d];
        // The owned indices are monotone in the dimension's direction: one run of positions.
        const int64_t k0 = o.dir() > 0 ? o.lower_bound(lo) : o.lower_bound(hi);
        const int64_t k1 = o.dir() > 0 ? o.lower_bound(hi + 1) : o.lower_bound(lo - 1);
        const int64_t n = std::max<int64_t>(0, k1 - k0);
        if (n == o.size())
            continue;
        Dim& pd = p.dims_[static_cast<size_t>(d)];
        pd.owned = o.select(Piece::interval(n ? k0 : 0, n));
        pd.owned_in_held = Piece::interval(n ? owned_in_held(d).map(k0) : 0, n);
    }
    return p;
}

std::vector<int64_t> Part::extents() const {
    std::vector<int64_t> e;
    for (const Dim& dim : dims_)
        e.push_back(dim.held.size());
    return e;
}

std::vector<int64_t> Part::strides() const {
    std::vector<int64_t> s(dims_.size(), 1);
    for (int d = rank() - 2; d >= 0; --d)
        s[d] = s[d + 1] * held(d + 1).size();
    return s;
}

int64_t Part::element_count() const {
    int64_t n = 1;
    for (const Dim& dim : dims_)
        n *= dim.held.size();
    return n;
}

int64_t Part::owned_count() const {
    int64_t n = 1;
    for (const Dim& dim : dims_)
        n *= dim.owned.size();
    return n;
}

bool Part::holds(std::span<const int64_t> global) const { return local_offset(global).has_value(); }

bool Part::owns(std::span<const int64_t> global) const {
    for (int d = 0; d < rank(); ++d)
        if (!owned(d).contains(global[d]))
            return false;
    return true;
}

std::optional<int64_t> Part::local_offset(std::span<const int64_t> global) const {
    int64_t off = 0;
    for (int d = 0; d < rank(); ++d) {
        const IndexSet1D& h = held(d);
        auto k = h.local_of(global[d]);
        if (!k)
            return std::nullopt;
        off = off * h.size() + *k;
    }
    return off;
}

std::optional<DimRange> Part::local_range(int d) const {
    const IndexSet1D& h = held(d);
    if (!h.contiguous() || h.empty())
        return std::nullopt;
    return DimRange{h.first(), h.last()};
}

Part Part::child(const std::vector<std::optional<PartPositions>>& per_dim) const {
    Part c;
    c.dims_.reserve(dims_.size());
    for (int d = 0; d < rank(); ++d) {
        const IndexSet1D& h = held(d);
        if (per_dim[d])
            c.dims_.push_back({h.select(per_dim[d]->held), h.select(per_dim[d]->owned), per_dim[d]->owned_in_held});
        else
            c.dims_.push_back({h, h, Piece::interval(0, h.size())});
    }
    return c;
}

std::string Part::to_string() const {
    std::ostringstream os;
    for (int d = 0; d < rank(); ++d)
        os << (d ? " x " : "") << '[' << held(d).to_string() << " | own " << owned(d).to_string() << ']';
    return os.str();
}

std::vector<int64_t> Part::signature() const {
    std::vector<int64_t> s;
    for (int d = 0; d < rank(); ++d) {
        held(d).append_signature(s);
        owned(d).append_signature(s);
    }
    return s;
}

} // namespace itrt
