// `itc plan`: the human-readable task plan of an IT program — LPS tree, partitions and LPU
// counts, mapping (PPS/PPU counts, ranks, threads), the flow with every synchronisation the
// compiler inserts, dependencies and epoch versions. The pipeline reads top to bottom in
// planProgram(); it stops at the first phase that reports an error.
#include "frontend/parser.h"
#include "semantic/plan/build_plan.h"
#include "semantic/plan/print_plan.h"
#include "semantic/semantic.h"
#include "tools/itc/command.h"
#include "tools/itc/machine_check.h"

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

struct PlanInputs {
    std::string program;
    std::optional<std::string> mapping;
    std::optional<std::string> machine;
};

std::optional<semantic::ProgramPlan> planProgram(const PlanInputs& in, SourceManager& sources,
                                                 DiagnosticEngine& diags) {
    std::string reason;
    std::optional<FileId> file = sources.loadFile(in.program, reason);
    if (!file) {
        diags.error(DiagKind::FileNotReadable, {}, "cannot read `{}`: {}", in.program, reason);
        return std::nullopt;
    }
    // 1. Syntax: source text -> AST.
    std::unique_ptr<ast::Program> program = parseProgram(*file, sources, diags);
    if (diags.hasErrors())
        return std::nullopt;
    // 2. Names, types, task and flow rules.
    sema::CheckedProgram checked;
    if (!sema::checkProgram(*program, sources, diags, checked))
        return std::nullopt;
    // 3. Machine model and mapping, against the program's tasks and spaces.
    std::optional<MachineAndMapping> target;
    if (in.mapping) {
        target = checkMachineAndMapping(*program, *in.mapping, *in.machine, sources, diags);
        if (!target)
            return std::nullopt;
    }
    // 4. Partitions, flow, data usage, dependencies -> the task plans.
    semantic::PlanTarget pt;
    if (target) {
        pt.machine = &target->machine;
        pt.mappings = &target->mappings;
        pt.machineFile = *in.machine;
    }
    semantic::ProgramPlan plan = semantic::buildProgramPlan(*program, pt, diags);
    if (diags.hasErrors())
        return std::nullopt;
    return plan;
}

int runPlan(const std::vector<std::string>& args) {
    CommandLine cl(args, {"--machine", "--task"}, {});
    if (!cl.ok())
        return usageError("plan", cl.error());
    const auto& pos = cl.positionals();
    if (pos.empty() || pos.size() > 2)
        return usageError("plan", "expected FILE.it, optionally followed by FILE.map");
    PlanInputs in{pos[0], std::nullopt, cl.value("--machine")};
    if (pos.size() == 2)
        in.mapping = pos[1];
    if (in.mapping.has_value() != in.machine.has_value())
        return usageError("plan", in.mapping ? "a mapping file needs `--machine FILE.pcubes`"
                                             : "`--machine` needs a mapping file after FILE.it");
    SourceManager sources;
    DiagnosticEngine diags(sources);
    std::optional<semantic::ProgramPlan> plan = planProgram(in, sources, diags);
    diags.print(std::cerr);
    if (!plan)
        return kExitUserError;
    if (auto only = cl.value("--task")) {
        for (const semantic::TaskPlan& t : plan->tasks)
            if (t.task == *only) {
                std::cout << semantic::printTaskPlan(t);
                return kExitOk;
            }
        std::string names;
        for (const semantic::TaskPlan& t : plan->tasks)
            names += (names.empty() ? "`" : ", `") + t.task + "`";
        return usageError("plan", "the program has no task `" + *only + "`; its tasks are " +
                                      names);
    }
    std::cout << semantic::printProgramPlan(*plan);
    return kExitOk;
}

const ItcCommand kPlan("plan", "print how a program will run: LPSes, partitions, synchronisation",
                       kUsage, runPlan);

} // namespace
