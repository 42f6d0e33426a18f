// `itc plan`: the human-readable task plan of an IT program — LPS tree, partitions and LPU
// counts, mapping (PPS/PPU counts, ranks, threads), the flow with every synchronisation the
// compiler inserts, dependencies and epoch versions. It runs the driver's pipeline
// (pipeline.h) up to the task plans and stops at the first phase that reports an error.
#include "semantic/plan/print_plan.h"
#include "semantic/plan/suggest.h"
#include "frontend/diagnostics/did_you_mean.h"
#include "tools/itc/command.h"
#include "tools/itc/pipeline.h"

#include <algorithm>
#include <iostream>

using namespace itc;
using namespace itc::driver;

namespace {

constexpr const char* kUsage = R"(usage: itc plan FILE.it [FILE.map --machine FILE.pcubes] [--task NAME]
                [--suggest NAME=SIZE,...]

Prints, per task, how the program will run: the LPS tree with each array's partition and the
LPU-count formulas, the flow with every synchronisation the compiler inserts (replica
broadcast, padding exchange, gather up, scatter down, redistribution, reduction), the
writer->reader dependencies behind them, epoch version depths, and the hand-over of
environment data between tasks. With a mapping file and a machine model it also prints the
PPS and PPU count of every LPS, the number of ranks and the threads per rank.
  --machine FILE   the PCubeS machine description the mapping refers to
  --task NAME      print only the plan of task NAME (the hand-overs are omitted)
  --suggest SIZES  instead of the plan, propose partition arguments for these array sizes
                   (`a=2048x2048,b=2048x2048,c=2048x2048`; a Partition parameter given as
                   `p1=1` stays fixed, and padding widths must be given so): every mapped
                   space's LPUs keep its PPUs busy and evenly loaded, an LPU's working set fits
                   its PPU's cache when the machine model gives one, then fewer, larger LPUs.
                   Needs the mapping and the machine model.
Exit status: 0 plan (or suggestion) printed, 1 errors found (diagnostics on stderr) or no suggestion
(it says what to give), 2 bad command line.
)";

// `a=2048x2048,p1=1`: name -> lengths (one value for a 1d array or a parameter).
std::optional<std::map<std::string, std::vector<std::int64_t>>> parseSizes(const std::string& text,
                                                                           std::string& error) {
    std::map<std::string, std::vector<std::int64_t>> sizes;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find(',', at);
        std::string item = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
            error = "`--suggest` takes NAME=SIZE items separated by commas (`a=2048x2048,p1=1`), not `" + item + "`";
            return std::nullopt;
        }
        std::vector<std::int64_t> lengths;
        std::string dims = item.substr(eq + 1);
        for (std::size_t p = 0; p <= dims.size();) {
            std::size_t x = dims.find('x', p);
            std::string n = dims.substr(p, x == std::string::npos ? std::string::npos : x - p);
            if (n.empty() || n.size() > 12 || n.find_first_not_of("0123456789") != std::string::npos ||
                std::stoll(n) < 1) {
                error = "`--suggest`: `" + item + "` needs positive whole numbers separated by `x`";
                return std::nullopt;
            }
            lengths.push_back(std::stoll(n));
            if (x == std::string::npos)
                break;
            p = x + 1;
        }
        sizes[item.substr(0, eq)] = lengths;
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return sizes;
}

int runPlan(const std::vector<std::string>& args) {
    CommandLine cl(args, {"--machine", "--task", "--suggest"}, {});
    if (!cl.ok())
        return usageError("plan", cl.error());
    const auto& pos = cl.positionals();
    if (pos.empty() || pos.size() > 2)
        return usageError("plan", "expected FILE.it, optionally followed by FILE.map");
    if (auto swapped = swappedInputs("plan", pos))
        return *swapped;
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
    if (auto text = cl.value("--suggest")) {
        if (!result.target)
            return usageError("plan", "`--suggest` needs the mapping file and `--machine FILE.pcubes`");
        std::string error;
        auto sizes = parseSizes(*text, error);
        if (!sizes)
            return usageError("plan", error);
        auto only = cl.value("--task");
        bool found = false, answered = true;
        // Every name must be an array or a partition parameter of a task considered: a misspelt
        // one would otherwise be ignored silently.
        std::vector<std::string> known;
        for (const semantic::TaskPlan& t : plan->tasks)
            if (const semantic::TaskInfo* info = result.checked.findTask(t.task); info && (!only || t.task == *only)) {
                for (const auto& g : info->globals)
                    if (g.type.isArray())
                        known.push_back(g.name);
                if (info->task)
                    for (const auto& p : info->task->partition.params)
                        known.push_back(p.text);
            }
        for (const auto& [name, lengths] : *sizes)
            if (!known.empty() && std::find(known.begin(), known.end(), name) == known.end())
                return usageError("plan", "`--suggest`: `" + name + "` is no array or partition parameter of " +
                                              (only ? "task `" + *only + "`" : std::string("the program's tasks")) +
                                              didYouMean(name, known));
        for (const semantic::TaskPlan& t : plan->tasks) {
            if (only && t.task != *only)
                continue;
            found = true;
            const semantic::TaskInfo* info = result.checked.findTask(t.task);
            if (!info)
                continue;
            semantic::Suggestion s = semantic::suggestPartition(t, *info, result.target->machine, *sizes);
            answered = answered && s.problem.empty();
            std::cout << semantic::printSuggestion(s);
        }
        if (!found)
            return usageError("plan", "the program has no task `" + *only + "`");
        return answered ? kExitOk : kExitUserError; // "no suggestion" says what to give
    }
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
