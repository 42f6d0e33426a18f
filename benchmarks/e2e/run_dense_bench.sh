#!/usr/bin/env bash
# benchmarks/e2e/run_dense_bench.sh: the block matrix multiply of examples/matrix-multiply, in
# float and in double (the example with `Real double-precision` arrays), compiled by itc for a
# host mapping (one process, Space A on the cores: 2 worker threads on a 2-core box) with its
# stage as an OpenBLAS call (the default) and as loops (--no-blas), against one OpenBLAS
# gemm call on 2 threads (mm_blas.cpp) on the same .bin inputs. Prints, median of REPS runs:
#   end to end   wall seconds of each program (process start, reading a and b, writing c);
#   compute      OpenBLAS: the gemm call; IT: ITRT_DENSE_STATS's time from the start of the
#                first BLAS call to the end of the last (all LPUs' stage calls, both threads);
# and the ratios, end to end also without the MPI start-up of the IT program (mpi_empty's time:
# the OpenBLAS program is not an MPI program). Each IT result is compared with OpenBLAS's (ref_check equal), so a wrong
# result stops the run. Not run by CI.
#   run_dense_bench.sh [build-dir]   (needs itc and tests/reference's make_input/ref_check)
# Environment: MM (matrix size, default 2048), K_BLOCK (block of c per LPU, MM/4: 16 LPUs),
# Q (sub-partition size along the summed dimension, 256), REPS (3), ELEMENTS ("float double"),
# LOOPS (1: also time the --no-blas build), BLAS_THREADS (also time the BLAS build with
# OPENBLAS_NUM_THREADS set to this, e.g. 2; default unset: not timed).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
itc=$build/tools/itc; ref=$build/tests/reference
mm=${MM:-2048}; blk=${K_BLOCK:-$((mm / 4))}; q=${Q:-256}; reps=${REPS:-3}
elements=${ELEMENTS:-float double}; loops=${LOOPS:-1}
work=$(mktemp -d /tmp/itc-dense-bench-XXXXXX); cd "$work"
echo "run_dense_bench.sh in $work ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores): ${mm}^3, blocks ${blk}x${blk}, q=$q, median of $reps"
blasinc=$(dirname "$(find /usr/include -name openblas_config.h | head -1)")
g++ -std=c++20 -O3 -march=native -I"$root/benchmarks/e2e" -I"$blasinc" "$root/benchmarks/e2e/mm_blas.cpp" -o mm_blas -lopenblas
mpicxx -std=c++20 -O3 "$root/benchmarks/e2e/mpi_empty.cpp" -o mpi_empty

host=$work/host.pcubes; "$itc" machine -o "$host" >/dev/null
core=$(grep -E '^Space [0-9]+ *<[^:]*core' "$host" | sed -E 's/^Space ([0-9]+).*/\1/')
printf '"Block_Matrix_Multiply" { Space A: %s }\n' "$core" > host.map
cp "$root/examples/matrix-multiply/matrix-multiply.it" mm_float.it
sed 's/Real single-precision/Real double-precision/' mm_float.it > mm_double.it

median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }
# timed <out-prefix> <command...>: runs REPS times; sets T_WALL (median wall seconds) and
# T_LOG (the stderr of the last run)
timed() {
  local walls=() i s e
  for ((i = 0; i < reps; i++)); do
    s=$(date +%s.%N); "${@:2}" >/dev/null 2>"$1.err"; e=$(date +%s.%N)
    walls+=("$(echo "$e - $s" | bc -l)")
    cp "$1.err" "$1.err.$i"
  done
  T_WALL=$(median "${walls[@]}")
}
# the median of a number printed on stderr (sed expression) over the REPS runs of <prefix>
stat_median() {
  local v=() i; for ((i = 0; i < reps; i++)); do v+=("$(sed -nE "$2" "$1.err.$i" | head -1)"); done
  median "${v[@]}"
}
gflops() { echo "2 * $mm^3 / $1 / 1000000000" | bc -l; }
timed boot ./mpi_empty
boot=$T_WALL
echo "MPI start-up (singleton): $boot s"

for el in $elements; do
  tol=1e-3; [[ $el == double ]] && tol=1e-9
  "$ref/make_input" -o a_$el.bin --type $el --shape ${mm}x${mm} --seed 1 --lo -1 --hi 1 >/dev/null
  "$ref/make_input" -o b_$el.bin --type $el --shape ${mm}x${mm} --seed 2 --lo -1 --hi 1 >/dev/null
  "$itc" compile mm_$el.it host.map --machine "$host" -o it_blas_$el
  [[ $loops == 1 ]] && "$itc" compile mm_$el.it host.map --machine "$host" -o it_loops_$el --no-blas
  args=(input_file_1=a_$el.bin input_file_2=b_$el.bin)
  itargs=("${args[@]}" k=$blk l=$blk q=$q)

  timed ref_$el ./mm_blas "${args[@]}" element=$el threads=2 output_file=c_ref_$el.bin
  ref_wall=$T_WALL; ref_gemm=$(stat_median ref_$el 's/^gemm ([0-9.]+) s$/\1/p')
  ITRT_DENSE_STATS=1 timed it_$el ./it_blas_$el "${itargs[@]}" output_file=c_it_$el.bin
  it_wall=$T_WALL; it_comp=$(stat_median it_$el 's/.*first call to last ([0-9.]+) s.*/\1/p')
  "$ref/ref_check" equal $el:c_it_$el.bin $el:c_ref_$el.bin $tol >/dev/null || { echo "IT ($el) differs from OpenBLAS" >&2; exit 1; }
  echo "matrix multiply ${mm}^3 $el, 1 process x 2 threads (results equal)"
  printf '  %-44s end to end %7.3f s  compute %7.4f s (%6.1f GFLOP/s)\n' "OpenBLAS gemm, 2 threads" "$ref_wall" "$ref_gemm" "$(gflops "$ref_gemm")"
  printf '  %-44s end to end %7.3f s  compute %7.4f s (%6.1f GFLOP/s)\n' "IT, BLAS stage (OpenBLAS 1 thread per call)" "$it_wall" "$it_comp" "$(gflops "$it_comp")"
  printf '  %-44s end to end %5.2f (without MPI start-up %5.2f)  compute %5.2f: %3.0f%% of OpenBLAS speed\n' \
    "  IT / OpenBLAS" "$(echo "$it_wall / $ref_wall" | bc -l)" "$(echo "($it_wall - $boot) / $ref_wall" | bc -l)" \
    "$(echo "$it_comp / $ref_gemm" | bc -l)" "$(echo "100 * $ref_gemm / $it_comp" | bc -l)"
  if [[ -n ${BLAS_THREADS:-} ]]; then
    OPENBLAS_NUM_THREADS=$BLAS_THREADS ITRT_DENSE_STATS=1 timed itt_$el ./it_blas_$el "${itargs[@]}" output_file=c_itt_$el.bin
    itt_comp=$(stat_median itt_$el 's/.*first call to last ([0-9.]+) s.*/\1/p')
    printf '  %-44s end to end %7.3f s  compute %7.4f s (%6.1f GFLOP/s)\n' "IT, BLAS stage, OPENBLAS_NUM_THREADS=$BLAS_THREADS" "$T_WALL" "$itt_comp" "$(gflops "$itt_comp")"
  fi
  if [[ $loops == 1 ]]; then
    timed itl_$el ./it_loops_$el "${itargs[@]}" output_file=c_itl_$el.bin
    "$ref/ref_check" equal $el:c_itl_$el.bin $el:c_ref_$el.bin $tol >/dev/null || { echo "IT loops ($el) differ from OpenBLAS" >&2; exit 1; }
    printf '  %-44s end to end %7.3f s  (%5.2f x OpenBLAS)\n' "IT, loops (--no-blas)" "$T_WALL" "$(echo "$T_WALL / $ref_wall" | bc -l)"
  fi
done
rm -rf "$work"
