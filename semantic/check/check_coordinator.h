// The coordinator (§4): locals inferred by first assignment, `args.key` values, task
// environments bound to one task, `execute` arguments, I/O built-ins, and no parallel
// loops or reductions. Also records the `initialize:` argument types of each task.
#pragma once

#include "semantic/check/context.h"

namespace itc::sema::check {

void checkCoordinator(CheckState& state);

} // namespace itc::sema::check
