// Partition arguments proposed for given array sizes (`itc plan --suggest`): a search over the
// task's Partition parameters that scores each choice by how evenly every mapped space's LPUs
// fill its PPUs, whether an LPU's working set (its parts, or its current sub-partition's pieces)
// fits the cache of its PPS, and then by fewer, larger LPUs. Plain arithmetic on the plan's LPS
// tree and placements; it decides nothing the compiler uses.
#pragma once

#include "pcubes/machine_model.h"
#include "semantic/plan/task_plan.h"
#include "semantic/semantic.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace itc::semantic {

struct SuggestedSpace {
    std::string name;
    std::uint64_t lpus = 0, ppus = 0;
    std::string ppsName;
    std::uint64_t bytesPerLpu = 0;      // the working set of one LPU
    std::optional<std::uint64_t> cache; // per PPU of its PPS, when the model says
    std::uint64_t subpartitions = 0;    // pieces per LPU, 0 without a Sub-partition
};

struct Suggestion {
    std::string task;
    std::map<std::string, std::int64_t> arguments; // parameter -> value (the given ones included)
    std::vector<SuggestedSpace> spaces;
    std::uint64_t combinations = 0; // how many argument tuples were scored
    std::string problem;            // non-empty: no suggestion (what is missing)
};

// `sizes`: array name -> length of each dimension, and parameter name -> {value} for parameters
// the user fixes (padding widths must be given). The plan must have a mapping and `machine`.
Suggestion suggestPartition(const TaskPlan& plan, const TaskInfo& info, const pcubes::MachineModel& machine,
                            const std::map<std::string, std::vector<std::int64_t>>& sizes);
std::string printSuggestion(const Suggestion& s);

} // namespace itc::semantic
