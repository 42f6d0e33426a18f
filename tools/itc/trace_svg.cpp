// Implements timelineSvg() of trace_timeline.h: a PULSAR-style picture of a run — one lane per
// rank thread, a coloured rectangle per stage call (one colour per stage, with a legend), idle
// waits hatched grey, VDP firings as a thin band, task runs and MPI transfers on the main/proxy
// lane, and optional arrows for messages between ranks. Spans narrower than a fraction of a
// pixel are merged with their neighbour of the same kind so that long runs stay small files.
#include "tools/itc/trace_timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

namespace itc::driver {
namespace {

constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#86bcb6"};
constexpr int kLeft = 170, kRight = 20, kTop = 48, kLaneHeight = 16, kLaneGap = 3, kRankGap = 18;

std::string xmlEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

// A tick step of 1, 2 or 5 times a power of ten giving about `count` ticks over `span`.
double tickStep(double span, int count) {
    double raw = span / count;
    double p = std::pow(10.0, std::floor(std::log10(raw > 0 ? raw : 1)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * p)
            return m * p;
    return 10 * p;
}

struct Rect {
    double x0, x1;
    int y, h;
    std::string fill, title;
    int count = 1;
};

// Appends `r` or widens the previous rectangle of the same row and fill when they (nearly) touch.
void addRect(std::vector<Rect>& out, Rect r) {
    if (!out.empty()) {
        Rect& last = out.back();
        if (last.y == r.y && last.h == r.h && last.fill == r.fill && r.x0 - last.x1 < 0.3 && r.x1 - last.x0 < 4) {
            last.x1 = std::max(last.x1, r.x1);
            ++last.count;
            return;
        }
    }
    out.push_back(std::move(r));
}

} // namespace

std::string timelineSvg(const Timeline& t, const SvgOptions& options) {
    const double span = std::max(t.end - t.begin, 1.0);
    const double plotWidth = options.width - kLeft - kRight;
    auto X = [&](double us) { return kLeft + (us - t.begin) / span * plotWidth; };

    std::map<std::string, std::string> colour;
    for (const StageTotal& s : t.stages)
        colour.emplace(s.name, kPalette[colour.size() % std::size(kPalette)]);

    // Lane positions: ranks one under the other, a header gap before each rank.
    std::map<std::pair<int, int>, int> laneY;
    int y = kTop;
    int lastRank = -1;
    for (const TraceLane& l : t.lanes) {
        if (l.rank != lastRank) {
            y += kRankGap;
            lastRank = l.rank;
        }
        laneY[{l.rank, l.tid}] = y;
        y += kLaneHeight + kLaneGap;
    }
    const int legendTop = y + 16;
    const int legendRows = static_cast<int>((t.stages.size() + 5 + 3) / 4);
    const int height = legendTop + legendRows * 18 + 12;

    std::string o;
    o += fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" )"
                     R"(font-family="sans-serif" font-size="11">)"
                     "\n",
                     options.width, height, options.width, height);
    o += R"(<defs><pattern id="hatch" patternUnits="userSpaceOnUse" width="5" height="5" )"
         R"svg(patternTransform="rotate(45)"><rect width="5" height="5" fill="#e4e4e4"/>)svg"
         R"(<line x1="0" y1="0" x2="0" y2="5" stroke="#a0a0a0" stroke-width="2"/></pattern></defs>)"
         "\n";
    o += R"(<rect width="100%" height="100%" fill="white"/>)"
         "\n";
    o += fmt::format(R"(<text x="10" y="16" font-size="13" font-weight="bold">{}</text>)"
                     "\n",
                     xmlEscape(fmt::format("{}{} rank(s), {:.3f} ms", t.program.empty() ? "" : t.program + ": ",
                                           t.ranks, span / 1000)));
    // Time axis.
    const double step = tickStep(span, 10);
    o += R"(<g class="axis" stroke="#ccc">)"
         "\n";
    for (double tick = 0; tick <= span + 1e-9; tick += step) {
        const double x = X(t.begin + tick);
        o += fmt::format(R"(<line x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{}"/>)", x, kTop - 8, x, y);
        o += fmt::format(R"(<text x="{:.1f}" y="{}" stroke="none" fill="#555" text-anchor="middle">{:g} ms</text>)"
                         "\n",
                         x, kTop - 12, tick / 1000);
    }
    o += "</g>\n";

    lastRank = -1;
    for (const TraceLane& l : t.lanes) {
        const int ly = laneY.at({l.rank, l.tid});
        if (l.rank != lastRank) {
            o += fmt::format(R"(<text x="6" y="{}" font-weight="bold">rank {}</text>)"
                             "\n",
                             ly - 5, l.rank);
            lastRank = l.rank;
        }
        o += fmt::format(R"(<g class="lane" data-rank="{}" data-tid="{}">)"
                         "\n",
                         l.rank, l.tid);
        o += fmt::format(R"(<text x="14" y="{}">{}</text>)", ly + 12, xmlEscape(l.name));
        o += fmt::format(R"(<rect x="{}" y="{}" width="{:.1f}" height="{}" fill="#f7f7f7"/>)"
                         "\n",
                         kLeft, ly, plotWidth, kLaneHeight);
        // Back to front: task runs, firings, waits, stages, MPI transfers.
        std::vector<Rect> rects;
        for (const char* layer : {"task", "vdp", "wait", "stage", "mpi"}) {
            for (const TraceSpan& s : l.spans) {
                if (s.cat != layer)
                    continue;
                Rect r{X(s.begin), std::max(X(s.end), X(s.begin) + 0.2), ly, kLaneHeight, "", s.detail};
                if (s.cat == "task") {
                    r.fill = "#dde6f0";
                } else if (s.cat == "vdp") {
                    r.y = ly + kLaneHeight - 3;
                    r.h = 3;
                    r.fill = "#7f8fa6";
                } else if (s.cat == "wait") {
                    r.fill = "url(#hatch)";
                } else if (s.cat == "stage") {
                    r.y = ly + 1;
                    r.h = kLaneHeight - 4;
                    r.fill = colour.count(s.name) ? colour.at(s.name) : "#888";
                } else if (s.cat == "mpi") {
                    r.y = ly + 3;
                    r.h = kLaneHeight - 6;
                    // The collective start of a run (waiting for the other ranks) apart from transfers.
                    r.fill = s.name.rfind("MPI ", 0) == 0 ? "#333" : "#a9a9a9";
                } else {
                    continue;
                }
                addRect(rects, std::move(r));
            }
        }
        for (const Rect& r : rects) {
            o += fmt::format(R"(<rect x="{:.2f}" y="{}" width="{:.2f}" height="{}" fill="{}">)", r.x0, r.y, r.x1 - r.x0,
                             r.h, r.fill);
            o += "<title>" +
                 xmlEscape(r.count > 1 ? fmt::format("{} spans merged; first: {}", r.count, r.title) : r.title) +
                 "</title></rect>\n";
        }
        o += "</g>\n";
    }

    if (options.messages) {
        o += R"(<g class="messages" stroke="#c0392b" stroke-opacity="0.45" stroke-width="0.8">)"
             "\n";
        int drawn = 0;
        for (const TraceMessage& m : t.messages) {
            if (m.fromRank == m.toRank)
                continue;
            if (++drawn > 5000)
                break;
            const int y0 = laneY.at({m.fromRank, m.fromTid}) + kLaneHeight / 2;
            const int y1 = laneY.at({m.toRank, m.toTid}) + kLaneHeight / 2;
            o += fmt::format(
                R"(<line x1="{:.2f}" y1="{}" x2="{:.2f}" y2="{}"><title>{}</title></line>)"
                "\n",
                X(m.sent), y0, X(m.received), y1,
                xmlEscape(fmt::format("{} bytes, rank {} -> rank {}: {}", m.bytes, m.fromRank, m.toRank, m.sync)));
        }
        o += "</g>\n";
    }

    // Legend: stages by colour, then the other kinds of span.
    o += R"(<g class="legend">)"
         "\n";
    std::vector<std::pair<std::string, std::string>> items;
    for (const StageTotal& s : t.stages)
        items.push_back({colour.at(s.name), "stage " + s.name});
    items.push_back({"url(#hatch)", "idle: LPUs wait at a synchronisation"});
    items.push_back({"#7f8fa6", "VDP (LPU) firing"});
    items.push_back({"#dde6f0", "task run or data exchange (main thread)"});
    items.push_back({"#333", "MPI send / receive (proxy)"});
    items.push_back({"#a9a9a9", "proxy waits for all ranks to start a run"});
    for (size_t i = 0; i < items.size(); ++i) {
        const int lx = kLeft + static_cast<int>(i % 4) * 250, ly = legendTop + static_cast<int>(i / 4) * 18;
        o += fmt::format(R"(<rect x="{}" y="{}" width="14" height="11" fill="{}" stroke="#666" stroke-width="0.5"/>)",
                         lx, ly, items[i].first);
        o += fmt::format(R"(<text x="{}" y="{}">{}</text>)"
                         "\n",
                         lx + 19, ly + 10, xmlEscape(items[i].second));
    }
    if (options.messages)
        o += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#c0392b"/><text x="{}" y="{}">)"
                         R"(message between ranks</text>)"
                         "\n",
                         10, legendTop + 6, 30, legendTop + 6, 34, legendTop + 10);
    o += "</g>\n</svg>\n";
    return o;
}

} // namespace itc::driver
