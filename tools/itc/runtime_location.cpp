// Implements runtime_location.h. The installed layout is written by cmake/ItcInstall.cmake; the
// relative directories and the build-tree paths come from backend_runtime_paths.h.
#include "tools/itc/runtime_location.h"

#include "backend_runtime_paths.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace itc::driver {

namespace fs = std::filesystem;

namespace {

// <prefix> of the running executable <prefix>/bin/itc (symbolic links resolved), or empty.
fs::path installPrefix() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    return exe.parent_path().parent_path();
}

// Whether the precompiled header `prelude`.gch is newer than every header it was made from (its
// depfile, `prelude`.d, lists them): GCC takes a stale one without a word, and the changed
// headers then clash with it, so a build tree whose runtime headers were edited since the last
// build compiles without it.
bool preludeIsCurrent(const std::string& prelude) {
    std::error_code ec;
    const auto made = fs::last_write_time(prelude + ".gch", ec);
    std::ifstream deps(prelude + ".d");
    if (ec || !deps)
        return false;
    std::string word;
    bool target = true; // the first word names the .gch itself
    while (deps >> word) {
        if (word == "\\" || target) {
            target = target && word.back() != ':';
            continue;
        }
        const auto changed = fs::last_write_time(word, ec);
        if (ec || changed > made)
            return false;
    }
    return !target;
}

} // namespace

RuntimeLocation locateRuntime() {
    fs::path prefix = installPrefix();
    fs::path include = prefix / ITC_INSTALL_INCLUDEDIR;
    fs::path lib = prefix / ITC_INSTALL_RUNTIME_LIBDIR;
    std::error_code ec;
    if (!prefix.empty() && fs::exists(include / "runtime/task/program.h", ec) &&
        fs::exists(lib / "libitrt_engine.a", ec)) {
        RuntimeLocation r;
        r.includeDir = include.string();
        for (const char* part : {"libitrt_task.a", "libitrt_data.a", "libitrt_engine.a"})
            r.linkArgs += shellQuoted((lib / part).string()) + " ";
        r.linkArgs += ITC_RUNTIME_SYSTEM_LIBS;
        r.blasLinkArgs =
            shellQuoted((lib / "libitrt_dense.a").string()) + " -ldl"; // OpenBLAS is loaded at the first call
        r.installed = true;
        r.description = "installed: " + include.string() + ", " + lib.string();
        return r;
    }
    RuntimeLocation r{ITC_RUNTIME_INCLUDE,
                      ITC_RUNTIME_LIBS,
                      ITC_BLAS_LIBS,
                      "",
                      false,
                      "build tree: headers in " + std::string(ITC_RUNTIME_INCLUDE) + "/runtime"};
    const std::string prelude = ITC_RUNTIME_PRELUDE;
    if (!prelude.empty() && preludeIsCurrent(prelude))
        r.prelude = prelude;
    return r;
}

std::string shellQuoted(const std::string& text) {
    std::string q = "'";
    for (char c : text)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string mpiCompiler() {
    std::error_code ec;
    return fs::exists(ITC_MPICXX, ec) ? std::string(ITC_MPICXX) : std::string("mpicxx");
}

} // namespace itc::driver
