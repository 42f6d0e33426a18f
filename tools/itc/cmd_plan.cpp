// `itc plan`: the human-readable task plan of an IT program — LPS tree, partitions and LPU
// counts, mapping (PPS/PPU counts, ranks, threads), the flow with every synchronisation the
// compiler inserts, dependencies and epoch versions. It runs the driver's pipeline
// (pipeline.h) up to the task plans and stops at the first phase that reports an error.
#include "semantic/plan/print_plan.h"
#include "tools/itc/command.h"
#include "tools/itc/pipeline.h"

#include <iostream>

using namespace itc;
using namespace itc::driver;

namespace {

constexpr const char* kUsage = R"(usage: itc plan FILE.it [FILE.map --machine FILE.pcubes] [--task NAME]

Prints, per task, how the program will run: the LPS tree with each array's partition and the
LPU-count formulas, the flow with every synchronisation the compiler inserts (replica
broadcast, padding exchange, gather up, scatter down, redistribution, reduction), the
writer->reader dependencies behind them, epoch version depths, and the hand-over of
environment data between tasks. With a mapping file and a machine model it also prints the
PPS and PPU count of every LPS, the number of ranks and the threads per rank.
  --machine FILE   the PCubeS machine description the mapping refers to
  --task NAME      print only the plan of task NAME (the hand-overs are omitted)
Exit status: 0 plan printed, 1 errors found (diagnostics on stderr), 2 bad command line.
)";

int runPlan(const std::vector<std::string>& args) {
    CommandLine cl(args, {"--machine", "--task"}, {});
    if (!cl.ok())
        return usageError("plan", cl.error());
    const auto& pos = cl.positionals();
    if (pos.empty() || pos.size() > 2)
        return usageError("plan", "expected FILE.it, optionally followed by FILE.map");
    PipelineRequest request{pos[0], std::nullopt, cl.value("--machine")};
    if (pos.size() == 2)
        request.mapping = pos[1];
    if (request.mapping.has_value() != request.machine.has_value())
        return usageError("plan", request.mapping ? "a mapping file needs `--machine FILE.pcubes`"
                                                  : "`--machine` needs a mapping file after FILE.it");
    SourceManager sources;
    DiagnosticEngine diags(sources);
    PipelineResult result;
    const bool ok = runPipeline(request, sources, diags, result);
    diags.print(std::cerr);
    if (!ok)
        return kExitUserError;
    const std::optional<semantic::ProgramPlan>& plan = result.plan;
    if (auto only = cl.value("--task")) {
        for (const semantic::TaskPlan& t : plan->tasks)
            if (t.task == *only) {
                std::cout << semantic::printTaskPlan(t);
                return kExitOk;
            }
        std::string names;
        for (const semantic::TaskPlan& t : plan->tasks)
            names += (names.empty() ? "`" : ", `") + t.task + "`";
        return usageError("plan", "the program has no task `" + *only + "`; its tasks are " + names);
    }
    std::cout << semantic::printProgramPlan(*plan);
    return kExitOk;
}

const ItcCommand kPlan("plan", "print how a program will run: LPSes, partitions, synchronisation", kUsage, runPlan);

} // namespace
