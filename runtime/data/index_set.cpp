// Index-set algebra: composition of per-level maps, simplification back to a single map
// whenever possible, inversion (global -> local), and run decomposition.
// Everything is O(chain length) per index; chains longer than one are rare (nested strided sets).
#include "runtime/data/index_set.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace itrt {
namespace {

int64_t sign(int64_t v) { return v < 0 ? -1 : 1; }

// Canonical form: blocks that cover the whole set, single-element blocks, and blocks that abut
// (period == block * step) all describe a plain progression.
Piece normalize(Piece p) {
    if (p.affine())
        return p;
    if (p.count <= p.block)
        return Piece::progression(p.offset, p.step, p.count);
    if (p.block == 1)
        return Piece::progression(p.offset, p.period, p.count);
    if (p.period == p.block * p.step)
        return Piece::progression(p.offset, p.step, p.count);
    return p;
}

// Composes outer(inner(k)) into one piece when the result is still one piece.
std::optional<Piece> merge(const Piece& outer, const Piece& inner) {
    if (inner.count <= 1) {
        int64_t at = inner.count == 0 ? outer.offset : outer.map(inner.offset);
        return Piece::progression(at, outer.step, inner.count);
    }
    if (outer.affine()) {
        Piece p{outer.offset + outer.step * inner.offset, outer.step * inner.period, inner.block,
                outer.step * inner.step, inner.count};
        return normalize(p);
    }
    if (inner.affine() && inner.step == 1) {
        int64_t lo = inner.offset, hi = inner.offset + inner.count - 1;
        if (lo / outer.block == hi / outer.block)
            return Piece::progression(outer.map(lo), outer.step, inner.count);
    }
    // Every inner step skips whole blocks: same offset in each block, so a progression again.
    if (inner.affine() && inner.step % outer.block == 0)
        return Piece::progression(outer.map(inner.offset), outer.period * (inner.step / outer.block), inner.count);
    return std::nullopt;
}

} // namespace

std::optional<int64_t> Piece::inverse(int64_t p) const {
    if (count <= 0)
        return std::nullopt;
    if (affine()) {
        int64_t d = p - offset;
        if (count == 1)
            return d == 0 ? std::optional<int64_t>(0) : std::nullopt;
        if (d % step != 0)
            return std::nullopt;
        int64_t k = d / step;
        if (k < 0 || k >= count)
            return std::nullopt;
        return k;
    }
    int64_t s = sign(step);
    int64_t r = (p - offset) * s;
    if (r < 0)
        return std::nullopt;
    int64_t aperiod = period * s, astep = step * s;
    int64_t j = r / aperiod, rem = r % aperiod;
    if (rem % astep != 0)
        return std::nullopt;
    int64_t w = rem / astep;
    if (w >= block)
        return std::nullopt;
    int64_t k = j * block + w;
    if (k >= count)
        return std::nullopt;
    return k;
}

IndexSet1D IndexSet1D::whole(DimRange range) {
    IndexSet1D s;
    s.dir_ = range.dir();
    s.chain_ = {Piece::progression(range.min, range.dir(), range.length())};
    return s;
}

int64_t IndexSet1D::at(int64_t k) const {
    for (auto it = chain_.rbegin(); it != chain_.rend(); ++it)
        k = it->map(k);
    return k;
}

std::optional<int64_t> IndexSet1D::local_of(int64_t index) const {
    std::optional<int64_t> k = index;
    for (const Piece& p : chain_) {
        k = p.inverse(*k);
        if (!k)
            return std::nullopt;
    }
    return k;
}

bool IndexSet1D::contiguous() const {
    if (chain_.size() != 1 || !chain_[0].affine())
        return false;
    return chain_[0].count <= 1 || chain_[0].step == dir_;
}

std::optional<AffineTranslation> IndexSet1D::affine_translation() const {
    if (chain_.size() != 1 || !chain_[0].affine())
        return std::nullopt;
    const Piece& p = chain_[0];
    return AffineTranslation{p.offset, p.count <= 1 ? dir_ : p.step};
}

std::optional<BlockTranslation> IndexSet1D::block_translation() const {
    if (chain_.size() != 1 || chain_[0].affine())
        return std::nullopt;
    const Piece& p = chain_[0];
    return BlockTranslation{p.offset, p.period, p.block, p.step};
}

IndexSet1D IndexSet1D::select(const Piece& rel) const {
    assert(rel.count >= 0);
    IndexSet1D out = *this;
    if (auto m = merge(out.chain_.back(), rel)) {
        out.chain_.back() = *m;
    } else {
        out.chain_.push_back(normalize(rel));
    }
    while (out.chain_.size() > 1) {
        auto m = merge(out.chain_[out.chain_.size() - 2], out.chain_.back());
        if (!m)
            break;
        out.chain_.pop_back();
        out.chain_.back() = *m;
    }
    return out;
}

std::vector<IndexRun> IndexSet1D::runs(int64_t k_begin, int64_t k_end) const {
    std::vector<IndexRun> out;
    k_begin = std::max<int64_t>(k_begin, 0);
    k_end = std::min(k_end, size());
    if (k_begin >= k_end)
        return out;
    if (chain_.size() == 1) {
        const Piece& p = chain_[0];
        if (p.affine() && (size() == 1 || p.step == dir_))
            return {IndexRun{k_begin, p.map(k_begin), k_end - k_begin}};
        if (!p.affine() && p.step == dir_) {
            for (int64_t k = k_begin; k < k_end; k = (k / p.block + 1) * p.block)
                out.push_back({k, p.map(k), std::min((k / p.block + 1) * p.block, k_end) - k});
            return out;
        }
    }
    for (int64_t k = k_begin; k < k_end; ++k) {
        int64_t i = at(k);
        if (!out.empty() && out.back().first + out.back().length * dir_ == i) {
            ++out.back().length;
        } else {
            out.push_back({k, i, 1});
        }
    }
    return out;
}

int64_t IndexSet1D::lower_bound(int64_t index) const {
    int64_t lo = 0, hi = size();
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (at(mid) * dir_ < index * dir_) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

std::vector<int64_t> IndexSet1D::indices() const {
    std::vector<int64_t> out;
    out.reserve(size());
    for (int64_t k = 0; k < size(); ++k)
        out.push_back(at(k));
    return out;
}

void IndexSet1D::append_signature(std::vector<int64_t>& out) const {
    out.push_back(dir_);
    out.push_back(static_cast<int64_t>(chain_.size()));
    for (const Piece& p : chain_)
        out.insert(out.end(), {p.offset, p.period, p.block, p.step, p.count});
}

std::string IndexSet1D::to_string() const {
    if (empty())
        return "{}";
    std::ostringstream os;
    if (contiguous()) {
        os << first() << ".." << last();
        return os.str();
    }
    if (size() <= 12) {
        for (int64_t k = 0; k < size(); ++k)
            os << (k ? "," : "") << at(k);
    } else {
        for (int64_t k = 0; k < 4; ++k)
            os << at(k) << ",";
        os << "...," << last() << " (" << size() << " indices)";
    }
    return os.str();
}

} // namespace itrt
