// Where `itc compile` finds what generated programs need: the runtime headers, libitrt and the
// MPI compiler wrapper. An installed itc (`cmake --install`, the .deb) finds the headers and
// libraries relative to its own executable, so the installed tree can be moved anywhere; an itc
// run from its build tree uses the source and build directories it was built from.
#pragma once

#include <string>

namespace itc::driver {

struct RuntimeLocation {
    std::string includeDir;   // -I for `#include "runtime/..."`
    std::string linkArgs;     // libitrt and the libraries it needs, shell-quoted
    std::string blasLinkArgs; // the dense kernels and OpenBLAS, for programs whose stages call them
    std::string prelude;      // a header to pass with -include whose .gch precompiles the runtime's, or empty
    bool installed = false;   // found beside the executable, not in the build tree
    std::string description;  // for `itc --version`: where the headers and libitrt are
};

// The installed layout when <prefix>/bin/itc has <prefix>/include/itc and <prefix>/lib/itc
// beside it, else the build tree's paths.
RuntimeLocation locateRuntime();

// The MPI C++ compiler wrapper: the one found at configure time, or `mpicxx` on the PATH when
// that one is not there (an installed itc on another machine).
std::string mpiCompiler();

// `text` as one word of a POSIX shell command: in single quotes, each `'` written `'\''`, so
// that no file name the user chose (`-o "it's/prog"`) can end the word or run a command.
std::string shellQuoted(const std::string& text);

} // namespace itc::driver
