// Implements the operator name table of reduction.h from reduce_ops.def.
#include "runtime/engine/reduction.h"

namespace itrt {

std::string_view reduce_op_name(ReduceOp op) {
  switch (op) {
#define ITRT_REDUCE_OP(e, name, kind) \
  case ReduceOp::e:                   \
    return name;
#include "runtime/engine/reduce_ops.def"
#undef ITRT_REDUCE_OP
  }
  return "?";
}

std::optional<ReduceOp> reduce_op_from_name(std::string_view name) {
#define ITRT_REDUCE_OP(e, n, kind) \
  if (name == (n)) return ReduceOp::e;
#define ITRT_REDUCE_ALIAS(alias, e) \
  if (name == (alias)) return ReduceOp::e;
#include "runtime/engine/reduce_ops.def"
#undef ITRT_REDUCE_ALIAS
#undef ITRT_REDUCE_OP
  return std::nullopt;
}

}  // namespace itrt
