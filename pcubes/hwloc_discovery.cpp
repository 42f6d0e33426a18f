// hwloc topology -> MachineModel. Steps: load (XML, synthetic or this system), restrict to the
// allowed cpuset, take the normal levels from the root down to the PUs with the smallest fan-out
// found at each level (trimming non-uniform parts, with a warning), fold chains of one-to-one
// levels, attach NUMA memory and cache sizes as properties, record the PUs' OS ids.
#include "pcubes/hwloc_discovery.h"

#include "itc_version.h"

#include <fmt/format.h>
#include <hwloc.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <memory>
#include <unistd.h>

namespace itc::pcubes {

std::string hwlocApiVersion() {
    unsigned v = hwloc_get_api_version();
    return fmt::format("{}.{}.{}", v >> 16, (v >> 8) & 0xff, v & 0xff);
}

} // namespace itc::pcubes

namespace itc::pcubes {
namespace {

struct TopologyDeleter {
    void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

std::uint64_t numaMemory(hwloc_obj_t obj, int& numaCount) {
    std::uint64_t total = 0;
    for (hwloc_obj_t m = obj->memory_first_child; m; m = m->next_sibling) {
        if (m->type == HWLOC_OBJ_NUMANODE) {
            total += m->attr->numanode.local_memory;
            ++numaCount;
        } else {
            total += numaMemory(m, numaCount); // memory-side caches hold NUMA nodes below them
        }
    }
    return total;
}

// Name priority when one-to-one levels fold into one: lower wins.
int namePriority(const std::string& name) {
    static const char* order[] = {"Machine", "Package", "NUMA", "Die", "Core", "PU", "Group"};
    for (int i = 0; i < 7; ++i)
        if (name == order[i])
            return i;
    return 7 + (name.size() > 1 && name[0] == 'L' ? '9' - name[1] : 0); // L3 before L2 before L1
}

std::string depthName(hwloc_obj_t obj, bool hasNuma) {
    switch (obj->type) {
    case HWLOC_OBJ_MACHINE: return "Machine";
    case HWLOC_OBJ_PACKAGE: return "Package";
    case HWLOC_OBJ_DIE: return hasNuma ? "NUMA" : "Die";
    case HWLOC_OBJ_CORE: return "Core";
    case HWLOC_OBJ_PU: return "PU";
    default: break;
    }
    if (hasNuma)
        return "NUMA";
    if (hwloc_obj_type_is_cache(obj->type))
        return fmt::format("L{}", obj->attr->cache.depth);
    return "Group";
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

// A rounded size for comments: `16MiB`, `4.6GiB`.
std::string sizeText(std::uint64_t bytes) {
    static constexpr std::string_view units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    std::size_t u = 0;
    while (v >= 1024 && u + 1 < std::size(units)) {
        v /= 1024;
        ++u;
    }
    if (v == static_cast<double>(static_cast<std::uint64_t>(v)))
        return fmt::format("{}{}", static_cast<std::uint64_t>(v), units[u]);
    return fmt::format("{:.1f}{}", v, units[u]);
}

// What hwloc calls the objects of a depth, for the level comments: `L3 16MiB`, `Core`.
std::string hwlocLabel(hwloc_obj_t obj) {
    char type[64];
    hwloc_obj_type_snprintf(type, sizeof type, obj, 0);
    std::string label = type;
    if (hwloc_obj_type_is_cache(obj->type))
        label += " " + sizeText(obj->attr->cache.size);
    return label;
}

// --segments N: one machine as N MPI processes that share it (for runs of several processes on
// one box). The node keeps <unit>; a `Segment` level of N parts below it carries <segment> and
// an Nth of the node's memory; the level below the node keeps the rest of its fan-out, which N
// must divide so every segment gets whole PPUs.
bool splitIntoSegments(MachineModel& model, PrintOptions& print, std::size_t nodeIndex, std::uint64_t segments,
                       std::string& error) {
    Level& node = model.levels[nodeIndex];
    if (segments == 1)
        return true; // the node is one segment already
    if (nodeIndex + 1 >= model.levels.size()) {
        error = fmt::format("cannot split a node of one processor into {} segments", segments);
        return false;
    }
    Level& below = model.levels[nodeIndex + 1];
    if (below.fanOut % segments != 0) {
        error = fmt::format("cannot split a node into {} segments: the level below it ({}) has {} "
                            "parts, which {} does not divide",
                            segments, below.name, below.fanOut, segments);
        return false;
    }
    below.fanOut /= segments;
    Level segment;
    segment.name = "Segment";
    segment.fanOut = segments;
    segment.segment = true;
    node.segment = false;
    const auto memory = std::size_t(PropertyId::Memory);
    // Whole MiB; a share below one MiB is left out (a size property is at least 1 byte).
    if (node.properties[memory] && *node.properties[memory] / segments >= (1 << 20))
        segment.properties[memory] = *node.properties[memory] / segments / (1 << 20) * (1 << 20);
    model.levels.insert(model.levels.begin() + static_cast<std::ptrdiff_t>(nodeIndex) + 1, segment);
    print.levelComments.insert(print.levelComments.begin() + static_cast<std::ptrdiff_t>(nodeIndex) + 1,
                               "one MPI process each, sharing the node");
    return true;
}

} // namespace

std::optional<Discovery> discoverMachine(const DiscoveryOptions& options, std::string& error) {
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0) {
        error = "hwloc could not be initialized";
        return std::nullopt;
    }
    Topology topo(raw);
    hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_icache_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(raw, HWLOC_OBJ_MISC, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(raw, HWLOC_OBJ_GROUP, HWLOC_TYPE_FILTER_KEEP_STRUCTURE);
    std::string source;
    if (options.xmlFile) {
        if (hwloc_topology_set_xml(raw, options.xmlFile->c_str()) != 0) {
            std::error_code ec;
            const bool there = std::filesystem::is_regular_file(*options.xmlFile, ec);
            error = fmt::format("cannot read the hwloc XML file `{}`: {}", *options.xmlFile,
                                there ? "hwloc does not take it as a topology (write one with "
                                        "`lstopo --of xml FILE`)"
                                      : "there is no such file");
            return std::nullopt;
        }
        source = fmt::format("hwloc XML file {}", *options.xmlFile);
    } else if (options.synthetic) {
        if (hwloc_topology_set_synthetic(raw, options.synthetic->c_str()) != 0) {
            error = fmt::format("`{}` is not a valid hwloc synthetic topology; write levels such "
                                "as `pack:2 core:4 pu:2`",
                                *options.synthetic);
            return std::nullopt;
        }
        source = fmt::format("synthetic topology \"{}\"", *options.synthetic);
    }
    if (hwloc_topology_load(raw) != 0) {
        error = options.xmlFile ? fmt::format("hwloc cannot load the XML file `{}`", *options.xmlFile)
                                : std::string("hwloc cannot load the topology of this machine");
        return std::nullopt;
    }
    Discovery result;
    // Only the processors this process may use count (cgroups, cpusets, XML allowed sets).
    hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(raw);
    hwloc_obj_t root = hwloc_get_root_obj(raw);
    if (!hwloc_bitmap_isincluded(root->cpuset, allowed)) {
        hwloc_bitmap_t keep = hwloc_bitmap_dup(allowed);
        hwloc_bitmap_and(keep, keep, root->cpuset);
        int pus = hwloc_bitmap_weight(root->cpuset) - hwloc_bitmap_weight(keep);
        if (hwloc_bitmap_iszero(keep) || hwloc_topology_restrict(raw, keep, HWLOC_RESTRICT_FLAG_REMOVE_CPULESS) != 0) {
            hwloc_bitmap_free(keep);
            error = "no processor of this machine is allowed for this process";
            return std::nullopt;
        }
        hwloc_bitmap_free(keep);
        result.print.header.push_back(
            fmt::format("{} not allowed for this process and left out", plural(pus, "PU is", "PUs are")));
        root = hwloc_get_root_obj(raw);
    }
    // Fan-out per normal depth: the smallest found under any object of the depth above.
    const int depths = hwloc_topology_get_depth(raw);
    std::vector<std::uint64_t> fanOut(depths, 1);
    for (int d = 1; d < depths; ++d) {
        std::uint64_t least = UINT64_MAX;
        for (unsigned i = 0; i < hwloc_get_nbobjs_by_depth(raw, d - 1); ++i) {
            hwloc_obj_t o = hwloc_get_obj_by_depth(raw, d - 1, i);
            least = std::min<std::uint64_t>(least, hwloc_get_nbobjs_inside_cpuset_by_depth(raw, o->cpuset, d));
        }
        if (least == 0 || least == UINT64_MAX) {
            error = "the hwloc topology has a level with no objects under some parent";
            return std::nullopt;
        }
        fanOut[d] = least;
    }
    // Selected objects per depth, parent-major (so the PUs come depth-first).
    std::vector<std::vector<hwloc_obj_t>> selected(depths);
    selected[0] = {root};
    for (int d = 1; d < depths; ++d)
        for (hwloc_obj_t parent : selected[d - 1])
            for (unsigned k = 0; k < fanOut[d]; ++k)
                selected[d].push_back(hwloc_get_obj_inside_cpuset_by_depth(raw, parent->cpuset, d, k));
    const std::size_t usedPUs = selected[depths - 1].size();
    const auto allPUs = static_cast<std::size_t>(hwloc_get_nbobjs_by_depth(raw, depths - 1));
    if (usedPUs != allPUs) {
        std::string w = fmt::format("the topology is not uniform; {} of {} PUs are described "
                                    "(the smallest count at each level)",
                                    usedPUs, allPUs);
        result.warnings.push_back(w);
        result.print.header.push_back(w);
    }
    // Per-depth facts from the first selected object (the selection is uniform).
    struct DepthInfo {
        std::string name, label;
        std::uint64_t memory = 0, cache = 0;
    };
    std::vector<DepthInfo> info(depths);
    int numaTotal = 0;
    std::uint64_t packages = 0, cores = 0;
    for (int d = 0; d < depths; ++d) {
        int numa = 0;
        for (hwloc_obj_t o : selected[d])
            numaMemory(o, numaTotal);
        hwloc_obj_t first = selected[d].front();
        info[d].memory = numaMemory(first, numa);
        info[d].name = depthName(first, numa > 0);
        info[d].label = hwlocLabel(first);
        if (numa)
            info[d].label += fmt::format(" + {} {}", plural(numa, "NUMA node", "NUMA nodes"), sizeText(info[d].memory));
        if (hwloc_obj_type_is_dcache(first->type))
            info[d].cache = first->attr->cache.size;
        if (first->type == HWLOC_OBJ_PACKAGE)
            packages = selected[d].size();
        if (first->type == HWLOC_OBJ_CORE)
            cores = selected[d].size();
    }
    // Fold chains of one-to-one levels: depth d joins d-1 when each d-1 object holds one.
    struct Chain {
        std::vector<int> depths;
        std::uint64_t fanOut = 1;
    };
    std::vector<Chain> chains;
    for (int d = 0; d < depths; ++d) {
        if (d == 0 || fanOut[d] != 1)
            chains.push_back({{}, fanOut[d]});
        chains.back().depths.push_back(d);
    }
    MachineModel& model = result.model;
    std::uint64_t nodes = options.nodes;
    if (nodes > 0) {
        Level cluster;
        cluster.name = "Cluster";
        model.levels.push_back(cluster);
        result.print.levelComments.push_back(fmt::format("{} identical nodes", nodes));
    }
    for (std::size_t c = 0; c < chains.size(); ++c) {
        Level l;
        l.fanOut = chains[c].fanOut;
        std::string best;
        std::string comment;
        std::uint64_t memory = 0, cache = 0;
        for (int d : chains[c].depths) {
            const DepthInfo& di = info[d];
            if (best.empty() || namePriority(di.name) < namePriority(best))
                best = di.name;
            memory += di.memory;
            cache = std::max(cache, di.cache);
            comment += (comment.empty() ? "" : " + ") + di.label;
        }
        if (memory >= (1 << 20)) // whole MiB; less is left out (a size property is at least 1 byte)
            l.properties[size_t(PropertyId::Memory)] = memory / (1 << 20) * (1 << 20);
        if (cache)
            l.properties[size_t(PropertyId::Cache)] = cache;
        l.name = best;
        if (c == 0) {
            // The root: one node, a separate machine and one address space (one MPI rank).
            l.name = "Node";
            l.fanOut = nodes > 0 ? nodes : 1;
            l.unit = l.segment = true;
        }
        if (c + 1 == chains.size())
            l.core = true; // the PU level: hardware threads are pinned per PPU
        model.levels.push_back(l);
        result.print.levelComments.push_back("hwloc: " + comment);
    }
    if (options.segments > 0 && !splitIntoSegments(model, result.print, nodes > 0 ? 1 : 0, options.segments, error))
        return std::nullopt;
    int number = model.levelCount();
    std::uint64_t total = 1;
    for (Level& l : model.levels) {
        l.number = number--;
        total *= l.fanOut;
        l.totalPPUs = total;
    }
    for (hwloc_obj_t pu : selected[depths - 1])
        model.processors.push_back(pu->os_index);
    // Header: what, from where, by whom, and a one-line summary.
    std::uint64_t n = nodes > 0 ? nodes : 1;
    if (options.segments > 1)
        result.print.header.push_back(fmt::format(
            "Each node is split into {} MPI segments (processes) that share its memory and cores.", options.segments));
    result.summary =
        fmt::format("{}, {}, {}, {}, {}", plural(n, "node", "nodes"), plural(n * packages, "package", "packages"),
                    plural(n * numaTotal, "NUMA node", "NUMA nodes"), plural(n * cores, "core", "cores"),
                    plural(n * usedPUs, "PU", "PUs"));
    std::string host = "HOST", date = "DATE";
    std::string hwlocVersion = "HWLOC-VERSION", itcVersion = "ITC-VERSION";
    if (!options.fixedHeader) {
        char name[256] = {};
        if (gethostname(name, sizeof name - 1) == 0)
            host = name;
        std::time_t now = std::time(nullptr);
        char buf[64];
        std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
        date = buf;
        unsigned v = hwloc_get_api_version();
        hwlocVersion = fmt::format("{}.{}.{}", v >> 16, (v >> 8) & 0xff, v & 0xff);
        itcVersion = ITC_VERSION_STRING;
    }
    std::vector<std::string> header = {
        fmt::format("PCubeS description of {}", source.empty() ? "host " + host : source),
        fmt::format("written by itc {} with hwloc {} on {}", itcVersion, hwlocVersion, date),
        result.summary,
        "Threads are pinned per PPU of the <core> level (hardware threads); Processors lists",
        "their OS ids depth-first inside one node. Sizes are per PPU of a level.",
    };
    if (!source.empty() && !options.fixedHeader)
        header.insert(header.begin() + 1, fmt::format("on host {}", host));
    header.insert(header.end(), result.print.header.begin(), result.print.header.end());
    result.print.header = header;
    return result;
}

} // namespace itc::pcubes
