// Initialize sections (guide: Tasks): parameters matching task-globals are auto-assigned, the
// others are locals typed from the `initialize:` arguments of the first `execute`; the body
// may use `partition.p` and dimension assignments but no array elements (guide: Tasks).
#pragma once

#include "semantic/check/context.h"

namespace itc::semantic::check {

void checkInitialize(CheckState& state, TaskSym& task);

} // namespace itc::semantic::check
