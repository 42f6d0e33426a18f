// Tuple: the identity of a VDP, a variable-length string of integers (PULSAR §1.1). Hashable,
// totally ordered (lexicographic, shorter prefix first) and printable. Must stay a plain value:
// no knowledge of what the components mean (task, LPS, LPU coordinates are the caller's business).
#pragma once

#include <fmt/format.h>

#include <compare>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace itrt {

class Tuple {
 public:
  Tuple() = default;
  Tuple(std::initializer_list<int32_t> parts) : parts_(parts) {}
  explicit Tuple(std::vector<int32_t> parts) : parts_(std::move(parts)) {}

  size_t size() const { return parts_.size(); }
  int32_t operator[](size_t i) const { return parts_[i]; }
  const std::vector<int32_t>& parts() const { return parts_; }
  // A new tuple with `more` appended (PULSAR's concatenation).
  Tuple concat(std::initializer_list<int32_t> more) const;

  friend bool operator==(const Tuple&, const Tuple&) = default;
  friend std::strong_ordering operator<=>(const Tuple& a, const Tuple& b) { return a.parts_ <=> b.parts_; }
  size_t hash() const;
  std::string str() const;  // "(1, 2, 3)"

 private:
  std::vector<int32_t> parts_;
};

}  // namespace itrt

template <>
struct std::hash<itrt::Tuple> {
  size_t operator()(const itrt::Tuple& t) const { return t.hash(); }
};

template <>
struct fmt::formatter<itrt::Tuple> : fmt::formatter<std::string> {
  auto format(const itrt::Tuple& t, format_context& ctx) const {
    return fmt::formatter<std::string>::format(t.str(), ctx);
  }
};
