// Bad input never crashes or throws: thousands of mutated machine and mapping files (fixed seed)
// each give either a valid result with no error, or at least one error; syntax errors exactly one.
#include "tests/support/read_file.h"
#include "pcubes/machine_parser.h"
#include "pcubes/mapping.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

using namespace itc;
using namespace itc::pcubes;

namespace {

using itc::test::readFile;

// Deletes, inserts or replaces a few characters, drawn from the format's own alphabet.
std::string mutate(std::string text, std::mt19937& rng) {
    static const std::string alphabet = "Space<>:(){},/-0123456789 \n\"ABRootcoreunitsegment";
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < edits && !text.empty(); ++i) {
        std::size_t at = rng() % text.size();
        char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
        case 0: text.erase(at, 1 + rng() % 4); break;
        case 1: text.insert(at, 1, c); break;
        default: text[at] = c; break;
        }
    }
    return text;
}

int countKind(const DiagnosticEngine& diags, DiagKind kind) {
    int n = 0;
    for (const Diagnostic& d : diags.diagnostics())
        n += d.kind == kind;
    return n;
}

} // namespace

TEST(Robustness, MutatedMachineFiles) {
    const unsigned seed = 20261122;
    std::mt19937 rng(seed);
    std::vector<std::string> bases = {readFile(ITC_SOURCE_DIR "/pcubes-models/hermes.pcubes"),
                                      readFile(ITC_SOURCE_DIR "/pcubes-models/workstation-2socket.pcubes"),
                                      readFile(ITC_SOURCE_DIR "/pcubes-models/laptop.pcubes")};
    for (int i = 0; i < 3000; ++i) {
        std::string text = mutate(bases[i % bases.size()], rng);
        SourceManager sources;
        DiagnosticEngine diags(sources);
        FileId f = sources.addBuffer("m.pcubes", text);
        std::optional<MachineModel> model;
        ASSERT_NO_THROW(model = parseMachine(f, sources, diags)) << "seed " << seed << "\n" << text;
        EXPECT_EQ(model.has_value(), !diags.hasErrors()) << "seed " << seed << "\n" << text;
        EXPECT_LE(countKind(diags, DiagKind::MachineSyntax), 1) << "seed " << seed << "\n" << text;
        std::ostringstream out;
        diags.print(out);
        EXPECT_EQ(out.str().find("mismatched input"), std::string::npos) << out.str();
        EXPECT_EQ(out.str().find("extraneous input"), std::string::npos) << out.str();
    }
}

TEST(Robustness, MutatedMappingFiles) {
    const unsigned seed = 7;
    std::mt19937 rng(seed);
    SourceManager msources;
    DiagnosticEngine mdiags(msources);
    FileId mf = msources.addBuffer("m.pcubes", readFile(ITC_SOURCE_DIR "/pcubes-models/hermes.pcubes"));
    MachineModel machine = *parseMachine(mf, msources, mdiags);
    ProgramSpaces program;
    ProgramSpaces::Task t;
    t.name = "Block_Matrix_Multiply";
    t.spaces = {{"A", std::nullopt, false, {}}, {"B", "A", true, {}}};
    program.tasks = {t};
    program.executed = {{"Block_Matrix_Multiply", {}}};
    const std::string base = "\"Block_Matrix_Multiply\" {\n    Space Root: 5   // node\n"
                             "    Space A: 2\n    Space B: 1      // Core\n}\n";
    for (int i = 0; i < 3000; ++i) {
        std::string text = mutate(base, rng);
        SourceManager sources;
        DiagnosticEngine diags(sources);
        FileId f = sources.addBuffer("p.map", text);
        std::optional<std::vector<TaskMapping>> result;
        ASSERT_NO_THROW({
            auto mapping = parseMapping(f, sources, diags);
            if (mapping)
                result = validateMapping(*mapping, program, machine, diags);
        }) << "seed "
           << seed << "\n"
           << text;
        EXPECT_EQ(result.has_value(), !diags.hasErrors()) << "seed " << seed << "\n" << text;
        EXPECT_LE(countKind(diags, DiagKind::MappingSyntax), 1) << "seed " << seed << "\n" << text;
    }
}
