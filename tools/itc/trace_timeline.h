// `itc trace`: a run trace (IT_TRACE=FILE, Chrome trace-event JSON written by libitrt) read back
// as lanes of spans per rank thread, the messages between them and per-stage / per-synchronisation
// totals; then drawn as an SVG timeline or summarised as text. Knows only the trace format that
// runtime/engine/trace.cpp writes (docs/tracing.md), not the runtime itself.
#pragma once

#include "tools/itc/json_value.h"

#include <cstdint>
#include <string>
#include <vector>

namespace itc::driver {

struct TraceSpan {
    double begin = 0, end = 0; // microseconds from the common origin
    std::string cat;           // stage, vdp, wait, task, mpi
    std::string name;
    std::string detail; // tooltip text
};

// One thread of one rank: a track of the trace, a lane of the picture.
struct TraceLane {
    int rank = 0, tid = 0;
    std::string name;
    std::vector<TraceSpan> spans; // in file order
};

struct TraceMessage {
    int fromRank = 0, fromTid = 0, toRank = 0, toTid = 0;
    double sent = 0, received = 0;
    double bytes = 0;
    std::string sync;
};

struct StageTotal {
    std::string name;
    int64_t calls = 0;
    double totalUs = 0;
};

struct SyncTotal {
    std::string name;
    int64_t waits = 0; // LPU waits (async spans)
    double waitUs = 0;
    int64_t messages = 0, interMessages = 0;
    double bytes = 0, interBytes = 0;
};

struct Timeline {
    std::string program;
    int ranks = 0;
    double begin = 0, end = 0;
    std::vector<TraceLane> lanes; // by rank, then track number
    std::vector<TraceMessage> messages;
    std::vector<StageTotal> stages;               // first-seen order
    std::vector<SyncTotal> syncs;                 // first-seen order
    double workerUs = 0, stageUs = 0, idleUs = 0; // summed over worker threads
    int64_t unmatchedFlows = 0;                   // flow starts or ends without their other end
};

// Reads a trace document; throws std::runtime_error saying what is missing or malformed.
Timeline readTimeline(const JsonValue& doc);

// Per stage: calls and time; per synchronisation: LPU waits, wait time, messages and bytes.
std::string timelineSummary(const Timeline& t, const std::string& file);

struct SvgOptions {
    int width = 1200;
    bool messages = true; // arrows for messages between ranks
};
std::string timelineSvg(const Timeline& t, const SvgOptions& options);

} // namespace itc::driver
