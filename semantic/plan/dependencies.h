// Pass: writer->reader dependencies of one task's flow and the synchronisation each needs.
// A dependency links an access that writes a task-global to a later access that reads it and
// sees that write (reaching definitions over the flow tree: a `Repeat` body is walked twice, so a
// read before a write in the body depends on the previous iteration's write; a write under
// Where/If does not hide earlier writes). Each dependency is classified (architecture.md,
// "Synchronisation is computed, exact and minimal"); the deduplicated synchronisations are what
// the task plan inserts into the flow. Movements run between storage spaces (storage.h): stages of
// a space that views its parent's parts move nothing, they only order themselves with it (token
// synchronisations). This list is exactly what the compiled program performs. Reports nothing.
#pragma once

#include "semantic/partition/lps_tree.h"
#include "semantic/plan/storage.h"
#include "semantic/usage/data_usage.h"
#include "semantic/usage/flow_tree.h"
#include "semantic/usage/task_globals.h"

#include <string>
#include <vector>

namespace itc::semantic {

#define ITC_SYNC_KINDS(X)                    \
    X(None, "none")                          \
    X(ReplicaBroadcast, "replica broadcast") \
    X(PaddingExchange, "padding exchange")   \
    X(GatherUp, "gather up")                 \
    X(ScatterDown, "scatter down")           \
    X(Redistribution, "redistribution")      \
    X(Reduction, "reduction")                \
    X(Token, "token")

enum class SyncKind {
#define ITC_SYNC_ENUM(k, text) k,
    ITC_SYNC_KINDS(ITC_SYNC_ENUM)
#undef ITC_SYNC_ENUM
};
const char* syncKindName(SyncKind k);

struct Dependency {
    std::string var;
    int writer = -1; // index into DataUsage::accesses
    int reader = -1;
    int fromLps = kRootLps; // where the written value lives (a reduction's target space)
    int toLps = kRootLps;   // where it is read
    SyncKind kind = SyncKind::None;
    // Padding exchange: (padded LPS, exited Space block node) for every refresh on the path.
    std::vector<std::pair<int, int>> paddingExits;
    std::vector<int> exits; // Space block nodes the flow leaves between write and read
    int carriedBy = -1;     // the Repeat node whose previous iteration made the write, or -1
    int lag = 0;            // the reader sees the write `at (current - lag)`: lag Epoch entries later
    std::string why;        // one phrase: why this kind
};

// One synchronisation the compiled program performs. `fromLps`/`toLps` are the spaces whose
// LPUs take part: for a movement the sending and receiving storage spaces (an array) or the
// writing and reading spaces (a scalar: each LPU keeps its own copy); for a reduction the
// invoking and the target space; for a token the parent space and the child space that works in
// views of the parent's parts (entry: parent LPU -> child LPUs; exit: back).
struct Synchronization {
    enum class Point { TaskStart, BeforeAccess, SpaceEntry, AfterStage, SpaceExit, TaskEnd };
    SyncKind kind = SyncKind::None;
    std::string var;
    bool scalar = false; // a task-global scalar (or a Reduction result), not an array
    int fromLps = kRootLps, toLps = kRootLps;
    int viaLps = kNoLps;      // padding exchange: the LPS whose padded copies are refreshed
    std::vector<int> readers; // reduction: spaces below the target whose flows get the result
    Point point = Point::BeforeAccess;
    int node = -1; // the flow node the point refers to (0 for TaskStart/TaskEnd)
    // BeforeAccess at a `Repeat while`: once, before the loop (a movement that must land before
    // writes inside it), not before every test of its condition (the condition's own inputs).
    bool beforeLoop = false;
    std::vector<int> deps; // the dependencies it serves
    std::string why;       // for syncs no dependency explains (tokens, task start and end)
    // A movement of an array: which sender LPUs send their cells. Changed: those whose part
    // changed since it last went to the receiving space (the receiver still has the rest);
    // Every: all of them (what the task starts with); WrittenInTask: every part written during
    // the task, changed since its last send or not (a task-end gather that follows another
    // space's: that one may have overwritten what this space sent before).
    enum class Senders { Changed, Every, WrittenInTask };
    Senders senders = Senders::Changed;
    // A scalar written under `Where`/`If` by one LPU of a space with several: every receiving
    // LPU hears from every sending LPU (the writer's copy is the one that changed), not only
    // from the LPU above or below it.
    bool fromAnyLpu = false;

    // Whether the LPUs of `lps` take part (send, receive or combine) in this synchronisation.
    bool involves(int lps) const;
    // A token: the `fromLps` LPU hands its parts to its `toLps` LPUs (on entry into their block,
    // or after data has landed in the parts they view), rather than taking them back (on exit).
    bool handsDown() const { return point != Point::SpaceExit && !up; }
    // A token at another point than a block's exit that gives the parts back (the `toLps` LPUs
    // to their `fromLps` LPU): after their writes, before data of them leaves the parts.
    bool up = false;
};

struct DependencyGraph {
    std::vector<Dependency> deps;
    std::vector<Synchronization> syncs; // in flow order of their points
};

DependencyGraph analyzeDependencies(const TaskGlobals& globals, const LpsTree& lps, const FlowTree& flow,
                                    const DataUsage& usage, const StoragePlan& storage);

} // namespace itc::semantic
