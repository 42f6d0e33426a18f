// See machine_check.h.
#include "tools/itc/machine_check.h"

#include "pcubes/machine_parser.h"
#include "pcubes/program_spaces_from_ast.h"

namespace itc::driver {

std::optional<MachineAndMapping> checkMachineAndMapping(const ast::Program& program, const std::string& mappingPath,
                                                        const std::string& machinePath, SourceManager& sources,
                                                        DiagnosticEngine& diags) {
    auto machine = pcubes::loadMachine(machinePath, sources, diags);
    if (!machine)
        return std::nullopt;
    auto mapping = pcubes::loadMapping(mappingPath, sources, diags);
    if (!mapping)
        return std::nullopt;
    mapping->path = mappingPath;
    pcubes::ProgramSpaces spaces = pcubes::programSpacesFromAst(program);
    auto checked = pcubes::validateMapping(*mapping, spaces, *machine, diags);
    if (!checked)
        return std::nullopt;
    return MachineAndMapping{std::move(*machine), std::move(*checked)};
}

} // namespace itc::driver
