// The coordinator (guide: The coordinator): locals inferred by first assignment, `args.key` values,
// task environments bound to one task, `execute` arguments, I/O built-ins, and no parallel loops or
// reductions. Also records the `initialize:` argument types of each task.
#pragma once

#include "semantic/check/context.h"

namespace itc::semantic::check {

void checkCoordinator(CheckState& state);

} // namespace itc::semantic::check
