// Arrays used as values. In stages: a section copied inside a stage (`target = a[r][...]`,
// `target = a[i...j]`, or a whole `target = a`) keeps the global indices of `a` and is copied by
// position into the part of the target this LPU holds, whose lengths must match; a section passed
// to a stage (`m[...][c]`) is a view of the same memory with the fixed dimensions dropped; a part
// passed to a function is a copy as the LPU sees it. These touch only this LPU's parts: the task
// plan has already brought what the stage reads. In functions and the coordinator, a section of a
// LocalArray is a new array with the section's indices (guide: Arrays and sections).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/task/program.h"

namespace itrt::task {

// The indices of a section's dimension `section` that the LPU's part, holding `part` of it, has:
// `v[i...j].local.dimensionK.range`, in the section's direction (`v[5...2]` downwards). When it
// has none, the first index lies past the last in the section's direction.
inline RangeValue held_range(RangeValue section, RangeValue part) {
  const int32_t lo = std::max(std::min(section.min, section.max), std::min(part.min, part.max));
  const int32_t hi = std::min(std::max(section.min, section.max), std::max(part.min, part.max));
  if (section.min > section.max) return {hi, lo};
  return {lo, hi};
}

// The index `k` of an element of a section, `(v[i...j])[k]`: a section keeps the array's
// indices, so k must lie in i...j (either direction).
inline int64_t section_index(int64_t k, int64_t first, int64_t last, const char* where) {
  if (k < std::min(first, last) || k > std::max(first, last))
    fail(std::string(where) + ": index " + std::to_string(k) + " is outside the section " + std::to_string(first) +
         "..." + std::to_string(last) + " it subscripts (a section keeps the indices of its array)");
  return k;
}

// Calls f(position in a.data, global indices) for every element of `a`, row-major.
template <class T, class F>
void for_each_element(const LocalArray<T>& a, F f) {
  const size_t n = a.ranges.size();
  std::vector<int64_t> g(n), k(n, 0);
  for (size_t d = 0; d < n; ++d) g[d] = a.ranges[d].min;
  for (size_t e = 0; e < a.data.size(); ++e) {
    f(static_cast<int64_t>(e), g.data());
    for (size_t d = n; d-- > 0;) {
      if (++k[d] < a.ranges[d].length()) {
        g[d] += a.ranges[d].dir();
        break;
      }
      k[d] = 0;
      g[d] = a.ranges[d].min;
    }
  }
}

// One subscript of a section on one dimension of the source: a fixed index (the dimension is
// dropped from the result) or the indices `from` through `to`, kept in that direction.
struct SectionItem {
  bool fixed = false;
  int64_t from = 0, to = 0;
  bool whole = false;  // `...` on a coordinator or function array: its whole range
  int64_t length() const { return fixed ? 1 : (from <= to ? to - from + 1 : from - to + 1); }
  int64_t index(int64_t k) const { return from <= to ? from + k : from - k; }
};

template <class U, int M, class T, int N>
void copy_section(const View<U, M>& target, const View<T, N>& source,
                  const std::array<SectionItem, static_cast<std::size_t>(N)>& items, const char* where) {
  std::array<int, N> kept{};  // source dimension of each target dimension
  int m = 0;
  for (int d = 0; d < N; ++d)
    if (!items[d].fixed) {
      if (m == M) fail_alike(std::string(where) + ": the section has more dimensions than its target");
      kept[m++] = d;
    }
  if (m != M) fail_alike(std::string(where) + ": the section has fewer dimensions than its target");
  // Every element of the section must be held (the section's ends, and the fixed indices, are
  // checked first: "not held" says more than a length that does not match).
  {
    std::array<int64_t, N> corner{};
    for (int d = 0; d < N; ++d) corner[d] = items[d].from;
    (void)source.held_at(where, corner.data(), " of the section");
    for (int d = 0; d < N; ++d) corner[d] = items[d].fixed ? items[d].from : items[d].to;
    (void)source.held_at(where, corner.data(), " of the section");
  }
  int64_t count = 1;
  for (int j = 0; j < M; ++j) {
    const int64_t n = items[kept[j]].length();
    if (n != target.len[j])
      fail_alike(std::string(where) + ": a section of " + std::to_string(n) + " indices along its dimension " +
                 std::to_string(j + 1) + " is copied into " + std::to_string(target.len[j]) +
                 " held by the target (lengths must match)");
    count *= n;
  }
  // Gathered first, then written: the target may be the source array itself.
  std::vector<T> values;
  values.reserve(static_cast<size_t>(count));
  std::array<int64_t, N> g{};
  for (int d = 0; d < N; ++d) g[d] = items[d].from;
  std::array<int64_t, M> k{};
  for (int64_t e = 0; e < count; ++e) {
    for (int j = 0; j < M; ++j) g[kept[j]] = items[kept[j]].index(k[j]);
    values.push_back(source.held_at(where, g.data(), " of the section"));
    for (int j = M - 1; j >= 0 && ++k[j] == items[kept[j]].length(); --j) k[j] = 0;
  }
  k = {};
  for (int64_t e = 0; e < count; ++e) {
    int64_t off = 0;
    for (int j = 0; j < M; ++j) off += k[j] * target.stride[j];
    target.base[off] = static_cast<U>(values[static_cast<size_t>(e)]);
    for (int j = M - 1; j >= 0 && ++k[j] == target.len[j]; --j) k[j] = 0;
  }
}

// The section `items` of this LPU's part `v` as a view of M dimensions (the kept ones), for a
// stage argument passed by reference. Elements keep their indices; a kept dimension restricted
// to `from...to` loops over the held indices inside it, and its whole range becomes from...to.
// A dimension cut by stride() keeps its index table: stage loops over it go by position and
// keep to lo...hi (the section's indices).
template <int M, class T, int N>
View<T, M> slice(const View<T, N>& v, const std::array<SectionItem, static_cast<std::size_t>(N)>& items,
                 const char* where) {
  View<T, M> s;
  s.origin = v.origin;
  s.base = v.base;
  int m = 0;
  for (int d = 0; d < N; ++d) {
    const SectionItem& it = items[static_cast<size_t>(d)];
    if (it.fixed) {
      if (!v.holds(d, it.from))
        fail_alike(std::string(where) + ": index " + std::to_string(it.from) + " of dimension " +
                   std::to_string(d + 1) + " of the section is not held by this LPU");
      // `origin` addresses interval dimensions by global index; a dimension with an index
      // table (stride()) is addressed by position.
      s.origin += v.index[d] ? v.pos_of(d, it.from) * v.stride[d] : it.from * v.gstride[d];
      s.base += v.pos_of(d, it.from) * v.stride[d];
      continue;
    }
    if (m == M) fail_alike(std::string(where) + ": the section has more dimensions than the stage parameter");
    // The section's indices lie in the array's (or the enclosing section's) range; the LPU may
    // hold only some of them.
    const int64_t whole_lo = std::min(v.wfrom[d], v.wto[d]), whole_hi = std::max(v.wfrom[d], v.wto[d]);
    for (const int64_t end : {it.from, it.to})
      if (end < whole_lo || end > whole_hi)
        fail_alike(std::string(where) + ": index " + std::to_string(end) + " of dimension " + std::to_string(d + 1) +
                   " of the section is outside the array's range " + std::to_string(v.wfrom[d]) + "..." +
                   std::to_string(v.wto[d]));
    s.stride[m] = v.stride[d];
    s.gstride[m] = v.gstride[d];
    s.dir[m] = v.dir[d];
    s.first[m] = v.first[d];
    s.len[m] = v.len[d];
    s.index[m] = v.index[d];
    s.held[m] = v.held[d];
    s.pshift[m] = v.pshift[d];
    s.lo[m] = std::max(v.lo[d], std::min(it.from, it.to));
    s.hi[m] = std::min(v.hi[d], std::max(it.from, it.to));
    s.wfrom[m] = it.from;
    s.wto[m] = it.to;
    ++m;
  }
  if (m != M) fail_alike(std::string(where) + ": the section has fewer dimensions than the stage parameter");
  return s;
}

// The section `items` of a function's or the coordinator's array `a` as an array shape with the
// section's indices: whole items take the array's range, and every index must lie in the
// array's ranges.
template <class T, size_t N>
LocalArray<T> section_shape(const LocalArray<T>& a, std::array<SectionItem, N>& items, const char* where) {
  if (a.ranges.size() != N) fail_alike(std::string(where) + ": a section with the wrong number of dimensions");
  LocalArray<T> s(0);
  for (size_t d = 0; d < N; ++d) {
    SectionItem& it = items[d];
    const DimRange& r = a.ranges[d];
    if (it.whole) {
      it.from = r.min;
      it.to = r.max;
    }
    for (int64_t i : {it.from, it.to})
      if (!r.contains(i))
        fail_alike(std::string(where) + ": index " + std::to_string(i) + " of dimension " + std::to_string(d + 1) +
                   " of the section is outside the array's range " + std::to_string(r.min) + "..." +
                   std::to_string(r.max));
    if (!it.fixed) s.ranges.push_back(DimRange{it.from, it.to});
  }
  return s;
}

// Calls f(position in s.data, position in a.data) for every element of the section `s` of `a`
// (made by section_shape with the same items).
template <class T, size_t N, class F>
void for_each_section_element(const LocalArray<T>& s, const LocalArray<T>& a, const std::array<SectionItem, N>& items,
                              F f) {
  for_each_element(s, [&](int64_t e, const int64_t* kept) {
    int64_t off = 0;
    size_t k = 0;
    for (size_t d = 0; d < N; ++d) {
      const int64_t g = items[d].fixed ? items[d].from : kept[k++];
      off = off * a.ranges[d].length() + a.ranges[d].position_of(g);
    }
    f(static_cast<size_t>(e), static_cast<size_t>(off));
  });
}

// A section of a function's or the coordinator's array as a new array with the section's
// indices (`m[r][...]`, `v[2...5]`).
template <class T, size_t N>
LocalArray<T> section_of(const LocalArray<T>& a, std::array<SectionItem, N> items, const char* where) {
  LocalArray<T> s = section_shape(a, items, where);
  s.allocate();
  if (a.data.empty()) return s;  // never written: zeros
  for_each_section_element(s, a, items, [&](size_t e, size_t off) { s.data[e] = a.data[off]; });
  return s;
}

// A static array (`Array[2][3] of T`: nested std::arrays, dimension 1 outermost) as an array
// value with indices from 0, for its sections (`s.extremes[1...2]`, `grid[1]`).
template <class T>
struct StaticArrayShape {
  using element = T;
  static constexpr int dims = 0;
  static constexpr size_t count = 1;
  static void ranges(std::vector<DimRange>&) {}
  template <class V>
  static void append(V& out, const T& v) {
    out.push_back(v);
  }
  static T& at(T& v, const int64_t*) { return v; }
};
template <class T, size_t L>
struct StaticArrayShape<std::array<T, L>> {
  using element = typename StaticArrayShape<T>::element;
  static constexpr int dims = 1 + StaticArrayShape<T>::dims;
  static constexpr size_t count = L * StaticArrayShape<T>::count;
  static void ranges(std::vector<DimRange>& r) {
    r.push_back(DimRange{0, static_cast<int64_t>(L) - 1});
    StaticArrayShape<T>::ranges(r);
  }
  template <class V>
  static void append(V& out, const std::array<T, L>& a) {
    for (const T& v : a) StaticArrayShape<T>::append(out, v);
  }
  static element& at(std::array<T, L>& a, const int64_t* g) {
    return StaticArrayShape<T>::at(a[static_cast<size_t>(g[0])], g + 1);
  }
};
// A fixed-size array that is no task array (a field of a task-global object, or of an element
// of a part) as a view, indices from 0, row-major as the std::array nest lies in memory: a
// section of it goes to a stage as a section of a part does (`scale(v, cfg.k[1...2])`).
template <class T, int N, class A>
View<T, N> static_view(A& a) {
  using Shape = StaticArrayShape<A>;
  static_assert(Shape::dims == N && std::is_same_v<typename Shape::element, T>);
  static_assert(sizeof(A) == sizeof(T) * Shape::count, "a std::array nest without padding");
  std::vector<DimRange> ranges;
  Shape::ranges(ranges);
  View<T, N> v;
  const int64_t zero[N] = {};
  v.origin = v.base = &Shape::at(a, zero);
  int64_t stride = 1;
  for (int d = N - 1; d >= 0; --d) {
    const int64_t len = ranges[static_cast<size_t>(d)].length();
    v.stride[d] = v.gstride[d] = stride;
    v.dir[d] = 1;
    v.lo[d] = v.first[d] = v.wfrom[d] = 0;
    v.hi[d] = v.wto[d] = len - 1;
    v.len[d] = len;
    stride *= len;
  }
  return v;
}

template <class A>
LocalArray<typename StaticArrayShape<A>::element> static_array_value(const A& a) {
  LocalArray<typename StaticArrayShape<A>::element> v(0);
  StaticArrayShape<A>::ranges(v.ranges);
  StaticArrayShape<A>::append(v.data, a);
  return v;
}

// `s[i...j] = value`, `g[1] = row` for a static array that is not a task array (a class field,
// a local): by position into the section (indices from 0), the lengths checked. The value is an
// array value or another static array.
template <class A, class V, size_t N>
void assign_static_section(A& a, std::array<SectionItem, N> items, const V& value, const char* where) {
  if constexpr (!IsLocalArray<V>::value) {
    assign_static_section(a, items, static_array_value(value), where);
  } else {
    using T = typename StaticArrayShape<A>::element;
    LocalArray<T> section = section_shape(static_array_value(a), items, where);
    bool same = section.ranges.size() == value.ranges.size();
    for (size_t d = 0; same && d < value.ranges.size(); ++d)
      same = section.ranges[d].length() == value.ranges[d].length();
    if (!same)
      fail_alike(std::string(where) + ": a value of other lengths is assigned to a section (lengths must match)");
    section.allocate();
    int64_t g[N];
    for_each_element(section, [&](int64_t e, const int64_t* kept) {
      size_t k = 0;
      for (size_t d = 0; d < N; ++d) g[d] = items[d].fixed ? items[d].from : kept[k++];
      StaticArrayShape<A>::at(a, g) = value.data.empty() ? T{} : static_cast<T>(value.data[static_cast<size_t>(e)]);
    });
  }
}

// A fixed-size environment item read whole in the coordinator or a function: the std::array
// (`A`) of the copy `v` of the item, indices from 0.
template <class A, class T>
A static_array_of(const LocalArray<T>& v) {
  A out{};
  if (v.data.empty()) return out;
  for_each_element(v, [&](int64_t e, const int64_t* g) {
    StaticArrayShape<A>::at(out, g) =
        static_cast<typename StaticArrayShape<A>::element>(v.data[static_cast<size_t>(e)]);
  });
  return out;
}

// A fixed-size environment item passed to a `&` parameter: a std::array copy the function
// changes; when the call's full expression ends it goes into the EnvArrayRef's copy, which gives
// it back to the item.
template <class A, class T>
class EnvStaticRef {
  struct Copy {
    Copy(Program& prog, Env& env, const std::string& item, int dims, const ElementCodec& codec)
        : ref(prog, env, item, dims, codec), value(static_array_of<A>(ref.array())) {}
    Copy(const Copy&) = delete;
    Copy& operator=(const Copy&) = delete;
    ~Copy() { ref.array() = static_array_value(value); }  // then ref writes the item
    EnvArrayRef<T> ref;
    A value;
  };

 public:
  EnvStaticRef(Program& prog, Env& env, const std::string& item, int dims, const ElementCodec& codec)
      : copy_(env.shared_copy<Copy>("static " + item, prog, env, item, dims, codec)) {}
  EnvStaticRef(const EnvStaticRef&) = delete;
  EnvStaticRef& operator=(const EnvStaticRef&) = delete;
  A& value() { return copy_->value; }

 private:
  std::shared_ptr<Copy> copy_;
};

// `load(x, file)` for a fixed-size array (a class field, a local): the file's array, whose
// lengths must be the array's.
template <class A>
void load_static(Program& prog, A& target, const ElementCodec& codec, const std::string& file, const char* where) {
  using T = typename StaticArrayShape<A>::element;
  const LocalArray<T> shape = static_array_value(target);
  LocalArray<T> got(static_cast<int>(shape.ranges.size()));
  load(prog, got, codec, file);
  for (size_t d = 0; d < shape.ranges.size(); ++d)
    if (got.ranges[d].length() != shape.ranges[d].length())
      fail_alike(std::string(where) + ": `" + file + "` holds " + std::to_string(got.ranges[d].length()) +
                 " elements along dimension " + std::to_string(d + 1) + ", the fixed-size array " +
                 std::to_string(shape.ranges[d].length()));
  target = static_array_of<A>(got);
}

// The array of a data file, for `load(a[i...j], file)` (assign_section puts it into the section).
template <class T>
LocalArray<T> loaded_array(Program& prog, int dims, const ElementCodec& codec, const std::string& file) {
  LocalArray<T> a(dims);
  load(prog, a, codec, file);
  return a;
}

// An array passed to a function from Initialize: its ranges as set so far and no elements, as
// arrays are not allocated before the task distributes its data; an element read is zero.
template <class T>
LocalArray<T> array_shape(const std::vector<DimRange>& ranges) {
  LocalArray<T> a(0);
  a.ranges = ranges;
  return a;
}

// Calls f(global indices) for every element of a part whose dimensions are intervals, each
// dimension upwards or, with `as_written`, in the direction the array or section runs (`a[3...0]`
// from 3 down to 0), so that copies by position follow the order the program wrote.
template <bool as_written = false, class T, int N, class F>
void for_each_held_index(const View<T, N>& v, F f) {
  int64_t g[N], from[N], to[N], step[N];
  for (int d = 0; d < N; ++d) {
    if (v.lo[d] > v.hi[d]) return;
    const bool down = as_written && v.wfrom[d] > v.wto[d];
    from[d] = down ? v.hi[d] : v.lo[d];
    to[d] = down ? v.lo[d] : v.hi[d];
    step[d] = down ? -1 : 1;
    g[d] = from[d];
  }
  for (;;) {
    f(static_cast<const int64_t*>(g));
    int d = N - 1;
    for (; d >= 0 && g[d] == to[d]; --d) g[d] = from[d];
    if (d < 0) return;
    g[d] += step[d];
  }
}

// `target = value` in a stage, where value is an array of the stage call (a local array, `lpuId`,
// a function's result, a copy of a section of a part): its elements, row-major, go by position
// into the positions of the part this LPU holds (stride() parts too); the lengths must match.
template <class U, int M, class T>
void copy_into_part(const View<U, M>& target, const LocalArray<T>& source, const char* where) {
  if (source.ranges.size() != static_cast<size_t>(M))
    fail_alike(std::string(where) + ": an array of " + std::to_string(source.ranges.size()) +
               " dimensions is copied into a part of " + std::to_string(M));
  int64_t count = 1;
  for (int j = 0; j < M; ++j) {
    const int64_t n = source.ranges[static_cast<size_t>(j)].length();
    if (n != target.len[j])
      fail_alike(std::string(where) + ": an array of " + std::to_string(n) + " indices along its dimension " +
                 std::to_string(j + 1) + " is copied into " + std::to_string(target.len[j]) +
                 " held by the target (lengths must match)");
    count *= n;
  }
  std::array<int64_t, static_cast<size_t>(M)> k{};
  for (int64_t e = 0; e < count; ++e) {
    int64_t off = 0;
    for (int j = 0; j < M; ++j) off += k[j] * target.stride[j];
    target.base[off] = source.data.empty() ? U{} : static_cast<U>(source.data[static_cast<size_t>(e)]);
    for (int j = M - 1; j >= 0 && ++k[j] == target.len[j]; --j) k[j] = 0;
  }
}

// The local positions of the indices a slice holds along dimension d, in the direction the
// section runs (upwards, or downwards for `a[7...0]`): lo...hi of an interval dimension; of a
// dimension stride() cuts, the positions of its index table that lie in lo...hi.
template <class U, int M>
std::vector<int64_t> held_positions(const View<U, M>& v, int d) {
  std::vector<int64_t> out;
  if (v.index[d]) {
    for (int64_t p = 0; p < v.len[d]; ++p)
      if (v.index[d][p] >= v.lo[d] && v.index[d][p] <= v.hi[d]) out.push_back(p);
    // In increasing index order (a dimension running downwards lists them decreasing).
    std::sort(out.begin(), out.end(), [&](int64_t a, int64_t b) { return v.index[d][a] < v.index[d][b]; });
  } else {
    for (int64_t g = v.lo[d]; g <= v.hi[d]; ++g) out.push_back(v.pos_of(d, g));
  }
  if (v.wfrom[d] > v.wto[d]) std::reverse(out.begin(), out.end());
  return out;
}

// held_positions of every dimension of v.
template <class U, int M>
std::array<std::vector<int64_t>, static_cast<size_t>(M)> held_positions(const View<U, M>& v) {
  std::array<std::vector<int64_t>, static_cast<size_t>(M)> out;
  for (size_t d = 0; d < out.size(); ++d) out[d] = held_positions(v, static_cast<int>(d));
  return out;
}

// Calls f(k) for every combination k of one entry of each list (k[d] indexes pos[d]),
// row-major: the last dimension fastest. Nothing when a list is empty.
template <size_t M, class F>
void for_each_combination(const std::array<std::vector<int64_t>, M>& pos, F f) {
  for (const auto& p : pos)
    if (p.empty()) return;
  std::array<size_t, M> k{};
  for (;;) {
    f(static_cast<const std::array<size_t, M>&>(k));
    size_t d = M;
    while (d > 0 && ++k[d - 1] == pos[d - 1].size()) k[--d] = 0;
    if (d == 0) return;
  }
}

// The element at local positions p[d] = pos[d][k[d]] of v.
template <class U, size_t M>
U& at_positions(const View<U, static_cast<int>(M)>& v, const std::array<std::vector<int64_t>, M>& pos,
                const std::array<size_t, M>& k) {
  int64_t off = 0;
  for (size_t d = 0; d < M; ++d) off += pos[d][k[d]] * v.stride[d];
  return v.base[off];
}

[[noreturn]] inline void section_lengths_differ(const char* where, int64_t given, int64_t held, size_t dim) {
  fail_alike(std::string(where) + ": an array of " + std::to_string(given) + " indices along its dimension " +
             std::to_string(dim + 1) + " is copied into " + std::to_string(held) +
             " indices of the section held here (lengths must match; to copy only the elements this LPU holds, copy "
             "element by element in a loop over them)");
}

// `w = v` in a stage, both whole task arrays: every element of the LPU's part of w (the indices it
// holds, padding included, any kind of part) takes v's element at the same indices, which the
// LPU must hold too (v partitioned as w is, or more widely).
template <class U, class T, int N>
void copy_whole_part(const View<U, N>& target, const View<T, N>& source, const char* where) {
  const auto missing = [&](int d, int64_t g) {
    fail_alike(std::string(where) + ": copying a whole array into another gives each element of this LPU's part " +
               "the source's element at the same indices, and this LPU does not hold index " + std::to_string(g) +
               " of dimension " + std::to_string(d + 1) +
               " of the source: partition the source as the target is, or copy in a loop over the source's part "
               "(`do { w[i] = v[i] } for i in v`)");
  };
  if (std::none_of(std::begin(target.index), std::end(target.index), [](auto* t) { return t; }) &&
      std::none_of(std::begin(source.index), std::end(source.index), [](auto* t) { return t; })) {
    // Interval parts (the usual `u = unew` of a sweep): row by row, the inner loop a plain copy.
    for (int d = 0; d < N; ++d) {
      if (target.lo[d] > target.hi[d]) return;
      if (target.lo[d] < source.lo[d]) missing(d, target.lo[d]);
      if (target.hi[d] > source.hi[d]) missing(d, target.hi[d]);
    }
    int64_t g[N];
    for (int d = 0; d < N; ++d) g[d] = target.lo[d];
    const int64_t n = target.hi[N - 1] - target.lo[N - 1] + 1;
    const int64_t ts = target.gstride[N - 1], ss = source.gstride[N - 1];
    for (;;) {
      U* to = &target.at_index(g);
      const T* from = &source.at_index(g);
      if (ts == 1 && ss == 1)
        for (int64_t i = 0; i < n; ++i) to[i] = static_cast<U>(from[i]);
      else
        for (int64_t i = 0; i < n; ++i) to[i * ts] = static_cast<U>(from[i * ss]);
      int d = N - 2;
      for (; d >= 0 && g[d] == target.hi[d]; --d) g[d] = target.lo[d];
      if (d < 0) return;
      ++g[d];
    }
  }
  // Parts stride() cuts: index by index through the source's index tables.
  const auto pos = held_positions(target);
  for_each_combination(pos, [&](const auto& k) {
    int64_t from = 0;
    for (size_t d = 0; d < pos.size(); ++d) {
      const int64_t g = target.global_at(static_cast<int>(d), pos[d][k[d]]);
      if (!source.holds(static_cast<int>(d), g)) missing(static_cast<int>(d), g);
      from += source.pos_of(static_cast<int>(d), g) * source.stride[d];
    }
    at_positions(target, pos, k) = static_cast<U>(source.base[from]);
  });
}

// `m[...][c] = v` in a stage, v a whole part: the elements v's part holds (padding included), in
// order, go by position into the indices of the section `target` (a slice) this LPU holds, also
// along dimensions stride() cuts on either side; the lengths must match.
template <class U, int M, class T>
void copy_part_into_section(const View<U, M>& target, const View<T, M>& source, const char* where) {
  const auto to = held_positions(target), from = held_positions(source);
  for (size_t j = 0; j < to.size(); ++j)
    if (to[j].size() != from[j].size())
      section_lengths_differ(where, static_cast<int64_t>(from[j].size()), static_cast<int64_t>(to[j].size()), j);
  for_each_combination(
      to, [&](const auto& k) { at_positions(target, to, k) = static_cast<U>(at_positions(source, from, k)); });
}

// `m[k] = value`, `m[i...j][...] = value` in a stage: the value (as copy_into_part) goes by
// position into the indices of the section `target` (a slice) that this LPU holds, in the
// section's order, also along dimensions stride() cuts.
template <class U, int M, class T>
void copy_into_section(const View<U, M>& target, const LocalArray<T>& source, const char* where) {
  if (source.ranges.size() != static_cast<size_t>(M))
    fail_alike(std::string(where) + ": an array of " + std::to_string(source.ranges.size()) +
               " dimensions is copied into a section of " + std::to_string(M));
  const auto pos = held_positions(target);
  for (size_t j = 0; j < pos.size(); ++j)
    if (source.ranges[j].length() != static_cast<int64_t>(pos[j].size()))
      section_lengths_differ(where, source.ranges[j].length(), static_cast<int64_t>(pos[j].size()), j);
  size_t e = 0;
  for_each_combination(pos, [&](const auto& k) {
    at_positions(target, pos, k) = source.data.empty() ? U{} : static_cast<U>(source.data[e]);
    ++e;
  });
}

// A part of a static task-global array passed to a function from a stage: the function's
// std::array of the whole lengths, with the elements this LPU holds at their indices (others
// zero); for a `&` parameter they are written back when the call's full expression ends.
template <class A, class T, int N>
A static_part(const View<T, N>& v) {
  A out{};
  for_each_held_index(v, [&](const int64_t* g) { StaticArrayShape<A>::at(out, g) = v.at_index(g); });
  return out;
}
template <class A, class T, int N>
class StaticPartArgument {
 public:
  explicit StaticPartArgument(const View<T, N>& v) : view_(v), copy_(static_part<A>(v)) {}
  StaticPartArgument(const StaticPartArgument&) = delete;
  StaticPartArgument& operator=(const StaticPartArgument&) = delete;
  ~StaticPartArgument() {
    for_each_held_index(view_, [&](const int64_t* g) { view_.at_index(g) = StaticArrayShape<A>::at(copy_, g); });
  }
  A& value() { return copy_; }

 private:
  View<T, N> view_;
  A copy_;
};

// `lpuId` as a whole value: a 1d Integer array of the LPU's coordinates, indices from 0.
inline LocalArray<int32_t> lpu_id_value(const std::vector<int64_t>& coords) {
  LocalArray<int32_t> v(1);
  v.ranges[0] = DimRange{0, static_cast<int64_t>(coords.size()) - 1};
  for (int64_t c : coords) v.data.push_back(static_cast<int32_t>(c));
  return v;
}

// A section passed to a function's `&` parameter (`f(m[2])` with `Function f(&row)`): a copy
// with the section's indices, written back into the array when the call's full expression ends
// (`f(SectionArgument<T, N>(m, items, where).array())`).
template <class T, size_t N>
class SectionArgument {
 public:
  SectionArgument(LocalArray<T>& a, std::array<SectionItem, N> items, const char* where)
      : array_(a), items_(items), where_(where), copy_(section_of(a, items, where)), ranges_(copy_.ranges) {
    section_shape(a, items_, where);  // resolves the whole items as section_of did
  }
  SectionArgument(const SectionArgument&) = delete;
  SectionArgument& operator=(const SectionArgument&) = delete;
  ~SectionArgument() {
    int64_t count = 1;
    for (const DimRange& r : ranges_) count *= r.length();
    bool same = copy_.ranges.size() == ranges_.size() && copy_.data.size() == static_cast<size_t>(count);
    for (size_t d = 0; same && d < ranges_.size(); ++d)
      same = copy_.ranges[d].min == ranges_[d].min && copy_.ranges[d].max == ranges_[d].max;
    if (!same)
      fail_alike(std::string(where_) +
                 ": the function gave its `&` parameter other ranges than the section passed to it");
    if (array_.data.empty()) array_.allocate();
    for_each_section_element(copy_, array_, items_, [&](size_t e, size_t off) { array_.data[off] = copy_.data[e]; });
  }
  LocalArray<T>& array() { return copy_; }

 private:
  LocalArray<T>& array_;
  std::array<SectionItem, N> items_;
  const char* where_;
  LocalArray<T> copy_;
  std::vector<DimRange> ranges_;  // the section's, which the copy must still have at the end
};

// A section of a fixed-size array that is not a task array (a class field, a local) passed to a
// `&` parameter (`f(q.v[1...2])`): a copy with the section's indices, written back by position
// when the call's full expression ends.
template <class A, size_t N>
class StaticSectionArgument {
 public:
  using T = typename StaticArrayShape<A>::element;
  StaticSectionArgument(A& a, std::array<SectionItem, N> items, const char* where)
      : array_(a), items_(items), where_(where), copy_(section_of(static_array_value(a), items, where)) {}
  StaticSectionArgument(const StaticSectionArgument&) = delete;
  StaticSectionArgument& operator=(const StaticSectionArgument&) = delete;
  ~StaticSectionArgument() { assign_static_section(array_, items_, copy_, where_); }
  LocalArray<T>& array() { return copy_; }

 private:
  A& array_;
  std::array<SectionItem, N> items_;
  const char* where_;
  LocalArray<T> copy_;
};

// `env.item[i...j][k] = value` in the coordinator or a function: each element of the section is
// written as `env.item[i][k] = v` is (Env::write_element: every copy on every rank, no message),
// so an item shared with another environment changes in both. The value's lengths must match
// the section's.
template <class T, class U, size_t N>
void assign_env_section(Program& prog, Env& env, const std::string& item, std::array<SectionItem, N> items,
                        const LocalArray<U>& value, const ElementCodec& codec, const char* where) {
  LocalArray<T> whole(static_cast<int>(N));
  for (size_t d = 0; d < N; ++d) {
    const RangeValue r = env.range(prog, item, static_cast<int>(N), static_cast<int>(d), codec);
    whole.ranges[d] = DimRange{r.min, r.max};
  }
  LocalArray<T> section = section_shape(whole, items, where);  // resolves `...`, checks indices
  section.allocate();                                          // for_each_element walks its elements
  bool same = section.ranges.size() == value.ranges.size();
  for (size_t d = 0; same && d < value.ranges.size(); ++d)
    same = section.ranges[d].length() == value.ranges[d].length();
  if (!same)
    fail_alike(std::string(where) + ": a value of other lengths is assigned to a section of `" + item +
               "` (lengths must match)");
  std::vector<int64_t> index(N);
  for_each_element(section, [&](int64_t e, const int64_t* kept) {
    size_t k = 0;
    for (size_t d = 0; d < N; ++d) index[d] = items[d].fixed ? items[d].from : kept[k++];
    const T v = value.data.empty() ? T{} : static_cast<T>(value.data[static_cast<size_t>(e)]);
    env.write_element(prog, item, index, &v, sizeof v);
  });
}

// `target = section` in a function or the coordinator: by position into a target of matching
// lengths, which keeps its indices; a target that holds nothing yet (no element written, no
// dimension set: every range still 0...0) takes the section whole.
template <class T>
void assign_section(LocalArray<T>& target, LocalArray<T> value, const char* where) {
  bool same = target.ranges.size() == value.ranges.size();
  for (size_t d = 0; same && d < value.ranges.size(); ++d) same = target.ranges[d].length() == value.ranges[d].length();
  if (!same) {
    const bool shaped = std::any_of(target.ranges.begin(), target.ranges.end(),
                                    [](const DimRange& r) { return r.min != 0 || r.max != 0; });
    if (!target.data.empty() || shaped) {
      std::string lengths;
      for (const DimRange& r : target.ranges) lengths += (lengths.empty() ? "" : " x ") + std::to_string(r.length());
      std::string given;
      for (const DimRange& r : value.ranges) given += (given.empty() ? "" : " x ") + std::to_string(r.length());
      fail_alike(std::string(where) + ": a section of " + given + " elements is assigned to an array of " + lengths +
                 " (lengths must match; the array keeps its indices)");
    }
    target = std::move(value);
    return;
  }
  target.data = std::move(value.data);
}

// A part passed to a function from a stage, as the LPU sees it: a coordinator-style array whose
// ranges are the held indices (in each dimension's direction) and whose elements are copies.
// Along a dimension that stride() or block_stride() cuts, the held indices are no interval: the
// array lists them (LocalArray::held), in the order of the part's storage.
template <class T, int N>
LocalArray<T> part_array(const View<T, N>& v, const char* where) {
  LocalArray<T> a(N);
  const auto nothing_held = [&] {
    fail_alike(std::string(where) +
               ": this LPU holds no element of the array or section it copies or passes to a "
               "function here (guard the statement with `Where`, or copy element by element)");
  };
  if (std::any_of(v.index, v.index + N, [](const int64_t* table) { return table != nullptr; })) {
    a.held.resize(N);
    for (int d = 0; d < N; ++d) {
      const auto dim = static_cast<size_t>(d);
      if (v.index[d])
        for (int64_t p = 0; p < v.len[d]; ++p) {
          const int64_t g = v.global_at(d, p);
          if (g >= v.lo[d] && g <= v.hi[d]) a.held[dim].push_back(g);
        }
      else if (v.lo[d] <= v.hi[d])
        for (int64_t g = v.lo[d]; g <= v.hi[d]; ++g) a.held[dim].push_back(g);
      if (a.held[dim].empty()) nothing_held();
      if (v.wfrom[d] > v.wto[d] && !v.index[d]) std::reverse(a.held[dim].begin(), a.held[dim].end());
      a.ranges[dim] = DimRange{a.held[dim].front(), a.held[dim].back()};
      if (!v.index[d]) a.held[dim].clear();  // an interval: ranges[d] says it all
    }
    a.allocate();
    for_each_held_element(a,
                          [&](int64_t e, const int64_t* g) { a.data[static_cast<size_t>(e)] = v.held_at(where, g); });
    return a;
  }
  a.held.resize(N);  // a part: no index sets (no dimension is cut by stride())
  int64_t count = 1;
  for (int d = 0; d < N; ++d) {
    if (v.lo[d] > v.hi[d]) nothing_held();
    // In the direction the array or section runs (`b[3...0]` from 3 down to 0).
    a.ranges[static_cast<size_t>(d)] = v.wfrom[d] > v.wto[d] ? DimRange{v.hi[d], v.lo[d]} : DimRange{v.lo[d], v.hi[d]};
    count *= v.hi[d] - v.lo[d] + 1;
  }
  a.data.resize(static_cast<size_t>(count));
  for_each_element(a, [&](int64_t e, const int64_t* g) { a.data[static_cast<size_t>(e)] = v.at_index(g); });
  return a;
}

// A part passed to a function's `&` parameter: the copy is written back into the part when the
// call's full expression ends (`f(x, PartArgument<T, N>(v, where).array())`). Arguments of one
// call passing the same part or section (`addBoth(v, v)`) share one copy, given back once, as
// the parameters then name one array; different sections that overlap cannot, and stop the
// program. (Per thread: each worker runs its own stage calls.)
template <class T, int N>
class PartArgument {
  struct Copy {
    Copy(const View<T, N>& v, const char* where) : view(v), array(part_array(v, where)), where(where) {}
    Copy(const Copy&) = delete;
    Copy& operator=(const Copy&) = delete;
    ~Copy() {
      if (array.cut_by_stride())  // by held index
        for_each_held_element(
            array, [&](int64_t e, const int64_t* g) { view.held_at(where, g) = array.data[static_cast<size_t>(e)]; });
      else
        for_each_element(array,
                         [&](int64_t e, const int64_t* g) { view.at_index(g) = array.data[static_cast<size_t>(e)]; });
    }
    View<T, N> view;
    LocalArray<T> array;
    const char* where;
  };
  using Key = std::pair<const T*, std::array<int64_t, 2 * N>>;

 public:
  PartArgument(const View<T, N>& v, const char* where) : copy_(open(v, where)) {}
  PartArgument(const PartArgument&) = delete;
  PartArgument& operator=(const PartArgument&) = delete;
  LocalArray<T>& array() { return copy_->array; }

 private:
  static std::shared_ptr<Copy> open(const View<T, N>& v, const char* where) {
    thread_local std::map<Key, std::weak_ptr<Copy>> copies;
    Key key{v.origin, {}};
    for (int d = 0; d < N; ++d) {
      key.second[static_cast<size_t>(d)] = v.lo[d];
      key.second[static_cast<size_t>(N + d)] = v.hi[d];
    }
    if (auto found = copies.find(key); found != copies.end())
      if (auto copy = found->second.lock()) return copy;
    for (const auto& open_copy : copies)
      if (open_copy.first.first == v.origin && overlap(open_copy.first.second, key.second))
        fail_alike(std::string(where) +
                   ": two different sections of one array that overlap are passed to `&` parameters of one call; "
                   "each would be a copy of its own, so a write through one parameter would not be seen through "
                   "the other (pass the array once, with the bounds as arguments, or sections that do not overlap)");
    std::shared_ptr<Copy> copy(new Copy(v, where), [key](Copy* c) {
      delete c;  // writes the copy back
      copies.erase(key);
    });
    copies[key] = copy;
    return copy;
  }
  // Boxes of global indices, lo in the first N entries and hi in the last N.
  static bool overlap(const std::array<int64_t, 2 * N>& a, const std::array<int64_t, 2 * N>& b) {
    constexpr size_t n = N;
    for (size_t d = 0; d < n; ++d)
      if (a[d] > b[n + d] || b[d] > a[n + d]) return false;
    return true;
  }
  std::shared_ptr<Copy> copy_;
};

}  // namespace itrt::task
