#!/usr/bin/env bash
# benchmarks/e2e/run_bench.sh: matrix multiply and stencil compiled by itc, side by side with
# hand-written C++ (sequential, threads, MPI) on the same .bin inputs in the same run; prints
# wall times (median of REPS runs, process start and file I/O included for every variant) and
# the ratio IT / hand-written. Single-process variants run without mpirun (MPI singleton),
# multi-process ones all under mpirun. Not run by CI.
#   run_bench.sh [build-dir]   (needs itc and tests/reference's make_input/ref_check built)
# Environment: MM (matrix size, default 1024), ST (stencil size, 2048), ITER (stencil outer
# iterations, 20), REPS (3), NP (MPI processes for the distributed variants, 2).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-be}
itc=$build/tools/itc; ref=$build/tests/reference
mm=${MM:-1024}; st=${ST:-2048}; iter=${ITER:-20}; reps=${REPS:-3}; np=${NP:-2}
mpirun="mpirun --oversubscribe"; [[ $(id -u) == 0 ]] && mpirun="$mpirun --allow-run-as-root"
work=$(mktemp -d /tmp/itc-bench-XXXXXX); cd "$work"
echo "benchmarks/e2e in $work: matrix ${mm}^3, stencil ${st}^2 x $((iter * 4)) sweeps, median of $reps"
cxx="mpicxx -std=c++20 -O3 -march=native -I$root/benchmarks/e2e"
$cxx "$root/benchmarks/e2e/mm_ref.cpp" -o mm_ref -pthread
$cxx "$root/benchmarks/e2e/mm_mpi.cpp" -o mm_mpi
$cxx "$root/benchmarks/e2e/st_ref.cpp" -o st_ref -pthread
$cxx "$root/benchmarks/e2e/mpi_empty.cpp" -o mpi_empty
host=$work/host.pcubes; "$itc" machine -o "$host" >/dev/null
core=$(grep -E '^Space [0-9]+ *<[^:]*core' "$host" | sed -E 's/^Space ([0-9]+).*/\1/')
top=$(grep -E '^Space [0-9]+' "$host" | head -1 | sed -E 's/^Space ([0-9]+).*/\1/')
printf '"Block_Matrix_Multiply" { Space A: %s }\n' "$core" > mm-host.map
printf '"Five Points Stencil" { Space A: %s Space B: %s }\n' "$top" "$core" > st-host.map
cl=$root/pcubes-models/test-cluster-4.pcubes
"$itc" compile "$root/examples/matrix-multiply/matrix-multiply.it" mm-host.map --machine "$host" -o mm_it_host
"$itc" compile "$root/examples/matrix-multiply/matrix-multiply.it" "$root/examples/matrix-multiply/matrix-multiply.map" --machine "$cl" -o mm_it_cluster
"$itc" compile "$root/examples/stencil/stencil.it" st-host.map --machine "$host" -o st_it_host
"$itc" compile "$root/examples/stencil/stencil.it" "$root/examples/stencil/stencil.map" --machine "$cl" -o st_it_cluster
"$ref/make_input" -o a.bin --type float --shape ${mm}x${mm} --seed 1 --lo -1 --hi 1 >/dev/null
"$ref/make_input" -o b.bin --type float --shape ${mm}x${mm} --seed 2 --lo -1 --hi 1 >/dev/null
"$ref/make_input" -o plate.bin --type float --shape ${st}x${st} --seed 3 --lo 0 --hi 100 >/dev/null

median() { # median <command...>: median wall seconds of $reps runs
  local ts=()
  for ((i = 0; i < reps; i++)); do
    local s=$(date +%s.%N); "$@" >/dev/null 2>&1; local e=$(date +%s.%N)
    ts+=("$(echo "$e - $s" | bc -l)")
  done
  printf '%s\n' "${ts[@]}" | sort -g | sed -n "$(((reps + 1) / 2))p"
}
# row <label> <ref seconds> <IT seconds> <IT start-up seconds> [<ref start-up seconds>]
row() {
  local adj; adj=$(echo "($3 - $4) / ($2 - ${5:-0})" | bc -l)
  printf '%-48s IT %7.3f s  ref %7.3f s  IT/ref = %5.2f  (without MPI start-up: %5.2f)\n' "$1" "$3" "$2" \
    "$(echo "$3 / $2" | bc -l)" "$adj"
}
t_boot1=$(median ./mpi_empty)
t_bootn=$(median $mpirun -np $np ./mpi_empty)
echo "MPI start-up: singleton $t_boot1 s, mpirun -np $np $t_bootn s"

blk=$((mm / 4))
mmargs=(input_file_1=a.bin input_file_2=b.bin k=$blk l=$blk q=64)
t_mm_seq=$(median ./mm_ref "${mmargs[@]}" output_file=c_seq.bin)
t_mm_thr=$(median ./mm_ref "${mmargs[@]}" output_file=c_thr.bin threads=2)
t_mm_mpi=$(median $mpirun -np $np ./mm_mpi "${mmargs[@]}" output_file=c_mpi.bin)
t_mm_it1=$(median ./mm_it_host "${mmargs[@]}" output_file=c_it1.bin)
t_mm_itn=$(median $mpirun -np $np ./mm_it_cluster "${mmargs[@]}" output_file=c_itn.bin)
"$ref/ref_check" equal float:c_it1.bin float:c_seq.bin 1e-3 >/dev/null && "$ref/ref_check" equal float:c_itn.bin float:c_seq.bin 1e-3 >/dev/null
echo "matrix multiply ${mm}x${mm}x${mm} (results equal)"
printf '%-44s %8.3f s\n' "  hand-written sequential" "$t_mm_seq"
printf '%-44s %8.3f s\n' "  hand-written 2 threads" "$t_mm_thr"
printf '%-44s %8.3f s\n' "  hand-written MPI -np $np" "$t_mm_mpi"
row "  IT host mapping (1 process, 2 threads) vs threads" "$t_mm_thr" "$t_mm_it1" "$t_boot1"
row "  IT host mapping (1 process) vs sequential" "$t_mm_seq" "$t_mm_it1" "$t_boot1"
row "  IT cluster mapping (-np $np) vs MPI -np $np" "$t_mm_mpi" "$t_mm_itn" "$t_bootn" "$t_bootn"

stargs=(input_file=plate.bin iterations=$iter p1=4 p2=2 k=$((st / 2)) l=$((st / 2)) m=$((st / 4)) n=$((st / 2)))
t_st_seq=$(median ./st_ref "${stargs[@]}" output_file=s_seq.bin)
t_st_thr=$(median ./st_ref "${stargs[@]}" output_file=s_thr.bin threads=2)
t_st_it1=$(median ./st_it_host "${stargs[@]}" output_file=s_it1.bin)
t_st_itn=$(median $mpirun -np $np ./st_it_cluster "${stargs[@]}" output_file=s_itn.bin)
"$ref/ref_check" equal float:s_it1.bin float:s_seq.bin 1e-3 >/dev/null && "$ref/ref_check" equal float:s_itn.bin float:s_seq.bin 1e-3 >/dev/null
echo "stencil ${st}x${st}, $((iter * 4)) sweeps (results equal)"
printf '%-44s %8.3f s\n' "  hand-written sequential" "$t_st_seq"
printf '%-44s %8.3f s\n' "  hand-written 2 threads" "$t_st_thr"
row "  IT host mapping (1 process, 2 threads) vs threads" "$t_st_thr" "$t_st_it1" "$t_boot1"
row "  IT host mapping (1 process) vs sequential" "$t_st_seq" "$t_st_it1" "$t_boot1"
row "  IT cluster mapping (-np $np) vs threads" "$t_st_thr" "$t_st_itn" "$t_bootn"
rm -rf "$work"
