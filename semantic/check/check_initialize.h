// Initialize sections (§5.2): parameters matching task-globals are auto-assigned, the
// others are locals typed from the `initialize:` arguments of the first `execute`; the body
// may use `partition.p` and dimension assignments but no array elements.
#pragma once

#include "semantic/check/context.h"

namespace itc::sema::check {

void checkInitialize(CheckState& state, TaskSym& task);

} // namespace itc::sema::check
