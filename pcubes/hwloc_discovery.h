// Describes a machine as a PCubeS model using hwloc: the local machine, an hwloc XML export, or
// an hwloc synthetic topology. Only the allowed cpuset counts. Levels that add nothing are folded
// (see docs/pcubes.md); `<core>` marks the PU (hardware thread) level. Never prints.
#pragma once

#include "pcubes/machine_model.h"
#include "pcubes/machine_printer.h"

#include <optional>
#include <string>
#include <vector>

namespace itc::pcubes {

struct DiscoveryOptions {
    std::optional<std::string> xmlFile;   // --from-xml
    std::optional<std::string> synthetic; // --synthetic, e.g. "pack:2 core:4 pu:2"
    std::uint64_t nodes = 0;              // --nodes N: wrap in a Cluster level of N nodes
    std::uint64_t segments = 0;           // --segments N: split each node into N MPI segments
    bool fixedHeader = false;             // deterministic header (tests)
};

struct Discovery {
    MachineModel model;
    PrintOptions print;                // header lines and per-level comments
    std::string summary;               // "1 node, 1 package, 1 NUMA node, 2 cores, 2 PUs"
    std::vector<std::string> warnings; // e.g. a non-uniform topology was trimmed
};

// The hwloc API version of the library itc runs with, as "2.8.0" (for `itc --version`).
std::string hwlocApiVersion();

// On failure returns nullopt and sets `error` (a message for the user, no trailing period).
std::optional<Discovery> discoverMachine(const DiscoveryOptions& options, std::string& error);

} // namespace itc::pcubes
