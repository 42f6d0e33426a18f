// A Boolean element of an array or list value, held as a byte (see BoolCell).
#pragma once

#include <type_traits>

namespace itrt::task {

// One Boolean of an array or list value, held as a byte: std::vector<bool> packs bits and has
// neither element references nor data(), both of which arrays and lists need (`a.at({i}) = v`,
// `&` arguments, copies to and from files and parts).
struct BoolCell {
  bool v = false;
  BoolCell() = default;
  BoolCell(bool b) : v(b) {}           // NOLINT(google-explicit-constructor): a Boolean is one
  operator bool&() { return v; }       // NOLINT(google-explicit-constructor)
  operator bool() const { return v; }  // NOLINT(google-explicit-constructor)
};
template <class T>
using CellOf = std::conditional_t<std::is_same_v<T, bool>, BoolCell, T>;

}  // namespace itrt::task
