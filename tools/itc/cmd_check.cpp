// `itc check`: all diagnostics for an IT program, without producing anything. The pipeline is
// checkProgram() below, read top to bottom; later phases (semantic analysis) are appended there.
#include "frontend/parser.h"
#include "semantic/plan/build_plan.h"
#include "semantic/semantic.h"
#include "tools/itc/command.h"
#include "tools/itc/machine_check.h"

#include <iostream>

using namespace itc;
using namespace itc::driver;

namespace {

constexpr const char* kUsage = R"(usage: itc check FILE.it [FILE.map --machine FILE.pcubes]

Checks an IT program and prints every diagnostic (file:line:col, the source line, a caret).
With a mapping file and a machine model, the mapping is checked against both.
  --machine FILE   the PCubeS machine description the mapping refers to
Exit status: 0 no errors, 1 errors found (diagnostics on stderr), 2 bad command line.
)";

struct CheckInputs {
    std::string program;                // FILE.it
    std::optional<std::string> mapping; // FILE.map (then machine is set too)
    std::optional<std::string> machine; // FILE.pcubes
};

// The whole `check` pipeline. Each phase runs only when the previous ones found no error.
bool checkProgram(const CheckInputs& in, SourceManager& sources, DiagnosticEngine& diags) {
    std::string reason;
    std::optional<FileId> file = sources.loadFile(in.program, reason);
    if (!file) {
        diags.error(DiagKind::FileNotReadable, {}, "cannot read `{}`: {}", in.program, reason);
        return false;
    }
    // 1. Syntax: source text -> AST.
    std::unique_ptr<ast::Program> program = parseProgram(*file, sources, diags);
    if (diags.hasErrors())
        return false;
    // 2. Semantics: names, types, task/function/flow rules (semantic/check/).
    sema::CheckedProgram checked;
    if (!sema::checkProgram(*program, sources, diags, checked))
        return false;
    // 3. Partition section: LPS tree, data configurations, sub-partition placement (semantic/partition/).
    if (!semantic::checkPartitions(*program, diags))
        return false;
    // 4. Machine model and mapping, against the program's tasks and spaces.
    if (in.mapping && !checkMachineAndMapping(*program, *in.mapping, *in.machine, sources, diags))
        return false;
    return !diags.hasErrors();
}

int runCheck(const std::vector<std::string>& args) {
    CommandLine cl(args, {"--machine"}, {});
    if (!cl.ok())
        return usageError("check", cl.error());
    const auto& pos = cl.positionals();
    if (pos.empty() || pos.size() > 2)
        return usageError("check", "expected FILE.it, optionally followed by FILE.map");
    CheckInputs in{pos[0], std::nullopt, cl.value("--machine")};
    if (pos.size() == 2)
        in.mapping = pos[1];
    if (in.mapping.has_value() != in.machine.has_value())
        return usageError("check", in.mapping ? "a mapping file needs `--machine FILE.pcubes`"
                                              : "`--machine` needs a mapping file after FILE.it");
    SourceManager sources;
    DiagnosticEngine diags(sources);
    bool ok = checkProgram(in, sources, diags);
    diags.print(std::cerr);
    return ok ? kExitOk : kExitUserError;
}

const ItcCommand kCheck("check", "report the diagnostics of an IT program", kUsage, runCheck);

} // namespace
