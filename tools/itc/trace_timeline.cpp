// Implements readTimeline() and timelineSummary() of trace_timeline.h: one pass over the trace
// events, pairing async wait begins with their ends and flow starts with their ends by id.
#include "tools/itc/trace_timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <map>
#include <stdexcept>

namespace itc::driver {
namespace {

template <class T> T& byName(std::vector<T>& list, const std::string& name) {
    for (T& x : list)
        if (x.name == name)
            return x;
    list.push_back(T{});
    list.back().name = name;
    return list.back();
}

// The argument values of an event as `key=value` text for tooltips.
std::string argsText(const JsonValue* args) {
    std::string out;
    if (!args || !args->isObject())
        return out;
    for (const auto& [k, v] : args->members()) {
        std::string value;
        if (v.isString())
            value = v.string();
        else if (v.isNumber())
            value = fmt::format("{}", v.number());
        else if (v.isArray()) {
            value = "(";
            for (const JsonValue& x : v.items())
                value += (value.size() > 1 ? ", " : "") + (x.isNumber() ? fmt::format("{}", x.number()) : x.string());
            value += ")";
        }
        out += (out.empty() ? "" : "  ") + k + "=" + value;
    }
    return out;
}

int intField(const JsonValue& e, const char* key) {
    const JsonValue* v = e.find(key);
    if (!v || !v->isNumber())
        throw std::runtime_error(std::string("an event has no numeric `") + key + "`");
    return static_cast<int>(v->number());
}

} // namespace

Timeline readTimeline(const JsonValue& doc) {
    const JsonValue* events = doc.isObject() ? doc.find("traceEvents") : nullptr;
    if (!events || !events->isArray())
        throw std::runtime_error("not a run trace: no `traceEvents` array (write one with IT_TRACE=FILE)");
    Timeline t;
    if (const JsonValue* other = doc.find("otherData"); other && other->isObject()) {
        t.program = other->stringOr("program", "");
        if (auto slash = t.program.rfind('/'); slash != std::string::npos) // the file name says enough
            t.program = t.program.substr(slash + 1);
        t.ranks = std::atoi(other->stringOr("ranks", "0").c_str());
    }
    std::map<std::pair<int, int>, TraceLane> lanes;
    struct Open {
        double ts;
        std::string name;
    };
    std::map<std::pair<int, uint64_t>, Open> openWaits; // (pid, id)
    std::map<uint64_t, TraceMessage> flows;             // by id, until both ends are seen
    std::map<uint64_t, int> flowEnds;                   // ends seen per id (1 start + 1 end)
    bool first = true;
    for (const JsonValue& e : events->items()) {
        if (!e.isObject())
            throw std::runtime_error("an entry of `traceEvents` is not an object");
        const std::string ph = e.stringOr("ph", "");
        const int pid = intField(e, "pid"), tid = intField(e, "tid");
        const std::string name = e.stringOr("name", "");
        TraceLane& lane = lanes[{pid, tid}];
        lane.rank = pid;
        lane.tid = tid;
        if (ph == "M") {
            if (name == "thread_name")
                if (const JsonValue* a = e.find("args"); a && a->isObject())
                    lane.name = a->stringOr("name", "");
            continue;
        }
        const double ts = e.numberOr("ts", 0);
        const double dur = e.numberOr("dur", 0);
        if (dur < 0 || !std::isfinite(dur) || !std::isfinite(ts))
            throw std::runtime_error(fmt::format("event `{}` has {}: a trace written by a compiled IT program never "
                                                 "does; was the file edited?",
                                                 name,
                                                 dur < 0 ? fmt::format("a negative duration ({})", dur)
                                                         : std::string("a time that is not a finite number")));
        const double end = ts + dur;
        if (first || ts < t.begin)
            t.begin = ts;
        if (first || end > t.end)
            t.end = end;
        first = false;
        t.ranks = std::max(t.ranks, pid + 1);
        const std::string cat = e.stringOr("cat", "");
        const JsonValue* args = e.find("args");
        if (ph == "X" || ph == "B") {
            TraceSpan s{ts, end, cat, name, name + "  " + argsText(args) + fmt::format("  {:.1f} us", end - ts)};
            if (cat == "stage") {
                StageTotal& st = byName(t.stages, name);
                ++st.calls;
                st.totalUs += end - ts;
                t.stageUs += end - ts;
                const JsonValue* lpu = args ? args->find("lpu") : nullptr;
                if (!args || !args->find("task") || !args->find("space") || !lpu || !args->find("line"))
                    throw std::runtime_error("stage span `" + name + "` lacks task, space, lpu or line");
            } else if (cat == "wait") {
                t.idleUs += end - ts;
            }
            lane.spans.push_back(std::move(s));
        } else if (ph == "b" || ph == "e") {
            const uint64_t id = static_cast<uint64_t>(e.numberOr("id", 0));
            if (ph == "b") {
                openWaits[{pid, id}] = {ts, name};
            } else if (auto it = openWaits.find({pid, id}); it != openWaits.end()) {
                SyncTotal& s = byName(t.syncs, it->second.name);
                ++s.waits;
                s.waitUs += ts - it->second.ts;
                openWaits.erase(it);
            }
        } else if (ph == "s" || ph == "f") {
            const uint64_t id = static_cast<uint64_t>(e.numberOr("id", 0));
            TraceMessage& m = flows[id];
            ++flowEnds[id];
            m.sync = name;
            m.bytes = args ? args->numberOr("bytes", 0) : 0;
            if (ph == "s") {
                m.fromRank = pid;
                m.fromTid = tid;
                m.sent = ts;
            } else {
                m.toRank = pid;
                m.toTid = tid;
                m.received = ts;
            }
        }
    }
    for (auto& [key, lane] : lanes) {
        if (lane.name.empty())
            lane.name = lane.tid == 0 ? "main / proxy" : fmt::format("thread {}", lane.tid);
        t.lanes.push_back(std::move(lane));
    }
    for (auto& [id, m] : flows) {
        if (flowEnds[id] != 2) {
            ++t.unmatchedFlows;
            continue;
        }
        SyncTotal& s = byName(t.syncs, m.sync);
        ++s.messages;
        s.bytes += m.bytes;
        if (m.fromRank != m.toRank) {
            ++s.interMessages;
            s.interBytes += m.bytes;
        }
        t.messages.push_back(std::move(m));
    }
    for (const TraceLane& l : t.lanes)
        if (l.tid > 0 && !l.spans.empty())
            for (const TraceSpan& s : l.spans)
                if (s.cat == "vdp" || s.cat == "wait")
                    t.workerUs += s.end - s.begin;
    return t;
}

std::string timelineSummary(const Timeline& t, const std::string& file) {
    std::string out;
    int workers = 0;
    for (const TraceLane& l : t.lanes)
        workers += l.tid > 0 ? 1 : 0;
    out += fmt::format("{}: {}{} rank{}, {} worker thread track{}, {:.3f} ms\n", file,
                       t.program.empty() ? "" : "program " + t.program + ", ", t.ranks, t.ranks == 1 ? "" : "s",
                       workers, workers == 1 ? "" : "s", (t.end - t.begin) / 1000);
    // Name columns as wide as the longest name, so the numbers line up.
    size_t w = 20;
    for (const StageTotal& s : t.stages)
        w = std::max(w, s.name.size());
    out += fmt::format("\n{:<{}} {:>8} {:>11} {:>10}\n", "stage", w, "calls", "total ms", "mean us");
    for (const StageTotal& s : t.stages)
        out += fmt::format("{:<{}} {:>8} {:>11.3f} {:>10.1f}\n", s.name, w, s.calls, s.totalUs / 1000,
                           s.calls ? s.totalUs / static_cast<double>(s.calls) : 0.0);
    if (t.syncs.empty())
        out += "\nsynchronisations: no messages and no LPU waits in this run\n";
    w = 20;
    for (const SyncTotal& s : t.syncs)
        w = std::max(w, s.name.size());
    if (!t.syncs.empty())
        out += fmt::format("\n{:<{}} {:>9} {:>9} {:>9} {:>8} {:>12} {:>12}\n", "synchronisation", w, "LPU waits",
                           "wait ms", "messages", "(inter)", "bytes", "(inter)");
    for (const SyncTotal& s : t.syncs)
        out += fmt::format("{:<{}} {:>9} {:>9.3f} {:>9} {:>8} {:>12.0f} {:>12.0f}\n", s.name, w, s.waits,
                           s.waitUs / 1000, s.messages, s.interMessages, s.bytes, s.interBytes);
    const double busy = t.workerUs > 0 ? 100 * t.stageUs / t.workerUs : 0;
    const double idle = t.workerUs > 0 ? 100 * t.idleUs / t.workerUs : 0;
    out += fmt::format("\nworker threads: {:.3f} ms in stages ({:.0f}%), {:.3f} ms idle waiting for other LPUs "
                       "({:.0f}%), of {:.3f} ms firing or waiting\n",
                       t.stageUs / 1000, busy, t.idleUs / 1000, idle, t.workerUs / 1000);
    if (t.unmatchedFlows)
        out += fmt::format("warning: {} message(s) without both a send and a receive event\n", t.unmatchedFlows);
    return out;
}

} // namespace itc::driver
