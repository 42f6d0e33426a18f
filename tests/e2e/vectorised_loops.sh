#!/usr/bin/env bash
# vectorised_loops.sh: the innermost loops that itc emits for stages that are not BLAS calls
# compile to SIMD code. Compiles examples/stencil (stage refineEstimates),
# examples/matrix-multiply with --no-blas (stage multiplyMatrices) and tests/e2e/programs/lu_stride
# (stage eliminate: the rows of a stride() part, each row contiguous) for the test cluster model
# with ITC_CXXFLAGS=-fopt-info-vec-optimized, finds the innermost `for (int64_t j` loop of that
# stage in the emitted C++ and requires GCC's "loop vectorized" report for that very line in the
# compiler log that --emit-cpp keeps.
#   vectorised_loops.sh <work-dir>     Environment: ITC, ROOT
set -euo pipefail
work=${1:?work dir}
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
itc=${ITC:?ITC must name the itc binary}
machine=$root/pcubes-models/test-cluster-4.pcubes
rm -rf "$work" && mkdir -p "$work" && cd "$work"
check() { # check <program dir> <name> <stage> [itc flags...]
  local dir=$1 ex=$2 stage=$3
  ITC_CXXFLAGS=-fopt-info-vec-optimized "$itc" compile "$dir/$ex.it" "$dir/$ex.map" \
    --machine "$machine" -o "$ex" --emit-cpp "cpp-$ex" "${@:4}"
  local cpp=cpp-$ex/$ex.cpp log=cpp-$ex/$ex.mpicxx.log line
  line=$(awk -v s="static void stage_${stage}_" 'index($0, s) { in_stage = 1 }
    in_stage && /for \(int64_t j = / { print NR; exit }' "$cpp")
  [[ -n $line ]] || { echo "$ex: no j loop in stage $stage of $cpp" >&2; exit 1; }
  if grep -qE "$ex\.cpp:$line:[0-9]+: optimized: loop vectorized" "$log"; then
    echo "$ex: the inner loop of $stage ($cpp:$line) is vectorized: $(grep -E "$ex\.cpp:$line:" "$log" | head -3 | tr '\n' ' ')"
  else
    echo "$ex: the inner loop of $stage ($cpp:$line) is not vectorized; GCC said:" >&2
    grep -E "$ex\.cpp:$line:" "$log" >&2 || true
    exit 1
  fi
}
check "$root/examples/stencil" stencil refineEstimates
check "$root/examples/matrix-multiply" matrix-multiply multiplyMatrices --no-blas
check "$root/tests/e2e/programs" lu_stride eliminate
