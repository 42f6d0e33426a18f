// Implements tuple.h. Hash mixes every component and the length so (1,2) and (1,2,0) differ.
#include "runtime/engine/tuple.h"

namespace itrt {

Tuple Tuple::concat(std::initializer_list<int32_t> more) const {
  std::vector<int32_t> parts = parts_;
  parts.insert(parts.end(), more.begin(), more.end());
  return Tuple(std::move(parts));
}

size_t Tuple::hash() const {
  // FNV-1a over the components, then the length.
  uint64_t h = 1469598103934665603ull;
  for (int32_t p : parts_) {
    h ^= static_cast<uint32_t>(p);
    h *= 1099511628211ull;
  }
  h ^= parts_.size();
  h *= 1099511628211ull;
  return static_cast<size_t>(h);
}

std::string Tuple::str() const { return fmt::format("({})", fmt::join(parts_, ", ")); }

}  // namespace itrt
