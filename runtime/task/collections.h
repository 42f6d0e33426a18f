// Program values as data-file collections (guide: Data files): a coordinator array, a List, a
// List of Arrays and an Array of Lists to and from runtime/data's DataCollection, for `store`,
// `load`, `bind_input` and `bind_output`. Arrays read from a file get ranges 0..d-1; a list read
// from a file gets its length as capacity.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/data/data.h"
#include "runtime/engine/failure.h"
#include "runtime/task/list.h"

namespace itrt::task {

template <class T>
struct LocalArray;

template <class T>
struct IsLocalArray : std::false_type {};
template <class T>
struct IsLocalArray<LocalArray<T>> : std::true_type {
  using Element = T;
};

// Objects of a class holding Strings have a fixed-size file form, which the generated program
// defines (`f_<Class> file_form(const c_<Class>&)`, `from_file_form`, found by argument-dependent
// lookup), field by field through to_file_field / from_file_field: a String as the 256 bytes of a
// data file, at most 255 characters (a longer one stops the program, as the same on every rank).
template <class C>
concept HasFileForm = requires(const C& c) {
  file_form(c);
};

inline void to_file_field(FixedString& out, const std::string& in) {
  if (in.size() > 255)
    fail_alike("cannot store a String field of " + std::to_string(in.size()) +
               " characters: data files hold Strings of at most 255 characters");
  out = FixedString::of(in);
}
inline void from_file_field(std::string& out, const FixedString& in) { out = std::string(in.view()); }
template <class T>
requires(!HasFileForm<T>) void to_file_field(T& out, const T& in) { out = in; }
template <class T>
requires(!HasFileForm<T>) void from_file_field(T& out, const T& in) { out = in; }
template <class F, class C>
requires HasFileForm<C>
void to_file_field(F& out, const C& in) { out = file_form(in); }
template <class C, class F>
requires HasFileForm<C>
void from_file_field(C& out, const F& in) { from_file_form(in, out); }
template <class F, class C, size_t N>
requires(!std::is_same_v<F, C>) void to_file_field(std::array<F, N>& out, const std::array<C, N>& in) {
  for (size_t i = 0; i < N; ++i) to_file_field(out[i], in[i]);
}
template <class C, class F, size_t N>
requires(!std::is_same_v<F, C>) void from_file_field(std::array<C, N>& out, const std::array<F, N>& in) {
  for (size_t i = 0; i < N; ++i) from_file_field(out[i], in[i]);
}

// Elements as a file block and back. Strings go as FixedString (the String codec's 256 bytes,
// at most 255 characters: check_strings_fit first), objects holding Strings as their file form.
template <class C>
ElementBlock block_of(std::vector<int64_t> lengths, const std::vector<C>& cells) {
  if constexpr (std::is_same_v<C, std::string>) {
    std::vector<FixedString> fixed;
    fixed.reserve(cells.size());
    for (const std::string& c : cells) fixed.push_back(FixedString::of(c));
    return ElementBlock::of(std::move(lengths), fixed);
  } else if constexpr (HasFileForm<C>) {
    std::vector<decltype(file_form(std::declval<const C&>()))> forms;
    forms.reserve(cells.size());
    for (const C& c : cells) forms.push_back(file_form(c));
    return ElementBlock::of(std::move(lengths), forms);
  } else {
    return ElementBlock::of(std::move(lengths), cells);
  }
}
template <class C>
std::vector<C> cells_of(const ElementBlock& b) {
  if constexpr (std::is_same_v<C, std::string>) {
    std::vector<std::string> out;
    for (const FixedString& f : b.values<FixedString>()) out.emplace_back(f.view());
    return out;
  } else if constexpr (HasFileForm<C>) {
    std::vector<C> out;
    for (const auto& f : b.values<decltype(file_form(std::declval<const C&>()))>()) {
      C c{};
      from_file_form(f, c);
      out.push_back(std::move(c));
    }
    return out;
  } else {
    return b.values<C>();
  }
}
// A String element longer than a data file holds stops the program on every rank alike (the
// coordinator's values are the same on all of them), naming the file.
template <class C>
void check_strings_fit(const std::vector<C>& cells, const std::string& file) {
  if constexpr (std::is_same_v<C, std::string>) {
    for (const std::string& c : cells)
      if (c.size() > 255)
        fail_alike("cannot store a String of " + std::to_string(c.size()) + " characters in " + file +
                   ": data files hold Strings of at most 255 characters");
  } else if constexpr (HasFileForm<C>) {
    for (const C& c : cells) (void)file_form(c);  // each String field checked (to_file_field)
  }
}

// One array's lengths and elements, row-major (an array never written holds zeros).
template <class T>
ElementBlock array_block(const LocalArray<T>& a) {
  std::vector<int64_t> lengths;
  int64_t n = 1;
  for (const auto& r : a.ranges) {
    lengths.push_back(r.length());
    n *= r.length();
  }
  if (a.data.empty())
    return block_of(std::move(lengths), std::vector<typename LocalArray<T>::Cell>(static_cast<size_t>(n)));
  return block_of(std::move(lengths), a.data);
}

template <class T>
LocalArray<T> array_of_block(const ElementBlock& b) {
  LocalArray<T> a(0);
  a.ranges = ranges_from_file(b.lengths);
  a.data = cells_of<typename LocalArray<T>::Cell>(b);
  return a;
}

// What a file read into a List<T> must hold: a List, or a List of Arrays for a list of arrays.
template <class T>
FileExpectation list_expectation(int rank = -1) {
  FileExpectation e;
  e.kind = IsLocalArray<T>::value ? Collection::list_of_arrays : Collection::list;
  e.rank = rank;  // a List of Arrays: the dimensionality of every array (-1 accepts any)
  return e;
}

template <class T>
DataCollection list_collection(const List<T>& l) {
  if constexpr (IsLocalArray<T>::value) {
    std::vector<ElementBlock> arrays;
    for (const auto& a : l.items) arrays.push_back(array_block(a));
    return DataCollection::list_of_arrays(std::move(arrays));
  } else {
    return DataCollection::list(block_of({static_cast<int64_t>(l.items.size())}, l.items));
  }
}

template <class T>
List<T> list_of_collection(const DataCollection& c) {
  List<T> l;
  if constexpr (IsLocalArray<T>::value) {
    for (const auto& b : c.items) l.items.push_back(array_of_block<typename IsLocalArray<T>::Element>(b));
  } else {
    l.items = cells_of<CellOf<T>>(c.items.at(0));
  }
  l.capacity = static_cast<int64_t>(l.items.size());
  return l;
}

// An Array of Lists: the outer lengths, then one list per cell in row-major order.
template <class T>
DataCollection lists_array_collection(const LocalArray<List<T>>& a) {
  std::vector<int64_t> outer;
  int64_t n = 1;
  for (const auto& r : a.ranges) {
    outer.push_back(r.length());
    n *= r.length();
  }
  std::vector<ElementBlock> lists;
  for (int64_t k = 0; k < n; ++k) {
    static const List<T> kEmpty;
    const List<T>& l = a.data.empty() ? kEmpty : a.data[static_cast<size_t>(k)];
    lists.push_back(block_of({static_cast<int64_t>(l.items.size())}, l.items));
  }
  return DataCollection::array_of_lists(std::move(outer), std::move(lists));
}

template <class T>
LocalArray<List<T>> lists_array_of_collection(const DataCollection& c) {
  LocalArray<List<T>> a(0);
  a.ranges = ranges_from_file(c.shape);
  for (const auto& b : c.items) {
    List<T> l;
    l.items = cells_of<CellOf<T>>(b);
    l.capacity = static_cast<int64_t>(l.items.size());
    a.data.push_back(std::move(l));
  }
  return a;
}

}  // namespace itrt::task
