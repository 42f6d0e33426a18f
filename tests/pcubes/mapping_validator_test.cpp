// The mapping validator on hand-built ProgramSpaces (so it is tested without the IT parser):
// every rule of it-language.md §11.2, with the exact text the user sees.
#include "pcubes/machine_parser.h"
#include "pcubes/mapping.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace itc;
using namespace itc::pcubes;

namespace {

// A program text, only so that notes pointing into the program have lines to show.
const char* kProgram = R"(Task "Vector Add":
	Partition:
		Space A <1d> { a: block_count(p) }
		Space B <1d> divides Space A partitions { a: block_size(q) }
Task "LU":
	Partition:
		Space A <un-partitioned> { a }
		Space B <1d> divides Space A sub-partitions { a: block_size(1) }
		Space C <1d> { b: block_count(p) }
Task "Unused":
	Partition:
		Space A <1d> { a: block_count(p) }
Program (args) {
	execute(task: "Vector Add")
	execute(task: "LU")
	execute(task: "LU")
}
)";

class MappingTest : public ::testing::Test {
protected:
    void SetUp() override {
        program_ = sources_.addBuffer("prog.it", kProgram);
        FileId m = sources_.addBuffer("cluster.pcubes", "Space 3: Cluster (1)\n"
                                                        "Space 2<unit><segment>: Node (4)\n"
                                                        "Space 1<core>: Core (2)\n");
        machine_ = *parseMachine(m, sources_, diags_);
        auto task = [&](const std::string& name, int occurrence) {
            ProgramSpaces::Task t;
            t.name = name;
            t.declared = find("\"" + name + "\"", occurrence);
            return t;
        };
        auto space = [&](const std::string& name, std::optional<std::string> parent, bool sub, int occurrence) {
            ProgramSpaces::Space s;
            s.name = name;
            s.parent = std::move(parent);
            s.viaSubpartitions = sub;
            s.declared = find("Space " + name + " <", occurrence);
            return s;
        };
        ProgramSpaces::Task va = task("Vector Add", 0);
        va.spaces = {space("A", {}, false, 0), space("B", "A", false, 0)};
        ProgramSpaces::Task lu = task("LU", 0);
        lu.spaces = {space("A", {}, false, 1), space("B", "A", true, 1), space("C", {}, false, 0)};
        ProgramSpaces::Task unused = task("Unused", 0);
        unused.spaces = {space("A", {}, false, 2)};
        spaces_.tasks = {va, lu, unused};
        spaces_.executed = {{"Vector Add", find("execute(task: \"Vector Add\")", 0)},
                            {"LU", find("execute(task: \"LU\")", 0)},
                            {"LU", find("execute(task: \"LU\")", 1)}};
    }

    // The range of the `occurrence`-th `needle` in the program text.
    SourceRange find(const std::string& needle, int occurrence) {
        std::string text = kProgram;
        std::size_t at = text.find(needle);
        for (int i = 0; i < occurrence; ++i)
            at = text.find(needle, at + 1);
        EXPECT_NE(at, std::string::npos) << needle;
        std::uint32_t line = 1, col = 1;
        for (std::size_t i = 0; i < at; ++i) {
            if (text[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        return {{program_, line, col}, {program_, line, col + std::uint32_t(needle.size()) - 1}};
    }

    // Checks `mappingText`; returns the rendered diagnostics ("" when it is valid).
    std::string check(const std::string& mappingText) {
        FileId f = sources_.addBuffer("prog.map", mappingText);
        auto mapping = parseMapping(f, sources_, diags_);
        if (mapping)
            result_ = validateMapping(*mapping, spaces_, machine_, diags_);
        std::ostringstream out;
        diags_.print(out);
        return out.str();
    }

    const char* kGood = "\"Vector Add\" { Space A: 2  Space B: 1 }\n"
                        "\"LU\" { Space Root: 2  Space A: 2  Space B: 1  Space C: 1 }\n";

    SourceManager sources_;
    DiagnosticEngine diags_{sources_};
    FileId program_ = kNoFile;
    MachineModel machine_;
    ProgramSpaces spaces_;
    std::optional<std::vector<TaskMapping>> result_;
};

} // namespace

TEST_F(MappingTest, ValidMappingResolvesEverySpaceAndDefaultsRootToTheTop) {
    EXPECT_EQ(check(kGood), "");
    ASSERT_TRUE(result_);
    ASSERT_EQ(result_->size(), 2u);
    EXPECT_EQ((*result_)[0].task, "Vector Add");
    EXPECT_EQ((*result_)[0].root, 3);
    EXPECT_EQ((*result_)[0].spaces, (std::map<std::string, int>{{"A", 2}, {"B", 1}}));
    EXPECT_EQ((*result_)[1].root, 2);
    EXPECT_EQ((*result_)[1].spaces.at("C"), 1);
}

TEST_F(MappingTest, SameLevelForAncestorAndDescendantIsAllowed) {
    EXPECT_EQ(check("\"Vector Add\" { Space A: 1 Space B: 1 }\n"
                    "\"LU\" { Space Root: 1 Space A: 1 Space B: 1 Space C: 1 }"),
              "");
}

TEST_F(MappingTest, UnknownTask) {
    EXPECT_EQ(check(std::string(kGood) + "\"Vector Ad\" { Space A: 1 }\n"),
              "prog.map:3:1: error: the program has no task named `Vector Ad`; did you mean "
              "`Vector Add`? [MappingUnknownTask]\n"
              "    \"Vector Ad\" { Space A: 1 }\n"
              "    ^~~~~~~~~~~\n");
}

// Nothing near: the task names are listed instead of a guess.
TEST_F(MappingTest, UnknownTaskNothingNear) {
    EXPECT_EQ(check(std::string(kGood) + "\"Stencil\" { Space A: 1 }\n"),
              "prog.map:3:1: error: the program has no task named `Stencil`; its tasks are "
              "`Vector Add`, `LU` and `Unused` [MappingUnknownTask]\n"
              "    \"Stencil\" { Space A: 1 }\n"
              "    ^~~~~~~~~\n");
}

TEST_F(MappingTest, UnknownSpace) {
    EXPECT_EQ(check("\"Vector Add\" { Space A: 2  Space B: 1  Space D: 1 }\n"
                    "\"LU\" { Space A: 2  Space B: 1  Space C: 1 }\n"),
              "prog.map:1:46: error: task `Vector Add` has no space `D`; it declares `A` and `B` "
              "[MappingUnknownSpace]\n"
              "    \"Vector Add\" { Space A: 2  Space B: 1  Space D: 1 }\n"
              "                                                 ^\n"
              "prog.it:1:6: note: task `Vector Add` declared here\n"
              "    Task \"Vector Add\":\n"
              "         ^~~~~~~~~~~~\n");
}

TEST_F(MappingTest, EverySpaceMustBeMapped) {
    EXPECT_EQ(check("\"Vector Add\" { Space A: 2 }\n"
                    "\"LU\" { Space A: 2  Space B: 1  Space C: 1 }\n"),
              "prog.map:1:1: error: space `B` of task `Vector Add` is not mapped; add `Space B: N` "
              "(every space of a task must be mapped) [MappingSpaceUnmapped]\n"
              "    \"Vector Add\" { Space A: 2 }\n"
              "    ^~~~~~~~~~~~\n"
              "prog.it:4:3: note: space `B` declared here\n"
              "      Space B <1d> divides Space A partitions { a: block_size(q) }\n"
              "      ^~~~~~~~~\n");
}

TEST_F(MappingTest, EveryExecutedTaskMustBeMapped) {
    EXPECT_EQ(check("\"Vector Add\" { Space A: 2  Space B: 1 }\n"),
              "prog.it:15:2: error: task `LU` is executed but `prog.map` does not map it; add "
              "`\"LU\" { Space A: N Space B: N Space C: N }` with a PPS number for each space [MappingTaskUnmapped]\n"
              "     execute(task: \"LU\")\n"
              "     ^~~~~~~~~~~~~~~~~~~\n"
              "prog.it:5:6: note: task `LU` declared here\n"
              "    Task \"LU\":\n"
              "         ^~~~\n");
}

TEST_F(MappingTest, DescendantAboveItsParent) {
    EXPECT_EQ(check("\"Vector Add\" { Space A: 1  Space B: 2 }\n"
                    "\"LU\" { Space A: 2  Space B: 1  Space C: 1 }\n"),
              "prog.map:1:37: error: space `B` is mapped to PPS 2, above PPS 1 of its ancestor "
              "space `A`; a space must map at or below its ancestors, so use 1 or lower "
              "[MappingOrderViolation]\n"
              "    \"Vector Add\" { Space A: 1  Space B: 2 }\n"
              "                                        ^\n"
              "prog.map:1:16: note: `A` mapped here\n"
              "    \"Vector Add\" { Space A: 1  Space B: 2 }\n"
              "                   ^~~~~~~~~~\n"
              "prog.it:4:3: note: `B` divides `A` here\n"
              "      Space B <1d> divides Space A partitions { a: block_size(q) }\n"
              "      ^~~~~~~~~\n");
}

TEST_F(MappingTest, SubPartitionParentCountsAsAncestor) {
    std::string out = check("\"Vector Add\" { Space A: 2  Space B: 1 }\n"
                            "\"LU\" { Space A: 1  Space B: 3  Space C: 1 }\n");
    EXPECT_NE(out.find("prog.map:2:29: error: space `B` is mapped to PPS 3, above PPS 1 of its "
                       "ancestor space `A`"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("note: `B` divides the sub-partitions of `A` here"), std::string::npos) << out;
    EXPECT_EQ(diags_.errorCount(), 1u);
}

TEST_F(MappingTest, RootConfinement) {
    EXPECT_EQ(check("\"Vector Add\" { Space Root: 1  Space A: 2  Space B: 1 }\n"
                    "\"LU\" { Space A: 2  Space B: 1  Space C: 1 }\n"),
              "prog.map:1:40: error: space `A` is mapped to PPS 2, above PPS 1 that `Space Root` "
              "confines task `Vector Add` to; map it to 1 or lower [MappingRootConfinement]\n"
              "    \"Vector Add\" { Space Root: 1  Space A: 2  Space B: 1 }\n"
              "                                           ^\n"
              "prog.map:1:16: note: `Space Root` mapped here\n"
              "    \"Vector Add\" { Space Root: 1  Space A: 2  Space B: 1 }\n"
              "                   ^~~~~~~~~~~~~\n");
}

TEST_F(MappingTest, MachineLevelChecksComeFirst) {
    std::string out = check("\"Vector Add\" { Space A: 7  Space B: 1 }\n"
                            "\"Vector Add\" { Space A: 1  Space B: 1 }\n");
    EXPECT_NE(out.find("prog.map:1:25: error: the machine has no PPS 7; its levels are numbered 1 "
                       "(Core) to 3 (Cluster) [MappingUnknownPPS]"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("prog.map:2:1: error: task `Vector Add` is mapped twice; merge the two "
                       "mappings into one [MappingDuplicateTask]"),
              std::string::npos)
        << out;
    EXPECT_FALSE(result_);
}

// A wrong PPS number does not hide the file's other mistakes; the order of that task's levels,
// which compares PPS numbers, is checked once they exist.
TEST_F(MappingTest, EveryMistakeInOneRun) {
    std::string out = check("\"Vector Add\" { Space A: 7  Space D: 3 }\n"
                            "\"LU\" { Space A: 2  Space B: 1  Space C: 1 }\n"
                            "\"Stencil\" { Space A: 1 }\n");
    EXPECT_NE(out.find("[MappingUnknownPPS]"), std::string::npos) << out;
    EXPECT_NE(out.find("task `Vector Add` has no space `D`"), std::string::npos) << out;
    EXPECT_NE(out.find("space `B` of task `Vector Add` is not mapped"), std::string::npos) << out;
    EXPECT_NE(out.find("the program has no task named `Stencil`"), std::string::npos) << out;
    EXPECT_EQ(out.find("[MappingOrderViolation]"), std::string::npos) << out;
    EXPECT_EQ(diags_.errorCount(), 4u);
    EXPECT_FALSE(result_);
}

TEST_F(MappingTest, DuplicateSpace) {
    std::string out = check("\"Vector Add\" { Space A: 2  Space B: 1  Space A: 1 }\n");
    EXPECT_NE(out.find("prog.map:1:46: error: space `A` of task `Vector Add` is mapped twice; "
                       "keep one mapping [MappingDuplicateSpace]"),
              std::string::npos)
        << out;
}

TEST_F(MappingTest, NoProgramTasks) {
    spaces_ = {};
    EXPECT_EQ(check("\"T\" { Space A: 1 }"),
              "prog.map:1:1: error: the program has no task named `T`; it defines no task "
              "[MappingUnknownTask]\n"
              "    \"T\" { Space A: 1 }\n"
              "    ^~~\n");
}
