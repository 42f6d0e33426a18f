// The machine-model and mapping part of `itc check` / `itc plan` / `itc compile`: loads the
// PCubeS file and the mapping file and checks the mapping against the parsed program.
// Reports to the diagnostics engine only; the caller prints and picks the exit code.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "pcubes/machine_model.h"
#include "pcubes/mapping.h"

#include <optional>
#include <string>
#include <vector>

namespace itc::driver {

struct MachineAndMapping {
    pcubes::MachineModel machine;
    std::vector<pcubes::TaskMapping> mappings; // one per mapped task
};

// Loads `machinePath` and `mappingPath` into `sources` and checks both, and the mapping against
// `program` (task and space names, completeness, partial order, Root confinement). Returns
// nullopt after any error; every problem is in `diags`.
std::optional<MachineAndMapping> checkMachineAndMapping(const ast::Program& program, const std::string& mappingPath,
                                                        const std::string& machinePath, SourceManager& sources,
                                                        DiagnosticEngine& diags);

} // namespace itc::driver
