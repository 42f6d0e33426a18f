// hwloc discovery: synthetic topologies and XML exports give exact descriptions; this machine's
// description parses and validates.
#include "pcubes/hwloc_discovery.h"
#include "pcubes/machine_parser.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace itc;
using namespace itc::pcubes;

namespace {

std::string describe(DiscoveryOptions options, std::vector<std::string>* warnings = nullptr) {
    options.fixedHeader = true;
    std::string error;
    auto d = discoverMachine(options, error);
    EXPECT_TRUE(d) << error;
    if (!d)
        return {};
    if (warnings)
        *warnings = d->warnings;
    // Without the header comment, which the golden tests check.
    PrintOptions print = d->print;
    print.header.clear();
    return printMachine(d->model, print);
}

DiscoveryOptions synthetic(const std::string& spec, std::uint64_t nodes = 0) {
    DiscoveryOptions o;
    o.synthetic = spec;
    o.nodes = nodes;
    return o;
}

// The printed text parses back into the same model.
void expectReparses(const DiscoveryOptions& options) {
    std::string error;
    auto d = discoverMachine(options, error);
    ASSERT_TRUE(d) << error;
    SourceManager sources;
    DiagnosticEngine diags(sources);
    FileId f = sources.addBuffer("found.pcubes", printMachine(d->model, d->print));
    auto parsed = parseMachine(f, sources, diags);
    std::ostringstream out;
    diags.print(out);
    ASSERT_TRUE(parsed) << out.str() << sources.text(f);
    EXPECT_EQ(*parsed, d->model);
}

} // namespace

TEST(Hwloc, TwoPackagesTwoNumaNodesEach) {
    EXPECT_EQ(describe(synthetic("pack:2 numa:2 l3:1 core:8 pu:2")),
              "Space 5<unit><segment>: Node (1)                  // hwloc: Machine\n"
              "Space 4: Package (2)                              // hwloc: Package\n"
              "Space 3: NUMA (2) { memory: 1GiB, cache: 16MiB }  // hwloc: L3 16MiB + 1 NUMA node 1GiB\n"
              "Space 2: Core (8)                                 // hwloc: Core\n"
              "Space 1<core>: PU (2)                             // hwloc: PU\n"
              "Processors: 0-63\n");
}

TEST(Hwloc, OnePackageOnePuPerCoreFolds) {
    EXPECT_EQ(describe(synthetic("pack:1 core:4 pu:1")),
              "Space 2<unit><segment>: Node (1) { memory: 1GiB }  // hwloc: Machine + Package + 1 NUMA node 1GiB\n"
              "Space 1<core>: Core (4)                            // hwloc: Core + PU\n"
              "Processors: 0-3\n");
}

TEST(Hwloc, NodesWrapTheNodeInACluster) {
    DiscoveryOptions o = synthetic("pack:1 core:4 pu:1", 4);
    EXPECT_EQ(describe(o),
              "Space 3: Cluster (1)                               // 4 identical nodes\n"
              "Space 2<unit><segment>: Node (4) { memory: 1GiB }  // hwloc: Machine + Package + 1 NUMA node 1GiB\n"
              "Space 1<core>: Core (4)                            // hwloc: Core + PU\n"
              "Processors: 0-3\n");
    std::string error;
    auto d = discoverMachine(o, error);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->summary, "4 nodes, 4 packages, 4 NUMA nodes, 16 cores, 16 PUs");
    EXPECT_EQ(d->model.segmentCount(), 4u);
}

TEST(Hwloc, SegmentsSplitTheNodeIntoProcessesSharingIt) {
    DiscoveryOptions o = synthetic("pack:1 core:4 pu:1");
    o.segments = 2;
    EXPECT_EQ(describe(o),
              "Space 3<unit>: Node (1) { memory: 1GiB }          // hwloc: Machine + Package + 1 NUMA node 1GiB\n"
              "Space 2<segment>: Segment (2) { memory: 512MiB }  // one MPI process each, sharing the node\n"
              "Space 1<core>: Core (2)                           // hwloc: Core + PU\n"
              "Processors: 0-3\n");
    std::string error;
    auto d = discoverMachine(o, error);
    ASSERT_TRUE(d) << error;
    EXPECT_EQ(d->model.segmentCount(), 2u);
    expectReparses(o);
    // with --nodes every node is split alike; one segment is the plain description
    o.nodes = 3;
    d = discoverMachine(o, error);
    ASSERT_TRUE(d) << error;
    EXPECT_EQ(d->model.segmentCount(), 6u);
    expectReparses(o);
    DiscoveryOptions one = synthetic("pack:1 core:4 pu:1");
    one.segments = 1;
    EXPECT_EQ(describe(one), describe(synthetic("pack:1 core:4 pu:1")));
    // a split that would give segments parts of a core is refused
    o.segments = 3;
    EXPECT_FALSE(discoverMachine(o, error));
    EXPECT_NE(error.find("3 segments"), std::string::npos) << error;
}

TEST(Hwloc, XmlExportKeepsOsNumbering) {
    DiscoveryOptions o;
    o.xmlFile = PCUBES_TESTDATA "/two-socket.xml";
    EXPECT_EQ(describe(o),
              "Space 4<unit><segment>: Node (1)                     // hwloc: Machine\n"
              "Space 3: Package (2) { memory: 1GiB, cache: 16MiB }  // hwloc: Package + 1 NUMA node 1GiB + L3 16MiB\n"
              "Space 2: Core (4) { cache: 4MiB }                    // hwloc: L2 4MiB + L1d 32KiB + Core\n"
              "Space 1<core>: PU (2)                                // hwloc: PU\n"
              "Processors: 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15\n");
}

TEST(Hwloc, OnlyTheAllowedCpusetCounts) {
    DiscoveryOptions o;
    o.xmlFile = PCUBES_TESTDATA "/two-socket-allowed.xml"; // core 3 of each package not allowed
    std::vector<std::string> warnings;
    std::string text = describe(o, &warnings);
    EXPECT_NE(text.find("Space 2: Core (3)"), std::string::npos) << text;
    EXPECT_NE(text.find("Processors: 0, 8, 1, 9, 2, 10, 4, 12, 5, 13, 6, 14\n"), std::string::npos);
    EXPECT_TRUE(warnings.empty());
}

TEST(Hwloc, UnevenTopologyIsTrimmedWithAWarning) {
    DiscoveryOptions o;
    o.xmlFile = PCUBES_TESTDATA "/two-socket-uneven.xml"; // package 0 has 2 allowed cores, 1 has 4
    std::vector<std::string> warnings;
    std::string text = describe(o, &warnings);
    EXPECT_NE(text.find("Space 2: Core (2)"), std::string::npos) << text;
    EXPECT_NE(text.find("Processors: 0, 8, 1, 9, 4, 12, 5, 13\n"), std::string::npos);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "the topology is not uniform; 8 of 12 PUs are described (the smallest "
                           "count at each level)");
}

TEST(Hwloc, DescriptionsParseBack) {
    expectReparses(synthetic("pack:2 numa:2 l3:1 core:8 pu:2"));
    expectReparses(synthetic("pack:1 core:4 pu:1", 3));
    expectReparses(synthetic("pack:2 l3:2 l2:2 l1d:1 core:1 pu:4"));
    DiscoveryOptions xml;
    xml.xmlFile = PCUBES_TESTDATA "/two-socket.xml";
    expectReparses(xml);
}

TEST(Hwloc, ThisMachineParsesAndValidates) {
    DiscoveryOptions o; // the real machine, real header
    expectReparses(o);
    o.nodes = 2;
    expectReparses(o);
}

TEST(Hwloc, BadSourcesAreUserErrors) {
    std::string error;
    EXPECT_FALSE(discoverMachine(synthetic("pack:2 frob:3"), error));
    EXPECT_NE(error.find("not a valid hwloc synthetic topology"), std::string::npos) << error;
    DiscoveryOptions o;
    o.xmlFile = "/nonexistent/topology.xml";
    EXPECT_FALSE(discoverMachine(o, error));
}
