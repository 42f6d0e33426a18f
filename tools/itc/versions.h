// `itc --version`: itc's own version and those of the libraries it is built with (ANTLR4 runtime,
// LLVM, hwloc, fmt) and that generated programs compile against (MPI, hwloc, fmt).
#pragma once

#include <string>

namespace itc::driver {

// One line per component: `itc X.Y.Z`, then `NAME VERSION [(detail)]`, and last where the
// runtime headers and libitrt that `itc compile` uses are.
std::string versionText();

} // namespace itc::driver
