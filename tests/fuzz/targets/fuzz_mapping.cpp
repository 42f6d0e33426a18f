// libFuzzer target `mapping`: mapping files (pcubes/mapping_parser, mapping_validator) on
// arbitrary text, against the test machine and the spaces of the example programs.
//
// The example programs are parsed once; a mapping is validated against the first example that
// has a task of the same name as one the mapping maps (the examples' .map files are the seeds),
// otherwise against all examples' tasks at once with no executed task. Validation either returns
// one TaskMapping per mapped task, with every space of the task on a PPS of the machine, or
// reports an error diagnostic.
#include "frontend/parser.h"
#include "pcubes/mapping.h"
#include "pcubes/program_spaces_from_ast.h"
#include "tests/fuzz/targets/fuzz_support.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

using namespace itc;

namespace {

// The spaces and executed tasks of every examples/*/*.it, and all their tasks together.
struct ExampleSpaces {
    std::vector<pcubes::ProgramSpaces> programs;
    pcubes::ProgramSpaces all;
};

const ExampleSpaces& exampleSpaces() {
    static const ExampleSpaces examples = [] {
        ExampleSpaces out;
        std::vector<std::filesystem::path> files; // sorted: the same choice on every run
        for (const auto& f : std::filesystem::recursive_directory_iterator(ITC_SOURCE_DIR "/examples"))
            if (f.path().extension() == ".it")
                files.push_back(f.path());
        std::sort(files.begin(), files.end());
        for (const auto& path : files) {
            SourceManager sources;
            DiagnosticEngine diags(sources);
            std::string reason;
            auto file = sources.loadFile(path.string(), reason);
            if (!file)
                fuzz::bug("cannot read " + path.string());
            auto program = parseProgram(*file, sources, diags);
            if (diags.hasErrors())
                fuzz::bug("example does not parse: " + path.string());
            out.programs.push_back(pcubes::programSpacesFromAst(*program));
            for (const auto& t : out.programs.back().tasks)
                out.all.tasks.push_back(t);
        }
        if (out.programs.empty())
            fuzz::bug("no example programs under " ITC_SOURCE_DIR "/examples");
        return out;
    }();
    return examples;
}

const pcubes::ProgramSpaces& spacesFor(const pcubes::MappingFile& mapping) {
    const ExampleSpaces& ex = exampleSpaces();
    for (const auto& program : ex.programs)
        for (const auto& task : mapping.tasks)
            if (program.task(task.name))
                return program;
    return ex.all;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const pcubes::MachineModel& machine = fuzz::testMachine();
    SourceManager sources;
    DiagnosticEngine diags(sources);
    FileId file = sources.addBuffer("fuzz.map", std::string(reinterpret_cast<const char*>(data), size));
    auto mapping = pcubes::parseMapping(file, sources, diags);
    fuzz::checkDiagnostics(diags, mapping.has_value(), "mapping parser");
    if (!mapping)
        return 0;
    mapping->path = "fuzz.map";
    const pcubes::ProgramSpaces& spaces = spacesFor(*mapping);
    auto checked = pcubes::validateMapping(*mapping, spaces, machine, diags);
    fuzz::checkDiagnostics(diags, checked.has_value(), "mapping validator");
    if (!checked)
        return 0;
    for (const pcubes::TaskMapping& tm : *checked) {
        const auto* task = spaces.task(tm.task);
        if (!task)
            fuzz::bug("a validated mapping names task `" + tm.task + "`, which the program lacks");
        for (const auto& space : task->spaces) {
            auto it = tm.spaces.find(space.name);
            if (it == tm.spaces.end())
                fuzz::bug("space `" + space.name + "` of task `" + tm.task + "` is not mapped");
            if (!machine.level(it->second))
                fuzz::bug("space `" + space.name + "` is mapped to a PPS the machine lacks");
        }
        if (!machine.level(tm.root))
            fuzz::bug("Root of task `" + tm.task + "` is mapped to a PPS the machine lacks");
    }
    return 0;
}
