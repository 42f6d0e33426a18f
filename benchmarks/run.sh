#!/usr/bin/env bash
# benchmarks/run.sh [build-dir]: every benchmark in one run. Compiles the examples with itc and
# runs them side by side with hand-written references doing the same work (sequential, threads,
# MPI, and for the examples without hand-written parallel versions the sequential references
# of tests/reference), checks every result against the sequential one, prints the table of
# benchmarks/e2e/run_bench.sh (times, rates, ratios) and writes the same measurements as JSON to
# $OUT (default ./bench-results.json): the machine, then one entry per program and variant with
# seconds, rate, unit and the ratio to the program's sequential reference.
# Sizes and the programs run come from run_bench.sh's environment variables (MM, ST, ITER, LU,
# RS, DP, CG, MC, REPS, NP, PROGS). Needs the build (itc, tests/reference) and bc. Not run by CI
# at full size; tests/e2e/bench_smoke.sh runs it at tiny sizes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${OUT:-$PWD/bench-results.json}
records=$(mktemp /tmp/itc-bench-records-XXXXXX)
trap 'rm -f "$records"' EXIT
RECORDS=$records "$root/benchmarks/e2e/run_bench.sh" "$build"
python3 - "$records" "$out" <<'PY'
import json, os, platform, sys, time
records, out = sys.argv[1], sys.argv[2]
cpu = ""
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
except OSError:
    pass
rows = []
for line in open(records):
    program, variant, seconds, rate, unit = (line.rstrip("\n").split("\t") + [""] * 5)[:5]
    rows.append({"program": program, "variant": variant, "seconds": float(seconds),
                 "rate": float(rate) if rate else None, "unit": unit or None})
for r in rows:  # the ratio to the program's sequential reference, when it has one
    seq = [q for q in rows if q["program"] == r["program"] and "sequential" in q["variant"]
           and ("hand-written" in q["variant"] or "reference" in q["variant"])
           and "IT algorithm" not in q["variant"]]
    r["time_ratio_to_sequential"] = r["seconds"] / seq[0]["seconds"] if seq else None
doc = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "host": platform.node(),
       "cpu": cpu, "cores": os.cpu_count(), "results": rows}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
print(f"benchmarks/run.sh: {len(rows)} measurements written to {out}")
PY
