// Lists (`List of T`) and their cursors as generated code uses them: a list is a vector with a
// capacity, a cursor a position 0 <= p <= n in one list (p = n: past the end). The built-in list
// functions follow the position model of the language; misuse stops the program with a
// message naming the IT source line (`where`). Lists move between LPUs and into environments
// serialised (`list_bytes` / `list_from_bytes`): an 8-byte count, then the elements' bytes.
#pragma once

#include "runtime/task/bool_cell.h"

#include "runtime/engine/failure.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace itrt::task {

template <class T>
struct List {
  std::vector<CellOf<T>> items;  // T, but a byte for a Boolean
  int64_t capacity = -1;         // -1: not set yet (Initialize must set it, R-40)
};

template <class T>
struct Cursor {
  List<T>* list = nullptr;
  int64_t p = 0;
};

inline std::string list_where(const char* where) { return std::string(where) + ": "; }

template <class T>
Cursor<T> it_get_cursor(List<T>& l) {
  return Cursor<T>{&l, 0};
}

template <class T>
T& it_value(const Cursor<T>& c, const char* where) {
  if (!c.list) fail_alike(list_where(where) + "`value` of a cursor that refers to no list");
  if (c.p >= static_cast<int64_t>(c.list->items.size()))
    fail_alike(list_where(where) + "`value` of a cursor past the end of its list (length " +
               std::to_string(c.list->items.size()) + ")");
  return c.list->items[static_cast<size_t>(c.p)];
}

template <class T>
bool it_advance(Cursor<T>& c) {
  const int64_t n = c.list ? static_cast<int64_t>(c.list->items.size()) : 0;
  if (c.p < n - 1) {
    ++c.p;
    return true;
  }
  c.p = n;
  return false;
}
// `advance(get_cursor(l))`: a cursor that is no variable moves and is forgotten; the answer is
// the same (whether the list has an element after the cursor's).
template <class T>
bool it_advance(Cursor<T>&& c) {
  return it_advance(c);
}

template <class T>
void it_check_cursor(const List<T>& l, const Cursor<T>& c, const char* what, const char* where) {
  if (c.list != &l) fail_alike(list_where(where) + "`" + what + "` with a cursor of another list");
}

template <class T, class E>
void it_insert_at(List<T>& l, Cursor<T>& c, const E& e, const char* where) {
  it_check_cursor(l, c, "insert_at", where);
  if (l.capacity < 0)
    fail_alike(list_where(where) + "`insert_at` into a list whose capacity was never set (set_capacity)");
  if (static_cast<int64_t>(l.items.size()) >= l.capacity)
    fail_alike(list_where(where) + "`insert_at` beyond the list's capacity " + std::to_string(l.capacity));
  const int64_t p = std::min<int64_t>(c.p, static_cast<int64_t>(l.items.size()));
  l.items.insert(l.items.begin() + p, static_cast<T>(e));
  c.p = p;
}

template <class T>
void it_remove_at(List<T>& l, Cursor<T>& c, const char* where) {
  it_check_cursor(l, c, "remove_at", where);
  if (c.p >= static_cast<int64_t>(l.items.size()))
    fail_alike(list_where(where) + "`remove_at` with a cursor past the end of the list");
  l.items.erase(l.items.begin() + c.p);
}

// A cursor made in the call itself (`insert_at(l, get_cursor(l), x)`): nothing keeps it.
template <class T, class E>
void it_insert_at(List<T>& l, Cursor<T>&& c, const E& e, const char* where) {
  it_insert_at(l, c, e, where);
}
template <class T>
void it_remove_at(List<T>& l, Cursor<T>&& c, const char* where) {
  it_remove_at(l, c, where);
}

template <class T>
void it_set_capacity(List<T>& l, int64_t n, const char* where) {
  if (n < 0) fail_alike(list_where(where) + "`set_capacity(" + std::to_string(n) + ")`: a capacity cannot be negative");
  if (n < static_cast<int64_t>(l.items.size()))
    fail_alike(list_where(where) + "`set_capacity(" + std::to_string(n) + ")` below the list's length " +
               std::to_string(l.items.size()));
  l.capacity = n;
}

template <class T>
std::vector<std::byte> list_bytes(const List<T>& l) {
  static_assert(std::is_trivially_copyable_v<T>, "list elements move as bytes");
  std::vector<std::byte> out(2 * sizeof(int64_t) + l.items.size() * sizeof(T));
  const int64_t head[2] = {static_cast<int64_t>(l.items.size()), l.capacity};
  std::memcpy(out.data(), head, sizeof head);
  if (!l.items.empty()) std::memcpy(out.data() + sizeof head, l.items.data(), l.items.size() * sizeof(T));
  return out;
}

template <class T>
void list_from_bytes(List<T>& l, const std::byte* p, size_t n) {
  int64_t head[2] = {0, -1};
  if (n < sizeof head) fail("itrt: internal error: a list arrived cut short");
  std::memcpy(head, p, sizeof head);
  l.items.resize(static_cast<size_t>(head[0]));
  l.capacity = head[1];
  if (head[0] > 0) std::memcpy(l.items.data(), p + sizeof head, static_cast<size_t>(head[0]) * sizeof(T));
}

// Task-global values that move between LPUs and into environments serialised rather than by
// their C++ layout: lists, Strings (a String's bytes are its characters) and objects of classes
// with String fields. For such a class the generated program defines `value_append` and
// `value_read` (field by field, through the overloads below), found by argument-dependent lookup.
template <class T>
std::vector<std::byte> value_bytes(const List<T>& l);
template <class T>
void value_from_bytes(List<T>& l, const std::byte* p, size_t n);
inline std::vector<std::byte> value_bytes(const std::string& s) {
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  return std::vector<std::byte>(p, p + s.size());
}
inline void value_from_bytes(std::string& s, const std::byte* p, size_t n) {
  s.assign(reinterpret_cast<const char*>(p), n);
}

// One field of an object: plain values by their bytes, Strings length first, fixed arrays
// element by element.
template <class T>
requires std::is_trivially_copyable_v<T>
void value_append(std::vector<std::byte>& out, const T& v) {
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), p, p + sizeof(T));
}
inline void value_append(std::vector<std::byte>& out, const std::string& s) {
  value_append(out, static_cast<int64_t>(s.size()));
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  out.insert(out.end(), p, p + s.size());
}
template <class T, size_t N>
requires(!std::is_trivially_copyable_v<T>) void value_append(std::vector<std::byte>& out, const std::array<T, N>& a) {
  for (const T& e : a) value_append(out, e);
}
template <class T>
requires std::is_trivially_copyable_v<T>
const std::byte* value_read(T& v, const std::byte* p, const std::byte* end) {
  if (end - p < static_cast<std::ptrdiff_t>(sizeof(T))) fail("itrt: internal error: a value arrived cut short");
  std::memcpy(&v, p, sizeof(T));
  return p + sizeof(T);
}
inline const std::byte* value_read(std::string& s, const std::byte* p, const std::byte* end) {
  int64_t n = 0;
  p = value_read(n, p, end);
  if (n < 0 || end - p < n) fail("itrt: internal error: a String arrived cut short");
  s.assign(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
  return p + n;
}
template <class T, size_t N>
requires(!std::is_trivially_copyable_v<T>) const std::byte* value_read(std::array<T, N>& a, const std::byte* p,
                                                                       const std::byte* end) {
  for (T& e : a) p = value_read(e, p, end);
  return p;
}

// A list of values that do not move as bytes (lists of arrays): its length and capacity, then
// each element as value_append writes it.
template <class T>
std::vector<std::byte> value_bytes(const List<T>& l) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    return list_bytes(l);
  } else {
    std::vector<std::byte> out;
    value_append(out, static_cast<int64_t>(l.items.size()));
    value_append(out, l.capacity);
    for (const T& e : l.items) value_append(out, e);
    return out;
  }
}
template <class T>
void value_from_bytes(List<T>& l, const std::byte* p, size_t n) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    list_from_bytes(l, p, n);
  } else {
    const std::byte* end = p + n;
    int64_t count = 0;
    p = value_read(count, p, end);
    p = value_read(l.capacity, p, end);
    l.items.assign(static_cast<size_t>(count), T{});
    for (T& e : l.items) p = value_read(e, p, end);
  }
}

}  // namespace itrt::task
