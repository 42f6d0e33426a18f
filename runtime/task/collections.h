// Program values as data-file collections (guide: Data files): a coordinator array, a List, a
// List of Arrays and an Array of Lists to and from runtime/data's DataCollection, for `store`,
// `load`, `bind_input` and `bind_output`. Arrays read from a file get ranges 0..d-1; a list read
// from a file gets its length as capacity.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
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

// Elements as a file block and back. Strings go as FixedString (the String codec's 256 bytes,
// at most 255 characters: check_strings_fit first).
template <class C>
ElementBlock block_of(std::vector<int64_t> lengths, const std::vector<C>& cells) {
  if constexpr (std::is_same_v<C, std::string>) {
    std::vector<FixedString> fixed;
    fixed.reserve(cells.size());
    for (const std::string& c : cells) fixed.push_back(FixedString::of(c));
    return ElementBlock::of(std::move(lengths), fixed);
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
  } else {
    return b.values<C>();
  }
}
// A String element longer than a data file holds stops the program on every rank alike (the
// coordinator's values are the same on all of them), naming the file.
template <class C>
void check_strings_fit(const std::vector<C>& cells, const std::string& file) {
  if constexpr (std::is_same_v<C, std::string>)
    for (const std::string& c : cells)
      if (c.size() > 255)
        fail_alike("cannot store a String of " + std::to_string(c.size()) + " characters in " + file +
                   ": data files hold Strings of at most 255 characters");
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
