// `itc check`: all diagnostics for an IT program, without producing anything — the driver's
// pipeline (pipeline.h) up to the task plans, or up to the phase `--emit=STAGE` names, whose
// result it then prints.
#include "tools/itc/command.h"
#include "tools/itc/pipeline.h"

#include <iostream>

using namespace itc;
using namespace itc::driver;

namespace {

constexpr const char* kUsage = R"(usage: itc check FILE.it [FILE.map --machine FILE.pcubes] [--emit=STAGE]

Checks an IT program and prints every diagnostic (file:line:col, the source line, a caret).
With a mapping file and a machine model, the mapping is checked against both.
  --machine FILE   the PCubeS machine description the mapping refers to
  --emit=STAGE     run the compiler's phases up to STAGE and print its result on stdout:
                   tokens   the tokens the lexer sees (line:column KIND `text`)
                   ast      the syntax tree, one node per line
                   checked  what semantic analysis decided: types of globals, stage
                            instances and their bindings, locals
                   plan     the task plans (as `itc plan` prints them)
                   cpp      the generated C++ (needs FILE.map and --machine)
Exit status: 0 no errors, 1 errors found (diagnostics on stderr), 2 bad command line.
)";

int runCheck(const std::vector<std::string>& args) {
    CommandLine cl(args, {"--machine", "--emit"}, {});
    if (!cl.ok())
        return usageError("check", cl.error());
    const auto& pos = cl.positionals();
    if (pos.empty() || pos.size() > 2)
        return usageError("check", "expected FILE.it, optionally followed by FILE.map");
    if (auto swapped = swappedInputs("check", pos))
        return *swapped;
    PipelineRequest request{pos[0], std::nullopt, cl.value("--machine")};
    if (pos.size() == 2)
        request.mapping = pos[1];
    if (request.mapping.has_value() != request.machine.has_value())
        return usageError("check", request.mapping ? "a mapping file needs `--machine FILE.pcubes`"
                                                   : "`--machine` needs a mapping file after FILE.it");
    std::optional<Stage> emit;
    if (auto name = cl.value("--emit")) {
        emit = stageByName(*name);
        if (!emit)
            return usageError("check", "`--emit` takes one of " + std::string(kStageNames) + ", not `" + *name + "`");
        if (*emit == Stage::Cpp && !request.mapping)
            return usageError("check", "`--emit=cpp` needs FILE.map and `--machine FILE.pcubes`");
        request.last = *emit;
    }
    SourceManager sources;
    DiagnosticEngine diags(sources);
    PipelineResult result;
    bool ok = runPipeline(request, sources, diags, result);
    diags.print(std::cerr);
    if (!ok)
        return kExitUserError;
    if (emit)
        std::cout << emitStage(*emit, result, sources);
    return kExitOk;
}

const ItcCommand kCheck("check", "report the diagnostics of an IT program", kUsage, runCheck);

} // namespace
