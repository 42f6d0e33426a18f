// Reduction operators of IT §6.7 as values: identities, combine functions, a per-thread
// combiner with a fixed combine order, and a type-erased Combiner for packets. Must not know how
// contributions travel (the task runtime combines them, runtime/task/flow.cpp; tests/runtime_engine/reduction_tree.h
// moves them over channels in the engine tests).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace itrt {

enum class ReduceOp {
#define ITRT_REDUCE_OP(e, name, kind) e,
#include "runtime/engine/reduce_ops.def"
#undef ITRT_REDUCE_OP
};

inline constexpr ReduceOp kAllReduceOps[] = {
#define ITRT_REDUCE_OP(e, name, kind) ReduceOp::e,
#include "runtime/engine/reduce_ops.def"
#undef ITRT_REDUCE_OP
};

std::string_view reduce_op_name(ReduceOp op);
// Accepts the §6.7 spellings, including the aliases maxEntry/minEntry.
std::optional<ReduceOp> reduce_op_from_name(std::string_view name);

// Result of max_entry/min_entry: the value and the loop index where it occurs; `present` false
// means "no entry yet" (the identity: an empty entry reduction leaves its target unchanged; an
// index may be negative, so it cannot say so itself). `order` ranks indices in their
// dimension's order (-index along an inverted range), for ties.
template <typename T>
struct Entry {
  T value{};
  int32_t index = 0;
  int32_t order = 0;
  bool present = true;
  bool empty() const { return !present; }
  friend bool operator==(const Entry&, const Entry&) = default;
};

template <typename T>
inline constexpr bool kNumeric = std::is_same_v<T, int32_t> || std::is_same_v<T, float> || std::is_same_v<T, double>;
template <typename T>
inline constexpr bool kOrdered = kNumeric<T> || std::is_same_v<T, char> || std::is_same_v<T, unsigned char>;

// Whether IT allows `op` on operand type T (§6.7 table).
template <ReduceOp Op, typename T>
constexpr bool reduce_applicable() {
  switch (Op) {
    case ReduceOp::sum:
    case ReduceOp::product: return kNumeric<T>;
    case ReduceOp::max:
    case ReduceOp::min:
    case ReduceOp::max_entry:
    case ReduceOp::min_entry: return kOrdered<T>;
    case ReduceOp::land:
    case ReduceOp::lor: return std::is_same_v<T, bool>;
    case ReduceOp::band:
    case ReduceOp::bor: return std::is_same_v<T, int32_t>;
  }
  return false;
}

template <ReduceOp Op, typename T>
requires(reduce_applicable<Op, T>()) struct Reducer {
  static constexpr bool kEntry = Op == ReduceOp::max_entry || Op == ReduceOp::min_entry;
  using Value = std::conditional_t<kEntry, Entry<T>, T>;

  static Value identity() {
    if constexpr (kEntry) {
      Value none{};
      none.present = false;
      return none;
    } else if constexpr (Op == ReduceOp::sum || Op == ReduceOp::bor) {
      return T(0);
    } else if constexpr (Op == ReduceOp::product) {
      return T(1);
    } else if constexpr (Op == ReduceOp::max) {
      return std::numeric_limits<T>::lowest();
    } else if constexpr (Op == ReduceOp::min) {
      return std::numeric_limits<T>::max();
    } else if constexpr (Op == ReduceOp::land) {
      return true;
    } else if constexpr (Op == ReduceOp::lor) {
      return false;
    } else {
      return T(~0);  // band: all bits set
    }
  }

  // `a` is the accumulated value, `b` the next contribution in combine order.
  static Value combine(Value a, Value b) {
    if constexpr (Op == ReduceOp::sum) {
      if constexpr (std::is_same_v<T, int32_t>)  // two's complement wrap, no UB
        return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
      else
        return a + b;
    } else if constexpr (Op == ReduceOp::product) {
      if constexpr (std::is_same_v<T, int32_t>)
        return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
      else
        return a * b;
    } else if constexpr (Op == ReduceOp::max) {
      return b > a ? b : a;
    } else if constexpr (Op == ReduceOp::min) {
      return b < a ? b : a;
    } else if constexpr (kEntry) {
      if (b.empty()) return a;
      if (a.empty()) return b;
      bool better = Op == ReduceOp::max_entry ? b.value > a.value : b.value < a.value;
      // Ties go to the index that comes first in the dimension's order, whatever the
      // combine order.
      const bool first = b.order != a.order ? b.order < a.order : b.index < a.index;
      if (better || (b.value == a.value && first)) return b;
      return a;
    } else if constexpr (Op == ReduceOp::land) {
      return a && b;
    } else if constexpr (Op == ReduceOp::lor) {
      return a || b;
    } else if constexpr (Op == ReduceOp::band) {
      return a & b;
    } else {
      return a | b;
    }
  }

  // Sequential reduction of a loop body's values; for entries, values[i] sits at index first + i.
  static Value over(std::span<const T> values, int32_t first_index = 0) {
    Value acc = identity();
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (kEntry)
        acc = combine(acc, Value{values[i], first_index + static_cast<int32_t>(i)});
      else
        acc = combine(acc, values[i]);
    }
    return acc;
  }
};

// Combines the partial results of the threads of one rank in thread-id order (not arrival order),
// so the result is reproducible for a fixed thread count. Each thread writes only its own slot.
template <ReduceOp Op, typename T>
class ThreadCombiner {
 public:
  using R = Reducer<Op, T>;
  using Value = typename R::Value;
  explicit ThreadCombiner(int threads) : slots_(static_cast<size_t>(threads)) { reset(); }
  void reset() {
    for (auto& s : slots_) s.value = R::identity();
  }
  void contribute(int thread, Value v) { slots_[thread].value = R::combine(slots_[thread].value, v); }
  Value combine() const {
    Value acc = R::identity();
    for (const auto& s : slots_) acc = R::combine(acc, s.value);
    return acc;
  }

 private:
  struct alignas(64) Slot {  // one cache line per thread: no false sharing while contributing
    Value value;
  };
  std::vector<Slot> slots_;
};

// Type-erased elementwise combine over arrays of Values, used on packet payloads.
struct Combiner {
  size_t value_size = 0;
  void (*fill_identity)(void* out, size_t count) = nullptr;
  void (*combine)(void* acc, const void* in, size_t count) = nullptr;
};

template <ReduceOp Op, typename T>
Combiner make_combiner() {
  using R = Reducer<Op, T>;
  using V = typename R::Value;
  Combiner c;
  c.value_size = sizeof(V);
  c.fill_identity = [](void* out, size_t n) {
    V id = R::identity();
    for (size_t i = 0; i < n; ++i) std::memcpy(static_cast<char*>(out) + i * sizeof(V), &id, sizeof(V));
  };
  c.combine = [](void* acc, const void* in, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      V a, b;
      std::memcpy(&a, static_cast<char*>(acc) + i * sizeof(V), sizeof(V));
      std::memcpy(&b, static_cast<const char*>(in) + i * sizeof(V), sizeof(V));
      a = R::combine(a, b);
      std::memcpy(static_cast<char*>(acc) + i * sizeof(V), &a, sizeof(V));
    }
  };
  return c;
}

}  // namespace itrt
