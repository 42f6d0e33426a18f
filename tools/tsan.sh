#!/usr/bin/env bash
# The runtime under ThreadSanitizer: configure a separate build dir with -DITC_TSAN=ON, build only
# libitrt and the runtime tests, and run them with TSAN_OPTIONS halting at the first report
# (tests/tsan.supp names Open MPI frames only). Then compile two IT programs (lu_stride, and
# concurrent_tasks, whose tasks run at once) with the normal build's itc against the TSan-built
# libitrt and run them at np 1 through tests/e2e/run_e2e.sh.
#
# Usage: tools/tsan.sh [--all]
#   default: the engine's loopback unit tests, engine MPI tests at np 1 and 2, task flow tests at
#            np 1 and 2, the two smoke tests (what CI runs, about 3 minutes on 2 cores)
#   --all:   every runtime_engine and runtime_task test (np 4, the error paths) and the smoke test
# Environment: TSAN_BUILD_DIR (default build-tsan/), BUILD_DIR (the normal build that has itc and
#   tests/reference's tools, default build/; without them the smoke test is skipped with a
#   notice), JOBS (default 2), TSAN_TIME_LIMIT (seconds for all the tests, default 600).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tsan=${TSAN_BUILD_DIR:-$root/build-tsan}
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-2}
limit=${TSAN_TIME_LIMIT:-600}
all=0
case ${1:-} in
--all) all=1 ;;
"") ;;
*) echo "usage: tools/tsan.sh [--all]" >&2; exit 2 ;;
esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} # one machine: shared memory, no UCX probe (tools/test.sh)
start=$SECONDS

cmake -S "$root" -B "$tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DITC_TSAN=ON >/dev/null
cmake --build "$tsan" -j "$jobs" --target itrt_task itrt_data itrt_engine itrt_engine_unit_tests \
  itrt_engine_mpi_tests itrt_engine_fail_program itrt_task_flow_test
echo "tools/tsan.sh: built in $((SECONDS - start)) s"

if ((all)); then
  tests='^runtime_(engine|task)\.'
else
  tests='^runtime_engine\.([A-Z]|mpi\.np[12]$)|^runtime_task\.flow\.np[12]$'
fi
(cd "$tsan" && timeout "$limit" ctest --output-on-failure -j "$jobs" -R "$tests")

# Compiled IT programs at np 1 against the instrumented runtime.
itc=${ITC:-$build/tools/itc}
ref=${REF_DIR:-$build/tests/reference}
for program in lu_stride concurrent_tasks; do
  if [[ -x $itc && -x $ref/make_input && -x $ref/ref_check && -x $ref/ref_$program ]]; then
    work=$tsan/e2e/$program
    rm -rf "$work"   # run_e2e.sh caches the program; always compile against the current libitrt
    ITC="$itc" REF_DIR="$ref" ROOT="$root" \
      ITC_CXXFLAGS="-fsanitize=thread -g -O1" ITC_RUNTIME_LIBS="$(cat "$tsan/itrt_link_args.txt")" \
      TSAN_OPTIONS="suppressions=$root/tests/tsan.supp:halt_on_error=1:second_deadlock_stack=1" \
      timeout "$limit" "$root/tests/e2e/run_e2e.sh" $program 1 cluster small "$work"
  else
    echo "tools/tsan.sh: no itc or tests/reference tools in $build (run tools/test.sh first);" \
      "skipping the compiled-program smoke test of $program"
  fi
done
echo "tools/tsan.sh: clean under ThreadSanitizer ($((SECONDS - start)) s)"
