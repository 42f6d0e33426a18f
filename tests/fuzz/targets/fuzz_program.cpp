// libFuzzer target `program`: IT source text through every phase of `itc compile` up to the C++
// text: parse, semantic checks, partition checks, a mapping onto the test machine, the task plan
// and the backend's emission (formatted C++; mpicxx is never run).
//
// The input is the program. The mapping is made up from the program's own spaces (so that every
// program that checks reaches the plan and the backend) and goes through the mapping parser and
// validator like a user's file; which of three placements it uses depends on the input length.
// Each phase runs only when the ones before found no error, as in tools/itc/cmd_compile.cpp. A
// phase may fail only with an error diagnostic or, for the backend, a refusal of its capability
// check; an exception (the emitters meeting what the check let through), an internal-error
// diagnostic, a crash or UB is a bug.
#include "backend/backend.h"
#include "backend/capability.h"
#include "frontend/parser.h"
#include "pcubes/mapping.h"
#include "pcubes/program_spaces_from_ast.h"
#include "semantic/plan/build_plan.h"
#include "semantic/semantic.h"
#include "tests/fuzz/targets/fuzz_support.h"

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <string>

using namespace itc;

namespace {

// How deep `space` sits below Root (1: divides Root).
int depthOf(const pcubes::ProgramSpaces::Task& task, const pcubes::ProgramSpaces::Space& space) {
    int depth = 1;
    const pcubes::ProgramSpaces::Space* s = &space;
    while (s->parent && depth < 64) {
        s = task.space(*s->parent);
        if (!s)
            break;
        ++depth;
    }
    return depth;
}

// A mapping file for every task of the program onto test-cluster-4 (levels 3 > 2 > 1). Placement
// 0: spaces dividing Root on the nodes, deeper ones on the cores; 1: every space on the cores;
// 2: every space on the one cluster PPU. Each respects the partial order (at or below the parent).
std::string madeUpMapping(const pcubes::ProgramSpaces& spaces, int placement) {
    std::string text;
    for (const auto& task : spaces.tasks) {
        if (task.name.find_first_of("\"\n") != std::string::npos)
            continue;
        text += fmt::format("\"{}\" {{\n", task.name);
        for (const auto& space : task.spaces) {
            int level = placement == 2 ? 3 : placement == 1 ? 1 : depthOf(task, space) == 1 ? 2 : 1;
            text += fmt::format("    Space {}: {}\n", space.name, level);
        }
        text += "}\n";
    }
    return text;
}

void compileToCpp(const std::string& source, int placement) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    FileId file = sources.addBuffer("fuzz.it", source);
    // 1. Syntax.
    std::unique_ptr<ast::Program> program = parseProgram(file, sources, diags);
    if (!program)
        fuzz::bug("parseProgram returned null");
    fuzz::checkDiagnostics(diags, true, "parse");
    if (diags.hasErrors())
        return;
    // 2. Names, types, task and flow rules; 3. the Partition sections.
    semantic::CheckedProgram checked;
    bool ok = semantic::checkProgram(*program, sources, diags, checked);
    fuzz::checkDiagnostics(diags, ok, "semantic check");
    if (!ok)
        return;
    ok = semantic::checkPartitions(*program, diags);
    fuzz::checkDiagnostics(diags, ok, "partition check");
    if (!ok)
        return;
    // 4. Machine model and mapping.
    const pcubes::MachineModel& machine = fuzz::testMachine();
    pcubes::ProgramSpaces spaces = pcubes::programSpacesFromAst(*program);
    FileId mapFile = sources.addBuffer("fuzz.map", madeUpMapping(spaces, placement));
    auto mapping = pcubes::parseMapping(mapFile, sources, diags);
    if (!mapping)
        return; // task or space names the mapping syntax cannot spell
    mapping->path = "fuzz.map";
    auto mappings = pcubes::validateMapping(*mapping, spaces, machine, diags);
    fuzz::checkDiagnostics(diags, mappings.has_value(), "mapping validation");
    if (!mappings)
        return;
    // 5. Task plans.
    semantic::PlanTarget target;
    target.machine = &machine;
    target.mappings = &*mappings;
    target.machineFile = "test-cluster-4.pcubes";
    semantic::ProgramPlan plan = semantic::buildProgramPlan(*program, target, diags);
    fuzz::checkDiagnostics(diags, true, "task plan");
    if (diags.hasErrors())
        return;
    // 6. C++ text.
    backend::BackendInput in;
    in.program = program.get();
    in.checked = &checked;
    in.plan = &plan;
    in.machine = &machine;
    in.sources = &sources;
    in.programFile = "fuzz.it";
    in.machineFile = "test-cluster-4.pcubes";
    const std::vector<backend::Refusal> refused = backend::untranslatedConstructs(in);
    for (const backend::Refusal& r : refused)
        if (r.construct.empty())
            fuzz::bug("a backend refusal without a construct");
    if (!refused.empty())
        return;
    std::string cpp = backend::emitProgram(in).cpp;
    if (cpp.find("int main(") == std::string::npos)
        fuzz::bug("the emitted C++ has no main()");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    compileToCpp(std::string(reinterpret_cast<const char*>(data), size), static_cast<int>(size % 3));
    return 0;
}
