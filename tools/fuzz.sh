#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (clang-14, ASan + UBSan): configure build-fuzz/ with
# -DITC_FUZZ=ON if needed, build the fuzz targets of tests/fuzz/targets (and only the libraries
# they link), gather each target's seed corpus from the tree (tests/fuzz/gather_seeds.py) and
# run the target for SECONDS. Crashes, leaks, UB, timeouts and out-of-memory inputs are written
# to build-fuzz/fuzz-findings/TARGET/; the script exits non-zero if there are any. A finding
# becomes a regression input in tests/fuzz/regressions/TARGET/ (run by ctest, tests/fuzz).
#
# Usage: tools/fuzz.sh TARGET SECONDS     TARGET: program, machine, mapping, data or all
#   program  IT source through parse, check, plan and the backend's C++ emission (and, first,
#            frontend_fuzz's truncated and mutated examples through the sanitized parser)
#   machine  PCubeS machine files          mapping  mapping files
#   data     data files (text and binary, all four collection types) as load and bind_input read them
# Reproduce a finding: build-fuzz/tests/fuzz/targets/fuzz_TARGET FILE
# Environment: FUZZ_BUILD_DIR (default build-fuzz/), JOBS (build jobs, default 2),
#   FUZZ_FLAGS (extra libFuzzer flags, e.g. -jobs=2 or -seed=1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
jobs=${JOBS:-2}
all_targets=(program machine mapping data)
usage() { echo "usage: tools/fuzz.sh TARGET SECONDS   (TARGET: ${all_targets[*]} or all)" >&2; exit 2; }
[[ $# -eq 2 && $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || usage
case $1 in
all) targets=("${all_targets[@]}") ;;
program | machine | mapping | data) targets=("$1") ;;
*) usage ;;
esac
seconds=$2
start=$SECONDS

if [[ ! -f $build/CMakeCache.txt ]]; then
  # -O1 with line tables: fast enough to fuzz, quick to build, readable stack traces.
  CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None \
    "-DCMAKE_C_FLAGS=-O1 -gline-tables-only" "-DCMAKE_CXX_FLAGS=-O1 -gline-tables-only" \
    -DITC_FUZZ=ON >/dev/null
fi
# With the program target comes frontend_fuzz (tests/frontend/fuzz): the examples truncated and
# mutated token-wise through the parser, deterministic, here under ASan + UBSan.
extra=()
[[ " ${targets[*]} " == *" program "* ]] && extra=(frontend_fuzz)
cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}" "${extra[@]}"
echo "tools/fuzz.sh: built in $((SECONDS - start)) s"
failed=()
if ((${#extra[@]})); then
  echo "tools/fuzz.sh: frontend_fuzz (truncated and mutated examples, sanitized)"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/tests/frontend/frontend_fuzz" >"$build/frontend_fuzz.log" 2>&1 || {
    echo "tools/fuzz.sh: frontend_fuzz FAILED; the end of its log:" >&2
    tail -n 40 "$build/frontend_fuzz.log" >&2
    failed+=(frontend_fuzz)
  }
fi

# Per target: the longest input worth trying (the largest seeds are a few KiB).
declare -A max_len=([program]=16384 [machine]=4096 [mapping]=4096 [data]=8192)
# Per target: about how many inputs a second it runs here (program: parse, check, plan and
# emission under ASan, ~6/s). libFuzzer first runs the whole seed corpus, whatever SECONDS says,
# so a run takes at most SECONDS x rate seeds from the tree: CI's 20 s runs 100 program seeds,
# not all ~550 for two and a half minutes; a 600 s run takes them all.
declare -A seeds_per_second=([program]=5 [machine]=50 [mapping]=50 [data]=50)
for t in "${targets[@]}"; do
  corpus=$build/fuzz-corpus/$t       # seeds plus what the runs found; kept between runs
  findings=$build/fuzz-findings/$t
  mkdir -p "$corpus" "$findings"
  python3 "$root/tests/fuzz/gather_seeds.py" "$t" "$corpus" $((seconds * ${seeds_per_second[$t]}))
  log=$build/fuzz-findings/$t.log
  echo "tools/fuzz.sh: fuzzing $t for $seconds s (log: $log)"
  # -rss_limit_mb/-malloc_limit_mb: an input that makes the reader allocate more than 2 GiB is a
  # finding (a hostile header must be refused first); -timeout: one input may take 10 s at most.
  rc=0
  # shellcheck disable=SC2086
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/tests/fuzz/targets/fuzz_$t" "$corpus" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len="${max_len[$t]}" -print_final_stats=1 \
    -artifact_prefix="$findings/" ${FUZZ_FLAGS:-} >"$log" 2>&1 || rc=$?
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log" | sed "s/^/  $t /" || true
  found=$(find "$findings" -maxdepth 1 -type f | wc -l)
  if ((rc != 0 || found != 0)); then
    echo "tools/fuzz.sh: $t FAILED (exit $rc, $found finding(s) in $findings); the end of the log:" >&2
    tail -n 40 "$log" >&2
    failed+=("$t")
  fi
done
echo "tools/fuzz.sh: ${targets[*]} in $((SECONDS - start)) s"
if ((${#failed[@]})); then
  echo "tools/fuzz.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
