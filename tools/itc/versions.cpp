// Implements versions.h. Each phase reports the version of the library it alone uses (ANTLR in
// frontend/, LLVM in backend/, hwloc in pcubes/); the MPI release is recorded at configure time.
#include "tools/itc/versions.h"

#include "backend/backend.h"
#include "frontend/parser.h"
#include "itc_version.h"
#include "pcubes/hwloc_discovery.h"
#include "tools/itc/runtime_location.h"

#include <fmt/format.h>

namespace itc::driver {

std::string versionText() {
    std::string text = "itc " ITC_VERSION_STRING "\n";
    text += fmt::format("ANTLR4 runtime {}\n", antlrRuntimeVersion());
    text += fmt::format("LLVM {} (clang libFormat)\n", backend::llvmVersion());
    text += fmt::format("{} (generated programs compile with {})\n", ITC_MPI_VERSION_STRING, mpiCompiler());
    text += fmt::format("hwloc {} (API {})\n", ITC_HWLOC_VERSION_STRING, pcubes::hwlocApiVersion());
    text += fmt::format("fmt {}.{}.{}\n", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100);
    text += fmt::format("libitrt {}\n", locateRuntime().description);
    return text;
}

} // namespace itc::driver
