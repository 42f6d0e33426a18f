// Machine files: parse -> print -> parse round trips for every model in pcubes-models/, exact
// canonical printing, property values, and the model's derived numbers.
#include "tests/support/read_file.h"
#include "pcubes/machine_parser.h"
#include "pcubes/machine_printer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace itc;
using namespace itc::pcubes;

namespace {

using itc::test::readFile;

struct Parsed {
    std::optional<MachineModel> model;
    std::string diagnostics;
};

Parsed parseText(const std::string& text, const std::string& name = "m.pcubes") {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    FileId file = sources.addBuffer(name, text);
    Parsed p;
    p.model = parseMachine(file, sources, diags);
    std::ostringstream out;
    diags.print(out);
    p.diagnostics = out.str();
    return p;
}

std::vector<std::string> modelFiles() {
    std::vector<std::string> files;
    for (auto& e : std::filesystem::directory_iterator(ITC_SOURCE_DIR "/pcubes-models"))
        if (e.path().extension() == ".pcubes")
            files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST(MachineFile, EveryModelRoundTrips) {
    auto files = modelFiles();
    ASSERT_GE(files.size(), 4u);
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        Parsed first = parseText(readFile(path), path);
        ASSERT_TRUE(first.model) << first.diagnostics;
        std::string printed = printMachine(*first.model);
        Parsed second = parseText(printed);
        ASSERT_TRUE(second.model) << second.diagnostics;
        EXPECT_EQ(*first.model, *second.model);
        EXPECT_EQ(printMachine(*second.model), printed); // canonical text is a fixed point
    }
}

TEST(MachineFile, TestCluster4IsCanonicalAndExact) {
    const std::string path = ITC_SOURCE_DIR "/pcubes-models/test-cluster-4.pcubes";
    const std::string text = readFile(path);
    EXPECT_EQ(text, "Space 3: Cluster (1)\n"
                    "Space 2<unit><segment>: Node (4)\n"
                    "Space 1<core>: Core (2)\n");
    Parsed p = parseText(text);
    ASSERT_TRUE(p.model) << p.diagnostics;
    EXPECT_EQ(printMachine(*p.model), text);
    const MachineModel& m = *p.model;
    EXPECT_EQ(m.levelCount(), 3);
    EXPECT_EQ(m.segmentLevel(), 2);
    EXPECT_EQ(m.unitLevel(), 2);
    EXPECT_EQ(m.coreLevel(), 1);
    EXPECT_EQ(m.segmentCount(), 4u);
    EXPECT_EQ(m.level(1)->totalPPUs, 8u);
    EXPECT_EQ(m.ppusWithin(1, 2), 2u);
    EXPECT_EQ(m.level(3)->name, "Cluster");
    EXPECT_EQ(m.level(4), nullptr);
    EXPECT_EQ(m.level(0), nullptr);
}

TEST(MachineFile, HermesHasThePapersShape) {
    Parsed p = parseText(readFile(ITC_SOURCE_DIR "/pcubes-models/hermes.pcubes"));
    ASSERT_TRUE(p.model) << p.diagnostics;
    const MachineModel& m = *p.model;
    EXPECT_EQ(m.levelCount(), 6);
    EXPECT_EQ(m.level(1)->totalPPUs, 256u); // 4 nodes x 64 cores
    EXPECT_EQ(m.level(3)->totalPPUs, 32u);  // the paper's 32 Space-3 PPUs
    EXPECT_EQ(m.ppusWithin(1, 5), 64u);     // Listing 9: one node, parallelism 64
    EXPECT_EQ(m.segmentCount(), 4u);
    EXPECT_EQ(m.level(4)->property(PropertyId::Memory), 64ull << 30);
    EXPECT_EQ(m.level(1)->property(PropertyId::Cache), 16ull << 10);
}

TEST(MachineFile, WhitespaceAndCommentsAreFree) {
    Parsed p = parseText("// header\n  Space   2 < unit > <segment>:Node(1)// c\n"
                         "Space 1\n<core>\n: Core-Pair/2 ( 2 ) { memory : 1 GiB , }\n");
    ASSERT_TRUE(p.model) << p.diagnostics;
    EXPECT_EQ(printMachine(*p.model), "Space 2<unit><segment>: Node (1)\n"
                                      "Space 1<core>: Core-Pair/2 (2) { memory: 1GiB }\n");
}

TEST(MachineFile, OldMlFilesWithoutExtensionsParse) {
    // The paper-era format: no properties, no Processors, capacities in comments.
    Parsed p = parseText("Space 5: Rack (1)\n"
                         "Space 4<unit><segment>: Server (8)        // 256 GB each\n"
                         "Space 3: Socket (2)\n"
                         "Space 2: L3-Domain (4)                     // 8 MB shared L3\n"
                         "Space 1<core>: Core (6)\n",
                         "fictitious.ml");
    ASSERT_TRUE(p.model) << p.diagnostics;
    EXPECT_EQ(p.model->level(1)->totalPPUs, 384u);
    EXPECT_TRUE(p.model->processors.empty());
}

TEST(MachineFile, PropertiesPrintInTheLargestExactUnit) {
    Parsed p = parseText("Space 1<core>: Core (1) { transfer-latency: 1500ns, transaction-latency: "
                         "2000us, transfer-width: 1024KiB, memory: 1536MiB, flops: 8, simd: 16, "
                         "transaction-width: 64, cache: 3s }\n");
    EXPECT_FALSE(p.model);
    EXPECT_NE(p.diagnostics.find("[MachineBadPropertyValue]"), std::string::npos);
    p = parseText("Space 1<core>: Core (1) { transfer-latency: 1500ns, transaction-latency: "
                  "2000us, transfer-width: 1024KiB, memory: 1536MiB, flops: 8, simd: 16, "
                  "transaction-width: 64 }\n");
    ASSERT_TRUE(p.model) << p.diagnostics;
    EXPECT_EQ(printMachine(*p.model),
              "Space 1<core>: Core (1) { memory: 1536MiB, flops: 8, simd: 16, transaction-width: "
              "64B, transaction-latency: 2ms, transfer-width: 1MiB, transfer-latency: 1500ns }\n");
}

TEST(MachineFile, ProcessorRangesPrintCompactly) {
    EXPECT_EQ(formatProcessorList({0, 1, 2, 3, 8, 10, 11}), "0-3, 8, 10-11");
    EXPECT_EQ(formatProcessorList({0, 4, 1, 5}), "0, 4, 1, 5");
    EXPECT_EQ(formatProcessorList({}), "");
    Parsed p = parseText("Space 2<unit>: Node (1)\nSpace 1<core>: PU (6)\nProcessors: 5, 0-3, 7\n");
    ASSERT_TRUE(p.model) << p.diagnostics;
    EXPECT_EQ(p.model->processors, (std::vector<std::uint32_t>{5, 0, 1, 2, 3, 7}));
    EXPECT_EQ(p.model->osProcessor(0), 5u);
    EXPECT_EQ(p.model->osProcessor(5), 7u);
}

TEST(MachineFile, ProcessorNumberingRepeatsPerUnit) {
    Parsed p = parseText("Space 3: Cluster (1)\nSpace 2<unit><segment>: Node (2)\n"
                         "Space 1<core>: PU (4)\nProcessors: 0, 2, 1, 3\n");
    ASSERT_TRUE(p.model) << p.diagnostics;
    EXPECT_EQ(p.model->osProcessor(1), 2u); // node 0, second PU
    EXPECT_EQ(p.model->osProcessor(5), 2u); // node 1, second PU
    p = parseText("Space 1<core>: PU (1)\n");
    ASSERT_TRUE(p.model) << p.diagnostics;
    EXPECT_EQ(p.model->osProcessor(0), std::nullopt);
}

TEST(MachineFile, OneMistakeGivesOneMessage) {
    Parsed p = parseText("Space 2: Node (1)\nSpace 1<core>: Core Pair (2)\nSpace 0: X ()\n");
    EXPECT_FALSE(p.model);
    EXPECT_EQ(p.diagnostics, "m.pcubes:2:21: error: a level name cannot contain whitespace: found `Pair` after "
                             "it; join the words, e.g. `Core-Pair` [MachineSyntax]\n"
                             "    Space 1<core>: Core Pair (2)\n"
                             "                        ^~~~\n");
}

TEST(MachineFile, ValidateHandBuiltModel) {
    MachineModel m;
    Level a;
    a.number = 2;
    a.name = "Node";
    Level b;
    b.number = 1;
    b.name = "Core";
    b.fanOut = 4;
    b.core = true;
    m.levels = {a, b};
    SourceManager sources;
    DiagnosticEngine diags(sources);
    EXPECT_TRUE(validateMachine(m, kNoFile, diags));
    EXPECT_EQ(m.level(1)->totalPPUs, 4u);
    m.levels[1].core = false;
    EXPECT_FALSE(validateMachine(m, kNoFile, diags));
    ASSERT_EQ(diags.diagnostics().size(), 1u);
    EXPECT_EQ(diags.diagnostics()[0].kind, DiagKind::MachineNoCore);
}
