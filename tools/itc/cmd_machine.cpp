// `itc machine`: writes this machine's PCubeS description (hwloc), or checks / reprints a
// machine file, optionally with a mapping file checked against it (PPS numbers, duplicates).
#include "pcubes/hwloc_discovery.h"
#include "pcubes/machine_parser.h"
#include "pcubes/machine_printer.h"
#include "pcubes/mapping.h"
#include "tools/itc/command.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <tuple>

using namespace itc;
using namespace itc::driver;

namespace {

constexpr const char* kUsage =
    R"(usage: itc machine [-o FILE] [--nodes N] [--segments N] [--from-xml FILE | --synthetic SPEC] [--fixed-header]
       itc machine --check FILE.pcubes [--mapping FILE.map]
       itc machine --print FILE.pcubes [-o FILE]

Writes a PCubeS description (see the guide: PCubeS machine files; docs/pcubes.md) of this machine, found with
hwloc, to FILE or stdout. Only the processors this process is allowed to use are described.
  -o FILE           write to FILE instead of stdout
  --nodes N         describe a cluster of N such nodes: a `Cluster` level above the node, which
                    carries <unit><segment> (one MPI process per node)
  --segments N      split each node into N MPI segments that share its memory and cores (for
                    `mpirun -np N` on this one machine: N processes, no core used twice); N
                    must divide the parts of the level below the node
  --from-xml FILE   describe the topology in an hwloc XML export (`lstopo --of xml`)
  --synthetic SPEC  describe an hwloc synthetic topology, e.g. "pack:2 core:4 pu:2"
  --fixed-header    deterministic header (no host, date or versions); also when the
                    environment variable ITC_MACHINE_FIXED_HEADER=1 is set
  --check FILE      check a machine file; prints a one-line summary
  --mapping FILE    with --check: check a mapping file's PPS numbers and duplicates against it
                    (names and the partial order need the program: `itc check`)
  --print FILE      check a machine file and print it in canonical form
Exit status: 0 ok, 1 bad input (diagnostics on stderr), 2 bad command line.
)";

// A count given on the command line: digits only, from 1 to `max`.
std::optional<unsigned long long> wholeCount(const std::string& text, unsigned long long max) {
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || v == 0 || v > max || text[0] == '-')
        return std::nullopt;
    return v;
}

int writeOutput(const std::string& text, const std::optional<std::string>& path) {
    if (!path) {
        std::cout << text;
        return kExitOk;
    }
    // A machine description is not a program or a mapping: writing over one loses the user's work.
    const std::string ext = std::filesystem::path(*path).extension().string();
    if (ext == ".it" || ext == ".map") {
        std::cerr << "itc machine: will not write the machine description to `" << *path << "`, which by its `" << ext
                  << "` names " << (ext == ".it" ? "an IT program" : "a mapping file")
                  << "; write it to a `.pcubes` file\n";
        return kExitUserError;
    }
    std::ofstream out(*path);
    out << text;
    out.close();
    if (!out) {
        std::cerr << "itc machine: cannot write `" << *path << "`: " << std::strerror(errno) << "\n";
        return kExitUserError;
    }
    return kExitOk;
}

std::string summarize(const pcubes::MachineModel& m) {
    const pcubes::Level* core = m.level(*m.coreLevel());
    return fmt::format("{} {}, {} {}, {} {} PPUs", m.levelCount(), m.levelCount() == 1 ? "level" : "levels",
                       m.segmentCount(), m.segmentCount() == 1 ? "segment" : "segments", core->totalPPUs, core->name);
}

int checkOrPrint(const CommandLine& cl) {
    bool print = cl.has("--print");
    std::string path = *cl.value(print ? "--print" : "--check");
    SourceManager sources;
    DiagnosticEngine diags(sources);
    auto model = pcubes::loadMachine(path, sources, diags);
    if (model && cl.has("--mapping")) {
        auto mapping = pcubes::loadMapping(*cl.value("--mapping"), sources, diags);
        if (mapping)
            pcubes::validateMappingAgainstMachine(*mapping, *model, diags);
    }
    diags.print(std::cerr);
    if (!model || diags.hasErrors())
        return kExitUserError;
    if (print)
        return writeOutput(pcubes::printMachine(*model), cl.value("-o"));
    std::cout << path << ": " << summarize(*model) << "\n";
    return kExitOk;
}

int run(const std::vector<std::string>& args) {
    CommandLine cl(args,
                   {"-o", "--nodes", "--segments", "--from-xml", "--synthetic", "--check", "--print", "--mapping"},
                   {"--fixed-header"});
    if (!cl.ok())
        return usageError("machine", cl.error());
    if (!cl.positionals().empty())
        return usageError("machine", "unexpected argument `" + cl.positionals().front() + "`");
    if (cl.has("--check") && cl.has("--print"))
        return usageError("machine", "give either `--check` or `--print`");
    if (cl.has("--mapping") && !cl.has("--check"))
        return usageError("machine", "`--mapping` goes with `--check FILE`");
    if (cl.has("--check") || cl.has("--print")) {
        for (const char* o : {"--nodes", "--segments", "--from-xml", "--synthetic", "--fixed-header"})
            if (cl.has(o))
                return usageError("machine", fmt::format("`{}` describes a machine with hwloc "
                                                         "and cannot go with --check/--print",
                                                         o));
        return checkOrPrint(cl);
    }
    pcubes::DiscoveryOptions options;
    if (cl.has("--from-xml") && cl.has("--synthetic"))
        return usageError("machine", "give either `--from-xml` or `--synthetic`, not both");
    options.xmlFile = cl.value("--from-xml");
    options.synthetic = cl.value("--synthetic");
    for (auto [option, what, max, into] : {std::tuple{"--nodes", "nodes", 1000000ull, &options.nodes},
                                           std::tuple{"--segments", "segments", 4096ull, &options.segments}}) {
        auto n = cl.value(option);
        if (!n)
            continue;
        std::optional<unsigned long long> v = wholeCount(*n, max);
        if (!v)
            return usageError(
                "machine", fmt::format("`{}` needs a whole number of {}, 1 to {}; found `{}`", option, what, max, *n));
        *into = *v;
    }
    const char* fixed = std::getenv("ITC_MACHINE_FIXED_HEADER");
    options.fixedHeader = cl.has("--fixed-header") || (fixed && std::string(fixed) == "1");
    std::string error;
    auto found = pcubes::discoverMachine(options, error);
    if (!found) {
        std::cerr << "itc machine: " << error << "\n";
        return kExitUserError;
    }
    for (const std::string& w : found->warnings)
        std::cerr << "itc machine: warning: " << w << "\n";
    return writeOutput(pcubes::printMachine(found->model, found->print), cl.value("-o"));
}

const ItcCommand command("machine", "describe this machine (hwloc) or check a PCubeS file", kUsage, run);

} // namespace
