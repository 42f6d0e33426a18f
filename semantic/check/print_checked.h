// A readable dump of the checked program (`itc check --emit=checked`): what semantic analysis
// decided — classes and field types, each task's globals (type, Reduction, environment mode),
// stage instances (the space they run in, parameter bindings, local types), function
// instances and the coordinator's locals. Deterministic: maps are printed in name order.
#pragma once

#include "semantic/semantic.h"

#include <string>

namespace itc::semantic {

std::string printCheckedProgram(const CheckedProgram& checked);

} // namespace itc::semantic
