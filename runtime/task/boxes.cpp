// Box geometry and region copies shared by the task layer (launch, padding exchange, outputs).
#include "runtime/task/boxes.h"

#include <cstring>
#include <stdexcept>

namespace itrt::task::boxes {

bool empty(const Interval& i) { return i.first > i.second; }
bool empty(const Box& b) {
  for (auto& i : b)
    if (empty(i)) return true;
  return b.empty();
}
Interval interval(const IndexSet1D& s) {
  if (s.empty()) return {1, 0};
  if (!s.contiguous())
    throw std::runtime_error("itrt: synchronising strided parts is not supported by this backend yet");
  return s.dir() < 0 ? Interval{s.last(), s.first()} : Interval{s.first(), s.last()};
}
bool is_interval_part(const Part& p) {
  for (int d = 0; d < p.rank(); ++d)
    if (!p.held(d).empty() && !p.held(d).contiguous()) return false;
  return true;
}
bool is_box(const Part& p) {
  for (int d = 0; d < p.rank(); ++d)
    if (!p.held(d).empty() && (!p.held(d).contiguous() || p.held(d).dir() < 0)) return false;
  return true;
}
Box held_box(const Part& p) {
  Box b;
  for (int d = 0; d < p.rank(); ++d) b.push_back(interval(p.held(d)));
  return b;
}
Box owned_box(const Part& p) {
  Box b;
  for (int d = 0; d < p.rank(); ++d) b.push_back(interval(p.owned(d)));
  return b;
}
Box intersect(const Box& a, const Box& b) {
  Box r;
  for (size_t d = 0; d < a.size(); ++d)
    r.push_back({std::max(a[d].first, b[d].first), std::min(a[d].second, b[d].second)});
  return r;
}
int64_t box_size(const Box& b) {
  int64_t n = 1;
  for (auto& i : b) n *= empty(i) ? 0 : i.second - i.first + 1;
  return n;
}

// A dense buffer seen in global indices: element g is at base[sum (g[d]-lo[d])*stride[d]].
Dense dense_of(std::byte* base, const Part& p) {
  Dense d{base, {}, p.strides()};
  for (int k = 0; k < p.rank(); ++k) {
    d.lo.push_back(p.held(k).first());
    // along a dimension that runs downwards, local position j holds global index first - j
    if (p.held(k).dir() < 0) d.stride[static_cast<size_t>(k)] = -d.stride[static_cast<size_t>(k)];
  }
  return d;
}
Dense dense_of(std::byte* base, const Box& b) {
  Dense d{base, {}, std::vector<int64_t>(b.size(), 1)};
  for (auto& i : b) d.lo.push_back(i.first);
  for (int k = static_cast<int>(b.size()) - 2; k >= 0; --k)
    d.stride[static_cast<size_t>(k)] = d.stride[static_cast<size_t>(k) + 1] *
                                       (b[static_cast<size_t>(k) + 1].second - b[static_cast<size_t>(k) + 1].first + 1);
  return d;
}
// Copies the cells of `region` from src to dst, one memcpy per innermost run (element by element
// when the innermost dimension of either side runs downwards).
void copy_region(const Dense& src, const Dense& dst, const Box& region, size_t elem) {
  if (empty(region)) return;
  const size_t n = region.size();
  std::vector<int64_t> g(n);
  for (size_t d = 0; d < n; ++d) g[d] = region[d].first;
  const int64_t count = region[n - 1].second - region[n - 1].first + 1;
  const bool unit = src.stride[n - 1] == 1 && dst.stride[n - 1] == 1;
  const auto step = static_cast<int64_t>(elem);
  for (;;) {
    int64_t so = 0, dof = 0;
    for (size_t d = 0; d < n; ++d) {
      so += (g[d] - src.lo[d]) * src.stride[d];
      dof += (g[d] - dst.lo[d]) * dst.stride[d];
    }
    if (unit)
      std::memcpy(dst.base + dof * step, src.base + so * step, static_cast<size_t>(count) * elem);
    else
      for (int64_t i = 0; i < count; ++i)
        std::memcpy(dst.base + (dof + i * dst.stride[n - 1]) * step, src.base + (so + i * src.stride[n - 1]) * step,
                    elem);
    int d = static_cast<int>(n) - 2;
    for (; d >= 0; --d) {
      if (++g[static_cast<size_t>(d)] <= region[static_cast<size_t>(d)].second) break;
      g[static_cast<size_t>(d)] = region[static_cast<size_t>(d)].first;
    }
    if (d < 0) break;
  }
}

void copy_outside(const Dense& src, const Dense& dst, const Box& whole, const Box& inner, size_t elem) {
  const Box in = intersect(inner, whole);
  if (in.size() != whole.size() || empty(in)) {
    copy_region(src, dst, whole, elem);
    return;
  }
  // In dimension d, the cells below and above the inner interval, with the dimensions before d
  // cut to the inner box (the cells outside it there are in an earlier slab) and those after d
  // whole.
  for (size_t d = 0; d < whole.size(); ++d) {
    Box slab = whole;
    for (size_t e = 0; e < d; ++e) slab[e] = in[e];
    slab[d] = {whole[d].first, in[d].first - 1};
    copy_region(src, dst, slab, elem);
    slab[d] = {in[d].second + 1, whole[d].second};
    copy_region(src, dst, slab, elem);
  }
}

// Copies every held element of a part (any index sets) from a dense buffer in global indices.
void copy_into_part(const Dense& src, PartStorage& ps, size_t elem) {
  const Part& p = ps.part;
  const int n = p.rank();
  std::vector<std::vector<int64_t>> idx(static_cast<size_t>(n));
  for (int d = 0; d < n; ++d) {
    idx[static_cast<size_t>(d)] = p.held(d).indices();
    if (idx[static_cast<size_t>(d)].empty()) return;
  }
  std::vector<int64_t> st = p.strides();
  std::vector<size_t> k(static_cast<size_t>(n), 0);
  std::byte* dst = ps.version(0);
  for (;;) {
    int64_t so = 0, dof = 0;
    for (size_t d = 0; d < static_cast<size_t>(n); ++d) {
      so += (idx[d][k[d]] - src.lo[d]) * src.stride[d];
      dof += static_cast<int64_t>(k[d]) * st[d];
    }
    std::memcpy(dst + dof * static_cast<int64_t>(elem), src.base + so * static_cast<int64_t>(elem), elem);
    int d = n - 1;
    for (; d >= 0; --d) {
      if (++k[static_cast<size_t>(d)] < idx[static_cast<size_t>(d)].size()) break;
      k[static_cast<size_t>(d)] = 0;
    }
    if (d < 0) break;
  }
}

std::string extension(const std::string& f) {
  auto dot = f.rfind('.');
  return dot == std::string::npos ? "" : f.substr(dot);
}

}  // namespace itrt::task::boxes
