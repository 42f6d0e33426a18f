// Pass: where each task-global array's cells live while the task runs. Every space whose stages
// use an array works either in parts of its own (a *storage space*) or in views into its parent
// space's parts (same memory, no copy). Views are chosen only where they are exact and safe: the
// child's parts nest in the parent's without padding or strides, the array keeps one version, and
// the parent's LPUs are placed at or below the machine's `<segment>` level, so that every child
// LPU is in its parent LPU's memory. Everything else gets storage, and the dependency pass plans
// the movements between storage spaces, except in spaces whose parts change every foreach turn:
// those work in per-turn copies of their parent's parts (ArrayStorage::turnCopies). The *home*
// space's parts are the ones inputs, outputs and the environment use. Reports nothing.
#pragma once

#include <functional>

#include "semantic/partition/lps_tree.h"
#include "semantic/usage/data_usage.h"
#include "semantic/usage/task_globals.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace itc::semantic {

struct ArrayStorage {
    std::string array;
    int home = kNoLps;            // kNoLps: no stage uses the array, it has no parts
    std::vector<int> spaces;      // storage spaces, home first
    std::map<int, int> storageOf; // every space whose stages use the array -> where it works
    bool written = false;         // some stage writes it
    bool environmental = false;
    // The spaces whose stages use the array and cannot view their parent's parts, each with why
    // (`itc plan` prints them).
    std::vector<std::pair<int, std::string>> ownParts;
    // Spaces whose parts change every `Repeat foreach` turn (LpsTree::changesEveryTurn) and
    // cannot view their parent's, or lie below such a space: `storageOf` names the parent's
    // storage space, as for a view, and each LPU works in a copy of its turn part, filled from
    // that storage (or from the parent LPU's copy, when entered from the parent's block) at every
    // entry of the space's block and, when it or a space below writes the array, written back
    // there (the cells it owns) at every exit. The tokens that order views order the copies too.
    struct TurnCopy {
        std::string why;
        bool writtenBack = false;
    };
    std::map<int, TurnCopy> turnCopies;
    bool isStorage(int lps) const;
    const TurnCopy* turnCopy(int lps) const;
};

struct StoragePlan {
    std::map<std::string, ArrayStorage> arrays;
    // The storage space that stages of `lps` use for `array`; kNoLps when they do not use it.
    int storageOf(const std::string& array, int lps) const;
};

// The dimensions (0-based) of `array` that stride()/block_stride() split on the way to the parts
// stages of `lps` work in (its storage space there, or its own turn copy; its home when lps < 0):
// the indices such a part holds are not an interval.
std::set<int> stridedDimensions(const StoragePlan& storage, const LpsTree& lps, const std::string& array, int space);

// `inMemoryOf(ancestor, space)`: every LPU of `space` is in the memory of its LPU of `ancestor`
// (always, when the task has no mapping: the plan then assumes one process).
using SameMemory = std::function<bool(int ancestor, int space)>;
StoragePlan planStorage(const TaskGlobals& globals, const LpsTree& lps, const DataUsage& usage,
                        const std::map<std::string, int>& versionDepth, const SameMemory& inMemoryOf);

} // namespace itc::semantic
