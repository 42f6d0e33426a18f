// Run intersection by a two-pointer sweep in the array's direction, and pack/unpack by walking
// the product of per-dimension runs with one memcpy per innermost run. Moves exactly the
// intersection; no element is visited twice.
#include "runtime/data/transfer_schedule.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace itrt {
namespace {

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& extents) {
    std::vector<int64_t> s(extents.size(), 1);
    for (int d = static_cast<int>(extents.size()) - 2; d >= 0; --d)
        s[d] = s[d + 1] * extents[d + 1];
    return s;
}

} // namespace

std::vector<RunPair> intersect_runs(const IndexSet1D& a, const IndexSet1D& a_local, const IndexSet1D& b,
                                    const IndexSet1D& b_local) {
    std::vector<RunPair> out;
    if (a.empty() || b.empty())
        return out;
    const int64_t dir = a.dir();
    if (b.dir() != dir) {
        // Opposite directions (a view running upwards of an array whose range runs downwards):
        // local positions run opposite ways, so each shared element is a run of its own.
        const int64_t bmin = std::min(b.first(), b.last()), bmax = std::max(b.first(), b.last());
        const int64_t end = a.lower_bound(dir > 0 ? bmax + 1 : bmin - 1);
        for (int64_t k = a.lower_bound(dir > 0 ? bmin : bmax); k < end; ++k) {
            const int64_t g = a.at(k);
            auto sb = b.contains(g) ? b_local.local_of(g) : std::nullopt;
            if (!sb)
                continue;
            auto sa = a_local.local_of(g);
            assert(sa);
            out.push_back({*sa, *sb, 1});
        }
        return out;
    }
    // Only the elements of each set inside the other's extent can meet.
    auto clip = [dir](const IndexSet1D& s, const IndexSet1D& other) {
        int64_t begin = s.lower_bound(other.first());
        int64_t end = s.lower_bound(other.last() + dir);
        return s.runs(begin, end);
    };
    auto ra = clip(a, b), rb = clip(b, a);
    size_t i = 0, j = 0;
    // Keys increase along the array's direction.
    while (i < ra.size() && j < rb.size()) {
        int64_t alo = ra[i].first * dir, ahi = alo + ra[i].length - 1;
        int64_t blo = rb[j].first * dir, bhi = blo + rb[j].length - 1;
        int64_t lo = std::max(alo, blo), hi = std::min(ahi, bhi);
        if (lo <= hi) {
            int64_t first = lo * dir;
            auto sa = a_local.local_of(first);
            auto sb = b_local.local_of(first);
            assert(sa && sb);
            if (!out.empty() && out.back().src + out.back().length == *sa &&
                out.back().dst + out.back().length == *sb) {
                out.back().length += hi - lo + 1;
            } else {
                out.push_back({*sa, *sb, hi - lo + 1});
            }
        }
        if (ahi < bhi)
            ++i;
        else
            ++j;
    }
    return out;
}

TransferSchedule::TransferSchedule(std::vector<std::vector<RunPair>> runs, const std::vector<int64_t>& src_extents,
                                   const std::vector<int64_t>& dst_extents)
    : runs_(std::move(runs)), src_strides_(row_major_strides(src_extents)),
      dst_strides_(row_major_strides(dst_extents)) {
    for (const auto& r : runs_) {
        if (r.empty()) {
            for (auto& rr : runs_)
                rr.clear();
            break;
        }
    }
}

TransferSchedule TransferSchedule::owned_to_held(const Part& sender, const Part& receiver) {
    assert(sender.rank() == receiver.rank());
    std::vector<std::vector<RunPair>> runs;
    for (int d = 0; d < sender.rank(); ++d)
        runs.push_back(intersect_runs(sender.owned(d), sender.held(d), receiver.held(d), receiver.held(d)));
    return TransferSchedule(std::move(runs), sender.extents(), receiver.extents());
}

TransferSchedule TransferSchedule::held_to_held(const Part& sender, const Part& receiver) {
    assert(sender.rank() == receiver.rank());
    std::vector<std::vector<RunPair>> runs;
    for (int d = 0; d < sender.rank(); ++d)
        runs.push_back(intersect_runs(sender.held(d), sender.held(d), receiver.held(d), receiver.held(d)));
    return TransferSchedule(std::move(runs), sender.extents(), receiver.extents());
}

int64_t TransferSchedule::element_count() const {
    if (runs_.empty())
        return 0;
    int64_t n = 1;
    for (const auto& dim : runs_) {
        int64_t s = 0;
        for (const RunPair& r : dim)
            s += r.length;
        n *= s;
    }
    return n;
}

int64_t TransferSchedule::segment_count() const {
    int64_t n = 0;
    for_each_segment([&](int64_t, int64_t, int64_t) { ++n; });
    return n;
}

// Calls fn(src_offset, dst_offset, length) for each innermost run, in buffer order.
template <class Fn> void TransferSchedule::for_each_segment(Fn&& fn) const {
    const int rank = static_cast<int>(runs_.size());
    if (rank == 0 || element_count() == 0)
        return;
    // Iterate all outer position tuples (run index + offset in run) in row-major order.
    std::vector<size_t> run(rank, 0);
    std::vector<int64_t> off(rank, 0);
    const int last = rank - 1;
    while (true) {
        int64_t src = 0, dst = 0;
        for (int d = 0; d < last; ++d) {
            const RunPair& r = runs_[d][run[d]];
            src += (r.src + off[d]) * src_strides_[d];
            dst += (r.dst + off[d]) * dst_strides_[d];
        }
        for (const RunPair& r : runs_[last])
            fn(src + r.src, dst + r.dst, r.length);
        int d = last - 1;
        for (; d >= 0; --d) {
            if (++off[d] < runs_[d][run[d]].length)
                break;
            off[d] = 0;
            if (++run[d] < runs_[d].size())
                break;
            run[d] = 0;
        }
        if (d < 0)
            return;
    }
}

void TransferSchedule::pack(const void* sender_storage, size_t elem_size, void* buffer) const {
    const auto* src = static_cast<const std::byte*>(sender_storage);
    auto* out = static_cast<std::byte*>(buffer);
    for_each_segment([&](int64_t s, int64_t, int64_t len) {
        std::memcpy(out, src + s * elem_size, len * elem_size);
        out += len * elem_size;
    });
}

void TransferSchedule::unpack(const void* buffer, size_t elem_size, void* receiver_storage) const {
    const auto* in = static_cast<const std::byte*>(buffer);
    auto* dst = static_cast<std::byte*>(receiver_storage);
    for_each_segment([&](int64_t, int64_t d, int64_t len) {
        std::memcpy(dst + d * elem_size, in, len * elem_size);
        in += len * elem_size;
    });
}

std::vector<std::vector<int64_t>> TransferSchedule::receiver_indices(const Part& receiver) const {
    std::vector<std::vector<int64_t>> out;
    const int rank = receiver.rank();
    std::vector<int64_t> ext = receiver.extents();
    for_each_segment([&](int64_t, int64_t dst, int64_t len) {
        for (int64_t e = 0; e < len; ++e) {
            int64_t rem = dst + e;
            std::vector<int64_t> g(rank);
            for (int d = rank - 1; d >= 0; --d) {
                g[d] = receiver.held(d).at(rem % ext[d]);
                rem /= ext[d];
            }
            out.push_back(std::move(g));
        }
    });
    return out;
}

} // namespace itrt
