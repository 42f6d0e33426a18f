// The task plan: everything the backend needs to know about how one task runs, as plain data
// (documented in docs/task-plan.md). Per task: the LPS tree with each array's expanded partition
// and the LPU-count formulas; the flow tree with data usage per stage invocation; every
// dependency with its classification and every synchronisation the compiler inserts, with its
// flow point; epoch version depths; and, when a mapping and machine were given, the PPS and PPU
// counts per LPS, ranks and threads per rank. No C++ text and no AST pointers live here.
#pragma once

#include "semantic/partition/lps_tree.h"
#include "semantic/plan/dependencies.h"
#include "semantic/usage/data_usage.h"
#include "semantic/usage/flow_tree.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace itc::semantic {

// Placement of one LPS on the machine (present only with a mapping and a machine model).
struct LpsPlacement {
    int pps = 0;                        // PPS number (1 = lowest level)
    std::string ppsName;                // the level's name in the machine file
    std::uint64_t ppus = 0;             // PPUs of that PPS available to the task
    std::uint64_t ppusPerParentPpu = 1; // U (guide: Partition functions): PPUs per parent PPU
    bool computes = true;               // false when mapped above `<core>` (guide: Mapping files)
    // The space's parts change every turn of a `Repeat foreach` above it (it divides
    // sub-partitions, or lies below a space that does), and its PPS would put LPUs in other
    // processes than their parent LPU: they run in the parent LPU's process instead, on the
    // threads of its segment, so that every turn's parts are views of the parent's memory.
    bool inParentProcess = false;
};

struct PlanLps {
    // Part count of one space dimension (guide: The Partition section), e.g.
    // `ceil(len(plate.dim1)/k)`.
    struct DimCount {
        std::string formula;
        std::string array;                  // the array (first in configuration order) the formula is taken from
        std::vector<std::string> mustAgree; // other arrays split along the same dimension
        std::string heldNote;               // e.g. `a Space A part of plate.dim1 holds at most k+2*p1 indices`
    };
    std::vector<DimCount> dimCounts; // one per space dimension
    std::string lpusPerParent;       // product of the dimension counts, `1` when un-partitioned
    std::optional<LpsPlacement> placement;
};

struct TaskPlan {
    std::string task;
    SourceRange declared;
    LpsTree lps;                 // spaces[0] is Root
    std::vector<PlanLps> spaces; // parallel to lps.spaces
    FlowTree flow;               // FlowNode::source is null in a plan
    DataUsage usage;
    StoragePlan storage; // where each array's cells live: storage spaces and views
    DependencyGraph dependencies;
    std::map<std::string, int> versionDepth; // version-dependent array -> versions kept

    // Machine-level facts, present with a mapping and a machine model.
    bool mapped = false;
    std::string machineFile;
    std::uint64_t ranks = 1;          // processes: PPUs of the `<segment>` level used by the task
    std::uint64_t threadsPerRank = 1; // PPUs of the lowest mapped PPS inside one segment
    int segmentLevel = 0;             // 0 when the model has no `<segment>`
    int rootPps = 0;
};

// Hand-over of one environmental item between two executions in coordinator order (guide: How a
// task runs).
struct EnvironmentHandover {
    std::string item; // `stencilEnv.plate`
    std::string fromTask, toTask;
    std::string fromPlacement, toPlacement; // `Space B: plate<dim1>: block_count(p)` or `whole`
    SyncKind kind = SyncKind::None;         // None (used in place) or Redistribution
    bool waits = true;                      // the later task waits for the earlier one: one of them may write
    SourceRange at;                         // the later `execute`
};

struct ProgramPlan {
    std::vector<TaskPlan> tasks;
    std::vector<EnvironmentHandover> handovers;
};

} // namespace itc::semantic
