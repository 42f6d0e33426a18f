// What the compiler-side fuzz targets (program, machine, mapping) share: the checks every run's
// diagnostics must pass, and the test machine model they map programs onto.
#pragma once

#include "frontend/diagnostics/diagnostics.h"
#include "pcubes/machine_model.h"
#include "pcubes/machine_parser.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace itc::fuzz {

[[noreturn]] inline void bug(const std::string& what) {
    std::fprintf(stderr, "fuzz target: %s\n", what.c_str());
    std::abort();
}

// A phase that failed must have said why (an error diagnostic); no diagnostic may be an
// internal error; every diagnostic must render (file:line:col, source line, caret).
inline void checkDiagnostics(const DiagnosticEngine& diags, bool phaseOk, const char* phase) {
    if (!phaseOk && !diags.hasErrors())
        bug(std::string(phase) + " failed without reporting an error");
    for (const Diagnostic& d : diags.diagnostics())
        if (d.kind == DiagKind::InternalError)
            bug("internal error diagnostic: " + d.message);
    std::ostringstream rendered;
    diags.print(rendered);
    if (diags.hasErrors() && rendered.str().find("error") == std::string::npos)
        bug(std::string(phase) + ": errors were reported but rendered without `error`");
}

// pcubes-models/test-cluster-4.pcubes (Cluster 3 / Node<unit><segment> 2 / Core<core> 1), the
// machine the examples' mapping files are written for. Loaded once; aborts if it does not parse.
inline const pcubes::MachineModel& testMachine() {
    static const pcubes::MachineModel model = [] {
        SourceManager sources;
        DiagnosticEngine diags(sources);
        auto m = pcubes::loadMachine(ITC_SOURCE_DIR "/pcubes-models/test-cluster-4.pcubes", sources, diags);
        if (!m)
            bug("cannot load pcubes-models/test-cluster-4.pcubes");
        return *m;
    }();
    return model;
}

} // namespace itc::fuzz
