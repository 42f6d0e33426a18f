// Multi-dimensional parts as products of per-dimension index sets, their local storage layout,
// and the construction of a child part inside its parent part (padding included, R-56).
#include "runtime/data/part.h"

#include <algorithm>
#include <sstream>

namespace itrt {

Part Part::whole(const std::vector<DimRange>& ranges) {
    Part p;
    for (const DimRange& r : ranges) {
        p.held_.push_back(IndexSet1D::whole(r));
        p.owned_.push_back(IndexSet1D::whole(r));
        p.owned_in_held_.push_back(Piece::interval(0, r.length()));
    }
    return p;
}

Part Part::with_fixed(const std::vector<std::optional<int64_t>>& fixed) const {
    Part p;
    size_t own = 0;
    for (const auto& f : fixed) {
        if (f) {
            p.held_.push_back(IndexSet1D::whole(DimRange{*f, *f}));
            p.owned_.push_back(p.held_.back());
            p.owned_in_held_.push_back(Piece::interval(0, 1));
        } else {
            p.held_.push_back(held_.at(own));
            p.owned_.push_back(owned_.at(own));
            p.owned_in_held_.push_back(owned_in_held_.at(own));
            ++own;
        }
    }
    return p;
}

Part Part::owned_within(const std::vector<std::pair<int64_t, int64_t>>& box) const {
    Part p = *this;
    for (int d = 0; d < rank(); ++d) {
        const IndexSet1D& o = owned_[d];
        if (o.empty())
            continue;
        const auto [lo, hi] = box[d];
        // The owned indices are monotone in the dimension's direction: one run of positions.
        const int64_t k0 = o.dir() > 0 ? o.lower_bound(lo) : o.lower_bound(hi);
        const int64_t k1 = o.dir() > 0 ? o.lower_bound(hi + 1) : o.lower_bound(lo - 1);
        const int64_t n = std::max<int64_t>(0, k1 - k0);
        if (n == o.size())
            continue;
        p.owned_[d] = o.select(Piece::interval(n ? k0 : 0, n));
        const Piece& in_held = owned_in_held_[d];
        p.owned_in_held_[d] = Piece::interval(n ? in_held.map(k0) : 0, n);
    }
    return p;
}

std::vector<int64_t> Part::extents() const {
    std::vector<int64_t> e;
    for (const auto& h : held_)
        e.push_back(h.size());
    return e;
}

std::vector<int64_t> Part::strides() const {
    std::vector<int64_t> s(held_.size(), 1);
    for (int d = rank() - 2; d >= 0; --d)
        s[d] = s[d + 1] * held_[d + 1].size();
    return s;
}

int64_t Part::element_count() const {
    int64_t n = 1;
    for (const auto& h : held_)
        n *= h.size();
    return n;
}

int64_t Part::owned_count() const {
    int64_t n = 1;
    for (const auto& o : owned_)
        n *= o.size();
    return n;
}

bool Part::holds(std::span<const int64_t> global) const { return local_offset(global).has_value(); }

bool Part::owns(std::span<const int64_t> global) const {
    for (int d = 0; d < rank(); ++d)
        if (!owned_[d].contains(global[d]))
            return false;
    return true;
}

std::optional<int64_t> Part::local_offset(std::span<const int64_t> global) const {
    int64_t off = 0;
    for (int d = 0; d < rank(); ++d) {
        auto k = held_[d].local_of(global[d]);
        if (!k)
            return std::nullopt;
        off = off * held_[d].size() + *k;
    }
    return off;
}

std::optional<DimRange> Part::local_range(int d) const {
    if (!held_[d].contiguous() || held_[d].empty())
        return std::nullopt;
    return DimRange{held_[d].first(), held_[d].last()};
}

Part Part::child(const std::vector<std::optional<PartPositions>>& per_dim) const {
    Part c;
    for (int d = 0; d < rank(); ++d) {
        if (per_dim[d]) {
            c.held_.push_back(held_[d].select(per_dim[d]->held));
            c.owned_.push_back(held_[d].select(per_dim[d]->owned));
            c.owned_in_held_.push_back(per_dim[d]->owned_in_held);
        } else {
            c.held_.push_back(held_[d]);
            c.owned_.push_back(held_[d]);
            c.owned_in_held_.push_back(Piece::interval(0, held_[d].size()));
        }
    }
    return c;
}

std::string Part::to_string() const {
    std::ostringstream os;
    for (int d = 0; d < rank(); ++d)
        os << (d ? " x " : "") << '[' << held_[d].to_string() << " | own " << owned_[d].to_string() << ']';
    return os.str();
}

std::vector<int64_t> Part::signature() const {
    std::vector<int64_t> s;
    for (int d = 0; d < rank(); ++d) {
        held_[static_cast<size_t>(d)].append_signature(s);
        owned_[static_cast<size_t>(d)].append_signature(s);
    }
    return s;
}

} // namespace itrt
