#!/usr/bin/env python3
"""Checks a run trace written with IT_TRACE=FILE (docs/tracing.md) and, optionally, the SVG that
`itc trace FILE -o PICTURE` drew from it.

  trace_check.py TRACE.json --ranks N --stage NAME=CALLS:LINE [--stage ...] [--svg PICTURE.svg]
                 [--summary SUMMARY.txt]

Asserts: the file is valid JSON with a `traceEvents` list; every event has a known phase
(X B E b e s f M), a pid below N and a tid; every track (pid, tid) with events is named by a
thread_name event, each rank has its main/proxy track 0 and at least one worker track; spans on
one track nest (a viewer needs that); every stage span carries task, space, lpu and line args,
its line is LINE and each stage has exactly CALLS spans (the caller computes CALLS from the
partition); LPU waits (b/e) are balanced; every message has exactly one send ("s") and one
receive ("f") with the same id, received after it was sent, and the bytes of the messages per
synchronisation equal the IT_STATS totals the trace carries (`itcSyncs`). With --svg: the SVG is
well-formed XML with exactly one lane per track of the trace and a legend entry per stage. With
--summary: `itc trace` printed each stage with its number of calls.
Only the Python standard library is used.
"""
import argparse
import collections
import json
import sys
import xml.etree.ElementTree as ET

PHASES = {"X", "B", "E", "b", "e", "s", "f", "M"}


def fail(msg):
    print("trace_check.py: FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--stage", action="append", default=[], help="NAME=CALLS:LINE")
    ap.add_argument("--svg")
    ap.add_argument("--summary")
    a = ap.parse_args()

    with open(a.trace) as f:
        try:
            doc = json.load(f)
        except json.JSONDecodeError as e:
            fail(f"{a.trace} is not valid JSON: {e}")
    events = doc.get("traceEvents")
    if not isinstance(events, list) or not events:
        fail("no traceEvents list")

    named = set()
    tracks = set()
    spans = collections.defaultdict(list)  # (pid, tid) -> [(begin, end, name)]
    stage_spans = collections.Counter()
    flows = collections.defaultdict(list)  # id -> [(ph, ts, pid, name, bytes)]
    waits = collections.Counter()  # (pid, id) -> open count
    for e in events:
        ph = e.get("ph")
        if ph not in PHASES:
            fail(f"unknown phase {ph!r} in {e}")
        pid, tid = e.get("pid"), e.get("tid")
        if not isinstance(pid, int) or not 0 <= pid < a.ranks or not isinstance(tid, int):
            fail(f"bad pid/tid in {e}")
        if ph == "M":
            if e["name"] == "thread_name":
                named.add((pid, tid))
            continue
        if not isinstance(e.get("ts"), (int, float)):
            fail(f"no ts in {e}")
        tracks.add((pid, tid))
        if ph == "X":
            if e.get("dur", -1) < 0:
                fail(f"span without a duration: {e}")
            spans[(pid, tid)].append((e["ts"], e["ts"] + e["dur"], e["name"]))
            if e.get("cat") == "stage":
                args = e.get("args", {})
                for key in ("task", "space", "lpu", "line"):
                    if key not in args:
                        fail(f"stage span without `{key}`: {e}")
                if not isinstance(args["lpu"], list):
                    fail(f"stage span lpu is not a coordinate list: {e}")
                stage_spans[(e["name"], args["line"])] += 1
        elif ph in ("b", "e"):
            waits[(pid, e["id"])] += 1 if ph == "b" else -1
            if waits[(pid, e["id"])] not in (0, 1):
                fail(f"LPU wait {e['id']} on rank {pid} begins twice or ends unopened")
        elif ph in ("s", "f"):
            flows[e["id"]].append((ph, e["ts"], pid, e["name"], e.get("args", {}).get("bytes")))
            if ph == "f" and e.get("bp") != "e":
                fail(f"flow end without bp=e (binds to the enclosing slice): {e}")

    # Tracks: named, one main/proxy track and workers on every rank.
    if not tracks <= named:
        fail(f"tracks without a thread_name: {sorted(tracks - named)}")
    for r in range(a.ranks):
        if (r, 0) not in named or not any(p == r and t > 0 for p, t in named):
            fail(f"rank {r} lacks its main/proxy track or a worker track: {sorted(named)}")

    # Spans on one track nest: sorted by begin (longest first), each ends inside its parent.
    eps = 0.002  # the file has nanosecond resolution (3 decimals of microseconds)
    for key, lst in spans.items():
        lst.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for b, e, name in lst:
            while stack and stack[-1][1] <= b + eps:
                stack.pop()
            if stack and e > stack[-1][1] + eps:
                fail(f"spans overlap without nesting on track {key}: {stack[-1]} and {(b, e, name)}")
            stack.append((b, e, name))

    # Stage spans: count and IT line.
    for spec in a.stage:
        name, rest = spec.split("=")
        calls, line = (int(x) for x in rest.split(":"))
        got = stage_spans[(name, line)]
        if got != calls:
            fail(f"stage {name} (line {line}): {got} spans, expected {calls}; all: {dict(stage_spans)}")
    expected_names = {s.split("=")[0] for s in a.stage}
    if {n for n, _ in stage_spans} != expected_names:
        fail(f"stages in the trace {sorted(stage_spans)} differ from {sorted(expected_names)}")

    if any(v != 0 for v in waits.values()):
        fail("an LPU wait has no end")

    # Messages: one send and one receive per id; bytes per synchronisation match IT_STATS.
    if not flows:
        fail("no messages (flow events) in the trace")
    bytes_by_sync = collections.Counter()
    for fid, ends in flows.items():
        phs = sorted(p for p, *_ in ends)
        if phs != ["f", "s"]:
            fail(f"message {fid} has events {phs}, expected one s and one f")
        (s,) = [x for x in ends if x[0] == "s"]
        (f_,) = [x for x in ends if x[0] == "f"]
        if f_[1] + 0.002 < s[1] and s[2] == f_[2]:
            fail(f"message {fid} received before it was sent on rank {s[2]}")
        if s[4] != f_[4] or s[3] != f_[3]:
            fail(f"message {fid}: send and receive disagree on bytes or synchronisation")
        bytes_by_sync[s[3]] += s[4]
    stats = {x["name"]: x["intra_bytes"] + x["inter_bytes"] for x in doc.get("itcSyncs", [])}
    if not stats:
        fail("no itcSyncs (IT_STATS totals) in the trace")
    for name, b in stats.items():
        if bytes_by_sync.get(name, 0) != b:
            fail(f"synchronisation {name!r}: messages carry {bytes_by_sync.get(name, 0)} bytes, IT_STATS says {b}")

    if a.svg:
        try:
            root = ET.parse(a.svg).getroot()
        except ET.ParseError as e:
            fail(f"{a.svg} is not well-formed XML: {e}")
        if not root.tag.endswith("svg"):
            fail("the picture's root element is not <svg>")
        ns = "{http://www.w3.org/2000/svg}"
        lanes = [(int(g.get("data-rank")), int(g.get("data-tid"))) for g in root.iter(ns + "g") if g.get("class") == "lane"]
        if len(lanes) != len(set(lanes)) or set(lanes) != tracks | named:
            fail(f"SVG lanes {sorted(lanes)} are not one per trace track {sorted(tracks | named)}")
        legend = [g for g in root.iter(ns + "g") if g.get("class") == "legend"]
        texts = " ".join(t.text or "" for g in legend for t in g.iter(ns + "text"))
        for name in expected_names:
            if "stage " + name not in texts:
                fail(f"the legend lacks stage {name}")
        if sum(1 for _ in root.iter(ns + "rect")) < len(lanes) + len(expected_names):
            fail("the picture has fewer rectangles than lanes and stages")

    if a.summary:
        with open(a.summary) as f:
            text = f.read()
        for spec in a.stage:
            name, rest = spec.split("=")
            calls = rest.split(":")[0]
            if not any(l.split()[:2] == [name, calls] for l in text.splitlines()):
                fail(f"the `itc trace` summary lacks the line `{name} {calls} ...`:\n{text}")

    print(f"trace_check.py: ok: {len(events)} events, {len(tracks | named)} tracks, "
          f"{sum(stage_spans.values())} stage spans, {len(flows)} messages")


if __name__ == "__main__":
    main()
