#!/usr/bin/env bash
# bench_smoke.sh WORK: benchmarks/run.sh at tiny sizes, so that the one benchmark command keeps
# working: every program builds, every result equals its reference (run_bench.sh stops
# otherwise), and the JSON holds an IT measurement and a reference measurement for each program.
set -euo pipefail
work=${1:?work dir}; root=${ROOT:?}; build=${BUILD:?}
mkdir -p "$work" && cd "$work"
MM=64 ST=64 ITER=2 LU=32 RS=2000 RS_BITS=8 RS_P=4 DP=1000 CG=24 MC=200 REPS=1 NP=2 OUT=$work/bench.json \
  "$root/benchmarks/run.sh" "$build" >bench.log 2>&1 || { cat bench.log; exit 1; }
python3 - "$work/bench.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
programs = {}
for r in doc["results"]:
    programs.setdefault(r["program"].split(" ")[0], []).append(r)
bad = 0
for p in ["matrix", "stencil", "LU", "radix", "dot", "conjugate", "Monte"]:
    rows = programs.get(p, [])
    it = [r for r in rows if r["variant"].startswith("IT ")]
    ref = [r for r in rows if not r["variant"].startswith("IT ")]
    if not it or not ref or any(r["seconds"] <= 0 or r["time_ratio_to_sequential"] is None for r in it):
        print(f"bench_smoke: {p}: missing or incomplete measurements: {rows}")
        bad = 1
print(f"bench_smoke: {len(doc['results'])} measurements, cpu {doc['cpu']!r}, {doc['cores']} cores")
sys.exit(bad)
PY
