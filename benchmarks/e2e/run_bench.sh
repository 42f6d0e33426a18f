#!/usr/bin/env bash
# benchmarks/e2e/run_bench.sh: matrix multiply, stencil, LU with partial pivoting and radix sort
# compiled by itc, side by side with hand-written C++ (sequential, threads, MPI) on the same .bin
# inputs in the same run; prints wall times (median of REPS runs, process start and file I/O
# included for every variant) and the ratio IT / hand-written, raw and without the MPI start-up
# (mpi_empty's time; single-process IT programs do not start MPI, so their rows subtract
# nothing). Single-process variants run without mpirun, multi-process ones all under mpirun. Every hand-written result and every IT result is compared with the
# hand-written sequential one (ref_check equal), so a wrong result stops the run. Not run by CI.
#   run_bench.sh [build-dir]   (needs itc and tests/reference's make_input/ref_check built)
# Programs and references (benchmarks/e2e/*.cpp):
#   matrix multiply  examples/matrix-multiply           mm_ref (sequential / threads=T), mm_mpi
#   stencil          examples/stencil                   st_ref (sequential / threads=T)
#   LU               tests/e2e/programs/lu_stride.it    lu_ref (sequential / threads=T), lu_mpi
#   radix sort       examples/radix-sort                rs_ref (LSD counting sort sequential /
#                    threads=T, method=perdigit: the IT program's algorithm, method=std: std::sort),
#                    rs_mpi
# Each IT program is compiled for a host mapping (upper spaces on the whole box, the lowest on
# its cores, one process, as run_e2e.sh's host case) and for pcubes-models/test-cluster-4.pcubes
# with the program's own .map (run under mpirun -np NP); LU and radix sort also for this host
# split into NP segments that share its cores (`itc machine --segments NP`, one worker per core,
# as the hand-written MPI references run), the fair one-machine comparison with them.
# The stencil runs at the partition examples/stencil/README.md documents for one shared-memory
# box (one Space A tile, one full-width Space B band per core) and also on a copy of the host
# model with one core (parallel efficiency); its compute rate is (sweeps(ITER) - sweeps(1)) cells
# over the difference of the ITER and 1 run times, which leaves start-up and file I/O out.
# Environment: MM (matrix size, default 1024), ST (stencil size, 2048), ITER (stencil outer
# iterations of 4 sweeps, 25), LU (LU matrix size, 1024), RS (radix-sort keys, 4000000), RS_DIGITS (bits per
# round, 4), RS_BITS (key_size: keys are drawn from [0, 2^RS_BITS), 16), RS_P (radix-sort blocks
# of Space B, 8), REPS (3), NP (MPI processes for the distributed variants, 2), DP (dot-product
# length, 10000000), CG (conjugate-gradient size, 1000), MC (Monte Carlo draws per batch, 100000),
# PROGS (which programs, default "mm st lu rs dp cg mc"), RECORDS (a file that receives one
# tab-separated line per measurement: benchmarks/run.sh turns it into JSON).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build-be}" && pwd)   # absolute: the run happens in a temporary directory
itc=$build/tools/itc; ref=$build/tests/reference
mm=${MM:-1024}; st=${ST:-2048}; iter=${ITER:-25}; reps=${REPS:-3}; np=${NP:-2}
lu=${LU:-1024}; rs=${RS:-4000000}; rsd=${RS_DIGITS:-4}; rsb=${RS_BITS:-16}; rsp=${RS_P:-8}
dp=${DP:-10000000}; cg=${CG:-1000}; mc=${MC:-100000}
progs=" ${PROGS:-mm st lu rs dp cg mc} "
want() { [[ $progs == *" $1 "* ]]; }
mpirun="mpirun --oversubscribe"; [[ $(id -u) == 0 ]] && mpirun="$mpirun --allow-run-as-root"
work=$(mktemp -d /tmp/itc-bench-XXXXXX); cd "$work"
echo "benchmarks/e2e in $work ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores): programs$progs, median of $reps"
cxx="mpicxx -std=c++20 -O3 -march=native -I$root/benchmarks/e2e"
for f in mm_ref mm_mpi st_ref lu_ref lu_mpi rs_ref rs_mpi mpi_empty; do
  $cxx "$root/benchmarks/e2e/$f.cpp" -o $f -pthread
done
host=$work/host.pcubes; "$itc" machine -o "$host" >/dev/null
core=$(grep -E '^Space [0-9]+ *<[^:]*core' "$host" | sed -E 's/^Space ([0-9]+).*/\1/')
top=$(grep -E '^Space [0-9]+' "$host" | head -1 | sed -E 's/^Space ([0-9]+).*/\1/')
printf '"Block_Matrix_Multiply" { Space A: %s }\n' "$core" > mm-host.map
printf '"Five Points Stencil" { Space A: %s Space B: %s }\n' "$top" "$core" > st-host.map
printf '"Strided LU" { Space A: %s Space B: %s }\n' "$top" "$core" > lu-host.map
printf '"Radix Sort" { Space A: %s Space B: %s }\n' "$top" "$core" > rs-host.map
cl=$root/pcubes-models/test-cluster-4.pcubes
# This host split into $np MPI segments that share its cores (`itc machine --segments`): the
# one-machine MPI run, one worker per core, as the hand-written MPI references run.
hostseg=$work/host-seg.pcubes; "$itc" machine --segments "$np" -o "$hostseg" >/dev/null
segcore=$(grep -E '^Space [0-9]+ *<[^:]*core' "$hostseg" | sed -E 's/^Space ([0-9]+).*/\1/')
segtop=$(grep -E '^Space [0-9]+' "$hostseg" | head -1 | sed -E 's/^Space ([0-9]+).*/\1/')
printf '"Strided LU" { Space A: %s Space B: %s }\n' "$segtop" "$segcore" > lu-seg.map
printf '"Radix Sort" { Space A: %s Space B: %s }\n' "$segtop" "$segcore" > rs-seg.map
compile() { # compile <short name> <program.it> <cluster .map>: <short>_it_host and <short>_it_cluster
  "$itc" compile "$2" $1-host.map --machine "$host" -o $1_it_host
  "$itc" compile "$2" "$3" --machine "$cl" -o $1_it_cluster
}
# The host model cut to its first core: the same program on one worker thread.
host1=$work/host1.pcubes
sed -E "/^Space $core *</s/\(([0-9]+)\)/(1)/; s/^Processors:.*/Processors: $(grep -E '^Processors:' "$host" | sed -E 's/^Processors: *([0-9]+).*/\1/')/" "$host" >"$host1"
threads=$(grep -E "^Space $core *<" "$host" | sed -E 's/.*\(([0-9]+)\).*/\1/')
want mm && compile mm "$root/examples/matrix-multiply/matrix-multiply.it" "$root/examples/matrix-multiply/matrix-multiply.map"
if want st; then
  compile st "$root/examples/stencil/stencil.it" "$root/examples/stencil/stencil.map"
  "$itc" compile "$root/examples/stencil/stencil.it" st-host.map --machine "$host1" -o st_it_host1
fi
want lu && compile lu "$root/tests/e2e/programs/lu_stride.it" "$root/tests/e2e/programs/lu_stride.map"
want rs && compile rs "$root/examples/radix-sort/radix-sort.it" "$root/examples/radix-sort/radix-sort.map"
want lu && "$itc" compile "$root/tests/e2e/programs/lu_stride.it" lu-seg.map --machine "$hostseg" -o lu_it_seg
want rs && "$itc" compile "$root/examples/radix-sort/radix-sort.it" rs-seg.map --machine "$hostseg" -o rs_it_seg
mk() { "$ref/make_input" "$@" >/dev/null; }
if want mm; then
  mk -o a.bin --type float --shape ${mm}x${mm} --seed 1 --lo -1 --hi 1
  mk -o b.bin --type float --shape ${mm}x${mm} --seed 2 --lo -1 --hi 1
fi
want st && mk -o plate.bin --type float --shape ${st}x${st} --seed 3 --lo 0 --hi 100
want lu && mk -o lu_a.bin --type double --shape ${lu}x${lu} --seed 4 --lo -1 --hi 1
want rs && mk -o keys.bin --type int --shape $rs --seed 5 --lo 0 --hi $(((1 << rsb) - 1))
# same <type> <tol> <reference file> <files...>: every file equals the reference (else stop)
same() {
  local f; for f in "${@:4}"; do "$ref/ref_check" equal "$1:$f" "$1:$3" "$2" >/dev/null || { echo "$f differs from $3" >&2; exit 1; }; done
}

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
# rec <program> <variant> <seconds> [<rate> <unit>]: one measurement for benchmarks/run.sh's JSON
# (written to $RECORDS when it is set, tab-separated).
rec() {
  [[ -n ${RECORDS:-} ]] && printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" "${5:-}" >>"$RECORDS"
  return 0
}
t_boot1=$(median ./mpi_empty)
t_bootn=$(median $mpirun -np $np ./mpi_empty)
echo "MPI start-up: singleton $t_boot1 s, mpirun -np $np $t_bootn s"
rec "mpi start-up" "singleton" "$t_boot1"; rec "mpi start-up" "mpirun -np $np" "$t_bootn"

if want mm; then
blk=$((mm / 4))
mmargs=(input_file_1=a.bin input_file_2=b.bin k=$blk l=$blk q=64)
t_mm_seq=$(median ./mm_ref "${mmargs[@]}" output_file=c_seq.bin)
t_mm_thr=$(median ./mm_ref "${mmargs[@]}" output_file=c_thr.bin threads=2)
t_mm_mpi=$(median $mpirun -np $np ./mm_mpi "${mmargs[@]}" output_file=c_mpi.bin)
t_mm_it1=$(median ./mm_it_host "${mmargs[@]}" output_file=c_it1.bin)
t_mm_itn=$(median $mpirun -np $np ./mm_it_cluster "${mmargs[@]}" output_file=c_itn.bin)
same float 1e-3 c_seq.bin c_thr.bin c_mpi.bin c_it1.bin c_itn.bin
echo "matrix multiply ${mm}x${mm}x${mm} (results equal)"
gflops() { echo "2 * $mm * $mm * $mm / $1 / 1000000000" | bc -l; }
for v in "seq:hand-written sequential" "thr:hand-written 2 threads" "mpi:hand-written MPI -np $np" \
         "it1:IT host mapping" "itn:IT cluster mapping -np $np"; do
  t_var=t_mm_${v%%:*}; rec "matrix multiply $mm float" "${v#*:}" "${!t_var}" "$(gflops "${!t_var}")" "GFLOP/s"
done
printf '%-44s %8.3f s\n' "  hand-written sequential" "$t_mm_seq"
printf '%-44s %8.3f s\n' "  hand-written 2 threads" "$t_mm_thr"
printf '%-44s %8.3f s\n' "  hand-written MPI -np $np" "$t_mm_mpi"
row "  IT host mapping (1 process, 2 threads) vs threads" "$t_mm_thr" "$t_mm_it1" 0
row "  IT host mapping (1 process) vs sequential" "$t_mm_seq" "$t_mm_it1" 0
row "  IT cluster mapping (-np $np) vs MPI -np $np" "$t_mm_mpi" "$t_mm_itn" "$t_bootn" "$t_bootn"
fi

if want st; then
# examples/stencil/README.md, "Partition": on one box, one Space A tile (k = l = size, so Space A
# has no neighbours and its padding costs nothing) cut into one full-width Space B band per core
# (m = size / cores, n = size); across processes (the cluster mapping), Space A row bands.
stargs=(input_file=plate.bin p1=4 p2=2 k=$st l=$st m=$(((st + threads - 1) / threads)) n=$st)
# test-cluster-4 has 4 nodes of 2 cores: one row band per node, cut into 2 bands of its padded rows
band=$(((st + 3) / 4))
clargs=(input_file=plate.bin p1=4 p2=2 k=$band l=$st m=$(((band + 8 + 1) / 2)) n=$st)
sweeps=$((iter * 4))
st_time() { # st_time <out prefix> <command...>: median seconds at ITER and at 1 outer iteration
  local out=$1; shift
  echo "$(median "$@" iterations=$iter output_file=${out}.bin) $(median "$@" iterations=1 output_file=${out}_1.bin)"
}
read t_st_seq t1_st_seq <<<"$(st_time s_seq ./st_ref "${stargs[@]}")"
read t_st_thr t1_st_thr <<<"$(st_time s_thr ./st_ref "${stargs[@]}" threads=2)"
read t_st_it1 t1_st_it1 <<<"$(st_time s_it1 ./st_it_host "${stargs[@]}")"
read t_st_ic1 t1_st_ic1 <<<"$(st_time s_ic1 ./st_it_host1 "${stargs[@]}")"
read t_st_itn t1_st_itn <<<"$(st_time s_itn $mpirun -np $np ./st_it_cluster "${clargs[@]}")"
same float 1e-3 s_seq.bin s_thr.bin s_it1.bin s_ic1.bin s_itn.bin
same float 1e-3 s_seq_1.bin s_thr_1.bin s_it1_1.bin s_ic1_1.bin s_itn_1.bin
gcells() { echo "$st * $st * ($sweeps - 4) / ($1 - $2) / 1000000000" | bc -l; }
echo "stencil ${st}x${st}, $sweeps sweeps (results equal); host partition ${stargs[*]:1}"
st_row() { # st_row <label> <seconds at ITER> <seconds at 1>
  printf '%-44s %8.3f s  compute %6.2f Gcells/s\n' "$1" "$2" "$(gcells "$2" "$3")"
}
for v in "seq:hand-written sequential" "thr:hand-written 2 threads" "ic1:IT host mapping, 1 core" \
         "it1:IT host mapping" "itn:IT cluster mapping -np $np"; do
  t_var=t_st_${v%%:*}; t1_var=t1_st_${v%%:*}
  rec "stencil ${st}x${st} ${sweeps} sweeps" "${v#*:}" "${!t_var}" "$(gcells "${!t_var}" "${!t1_var}")" "Gcells/s (compute)"
done
st_row "  hand-written sequential" "$t_st_seq" "$t1_st_seq"
st_row "  hand-written 2 threads" "$t_st_thr" "$t1_st_thr"
st_row "  IT host mapping, 1 core" "$t_st_ic1" "$t1_st_ic1"
st_row "  IT host mapping, $threads cores" "$t_st_it1" "$t1_st_it1"
st_row "  IT cluster mapping -np $np (${clargs[*]:3:4})" "$t_st_itn" "$t1_st_itn"
printf '  IT host / hand-written 2 threads: compute rate %.2fx, end to end time %.2fx\n' \
  "$(echo "$(gcells "$t_st_it1" "$t1_st_it1") / $(gcells "$t_st_thr" "$t1_st_thr")" | bc -l)" \
  "$(echo "$t_st_it1 / $t_st_thr" | bc -l)"
printf '  parallel efficiency 1 -> %s cores (compute): IT %.0f%%, hand-written %.0f%%\n' "$threads" \
  "$(echo "100 * $(gcells "$t_st_it1" "$t1_st_it1") / $(gcells "$t_st_ic1" "$t1_st_ic1") / $threads" | bc -l)" \
  "$(echo "100 * $(gcells "$t_st_thr" "$t1_st_thr") / $(gcells "$t_st_seq" "$t1_st_seq") / 2" | bc -l)"
fi

if want lu; then
luargs=(matrix_file=lu_a.bin)
t_lu_seq=$(median ./lu_ref "${luargs[@]}" lu_file=lu_seq.bin pivot_file=p_seq.bin)
t_lu_thr=$(median ./lu_ref "${luargs[@]}" lu_file=lu_thr.bin pivot_file=p_thr.bin threads=2)
t_lu_mpi=$(median $mpirun -np $np ./lu_mpi "${luargs[@]}" lu_file=lu_mpi.bin pivot_file=p_mpi.bin)
t_lu_it1=$(median ./lu_it_host "${luargs[@]}" lu_file=lu_it1.bin pivot_file=p_it1.bin)
t_lu_itn=$(median $mpirun -np $np ./lu_it_cluster "${luargs[@]}" lu_file=lu_itn.bin pivot_file=p_itn.bin)
t_lu_its=$(median $mpirun -np $np ./lu_it_seg "${luargs[@]}" lu_file=lu_its.bin pivot_file=p_its.bin)
same double 1e-9 lu_seq.bin lu_thr.bin lu_mpi.bin lu_it1.bin lu_itn.bin lu_its.bin
same int 0 p_seq.bin p_thr.bin p_mpi.bin p_it1.bin p_itn.bin p_its.bin
echo "LU with partial pivoting ${lu}x${lu} (results and pivots equal)"
for v in "seq:hand-written sequential" "thr:hand-written 2 threads" "mpi:hand-written MPI -np $np" \
         "it1:IT host mapping" "itn:IT cluster mapping -np $np" "its:IT host in $np segments -np $np"; do
  t_var=t_lu_${v%%:*}; rec "LU ${lu}x${lu} double" "${v#*:}" "${!t_var}" \
    "$(echo "2 / 3 * $lu * $lu * $lu / ${!t_var} / 1000000000" | bc -l)" "GFLOP/s"
done
printf '%-44s %8.3f s\n' "  hand-written sequential" "$t_lu_seq"
printf '%-44s %8.3f s\n' "  hand-written 2 threads" "$t_lu_thr"
printf '%-44s %8.3f s\n' "  hand-written MPI -np $np" "$t_lu_mpi"
row "  IT host mapping (1 process, 2 threads) vs threads" "$t_lu_thr" "$t_lu_it1" 0
row "  IT host mapping (1 process) vs sequential" "$t_lu_seq" "$t_lu_it1" 0
row "  IT cluster mapping (-np $np) vs MPI -np $np" "$t_lu_mpi" "$t_lu_itn" "$t_bootn" "$t_bootn"
row "  IT host in $np segments (-np $np) vs MPI -np $np" "$t_lu_mpi" "$t_lu_its" "$t_bootn" "$t_bootn"
fi

if want rs; then
rsargs=(input_file=keys.bin digits=$rsd key_size=$rsb)
t_rs_seq=$(median ./rs_ref "${rsargs[@]}" output_file=k_seq.bin)
t_rs_thr=$(median ./rs_ref "${rsargs[@]}" output_file=k_thr.bin threads=2)
t_rs_pd=$(median ./rs_ref "${rsargs[@]}" output_file=k_pd.bin method=perdigit)
t_rs_std=$(median ./rs_ref "${rsargs[@]}" output_file=k_std.bin method=std)
t_rs_mpi=$(median $mpirun -np $np ./rs_mpi "${rsargs[@]}" output_file=k_mpi.bin)
t_rs_it1=$(median ./rs_it_host "${rsargs[@]}" p=$rsp output_file=k_it1.bin)
t_rs_itn=$(median $mpirun -np $np ./rs_it_cluster "${rsargs[@]}" p=$rsp output_file=k_itn.bin)
t_rs_its=$(median $mpirun -np $np ./rs_it_seg "${rsargs[@]}" p=$rsp output_file=k_its.bin)
same int 0 k_seq.bin k_thr.bin k_pd.bin k_std.bin k_mpi.bin k_it1.bin k_itn.bin k_its.bin
echo "radix sort $rs keys < 2^$rsb, $rsd bits a round ($((rsb / rsd)) rounds), p=$rsp (results equal)"
for v in "seq:hand-written LSD sequential" "thr:hand-written LSD 2 threads" "mpi:hand-written LSD MPI -np $np" \
         "pd:hand-written IT algorithm, sequential" "std:std::sort" "it1:IT host mapping" \
         "itn:IT cluster mapping -np $np" "its:IT host in $np segments -np $np"; do
  t_var=t_rs_${v%%:*}; rec "radix sort $rs keys" "${v#*:}" "${!t_var}" "$(echo "$rs / ${!t_var} / 1000000" | bc -l)" "Mkeys/s"
done
printf '%-44s %8.3f s\n' "  hand-written LSD sequential" "$t_rs_seq"
printf '%-44s %8.3f s\n' "  hand-written LSD 2 threads" "$t_rs_thr"
printf '%-44s %8.3f s\n' "  hand-written LSD MPI -np $np" "$t_rs_mpi"
printf '%-44s %8.3f s\n' "  hand-written IT algorithm, sequential" "$t_rs_pd"
printf '%-44s %8.3f s\n' "  std::sort" "$t_rs_std"
row "  IT host mapping (1 process, 2 threads) vs threads" "$t_rs_thr" "$t_rs_it1" 0
row "  IT host mapping (1 process) vs sequential" "$t_rs_seq" "$t_rs_it1" 0
row "  IT host mapping vs IT algorithm sequential" "$t_rs_pd" "$t_rs_it1" 0
row "  IT cluster mapping (-np $np) vs MPI -np $np" "$t_rs_mpi" "$t_rs_itn" "$t_bootn" "$t_bootn"
row "  IT host in $np segments (-np $np) vs MPI -np $np" "$t_rs_mpi" "$t_rs_its" "$t_bootn" "$t_bootn"
fi
# Examples measured against the sequential references of tests/reference (plain C++ loops, the
# programs the end-to-end tests check results with): IT host mapping vs sequential.
seqrow() { # seqrow <program> <short> <unit> <work>: prints and records the sequential and IT rows
  local s=t_${2}_seq i=t_${2}_it1
  echo "$1 (results equal)"
  printf '%-44s %8.3f s\n' "  sequential reference (tests/reference)" "${!s}"
  row "  IT host mapping (1 process, $threads threads) vs sequential" "${!s}" "${!i}" 0
  rec "$1" "sequential reference" "${!s}" "$(echo "$4 / ${!s}" | bc -l)" "$3"
  rec "$1" "IT host mapping" "${!i}" "$(echo "$4 / ${!i}" | bc -l)" "$3"
}
if want dp; then
  printf '"Dot Product" { Space A: %s Space B: %s }\n' "$top" "$core" >dp-host.map
  "$itc" compile "$root/examples/dot-product/dot-product.it" dp-host.map --machine "$host" -o dp_it_host
  mk -o u.bin --type double --shape $dp --seed 6 --lo -1 --hi 1
  mk -o v.bin --type double --shape $dp --seed 7 --lo -1 --hi 1
  dpargs=(u_file=u.bin v_file=v.bin p=$((threads * 4)))
  t_dp_seq=$(median "$ref/ref_dot_product" "${dpargs[@]}" output_file=d_seq.txt)
  t_dp_it1=$(median ./dp_it_host "${dpargs[@]}" output_file=d_it1.txt)
  "$ref/ref_check" equal d_it1.txt d_seq.txt 1e-6 >/dev/null || { echo "dot product differs" >&2; exit 1; }
  seqrow "dot product of $dp doubles" dp "Gelements/s" "$dp / 1000000000"
fi
if want cg; then
  for t in "Start CG" "Matrix Vector Product" "Dot Product" "Update Solution"; do
    printf '"%s" { Space A: %s Space B: %s }\n' "$t" "$top" "$core"
  done >cg-host.map
  printf '"Update Direction" { Space A: %s }\n' "$core" >>cg-host.map
  "$itc" compile "$root/examples/conjugate-gradient/conjugate-gradient.it" cg-host.map --machine "$host" -o cg_it_host
  mk -o cg_a.bin --type double --shape ${cg}x${cg} --kind spd --seed 8 --lo -1 --hi 1
  mk -o cg_b.bin --type double --shape $cg --seed 9 --lo -1 --hi 1
  cgargs=(matrix_file=cg_a.bin rhs_file=cg_b.bin tolerance=1e-8 max_iterations=$cg p=$((threads * 4)) q=$threads c=$threads)
  t_cg_seq=$(median "$ref/ref_cg" "${cgargs[@]}" solution_file=x_seq.txt summary_file=cs_seq.txt)
  t_cg_it1=$(median ./cg_it_host "${cgargs[@]}" solution_file=x_it1.txt summary_file=cs_it1.txt)
  "$ref/ref_check" equal x_it1.txt x_seq.txt 1e-6 >/dev/null || { echo "CG solution differs" >&2; exit 1; }
  iters=$(sed -n 2p cs_seq.txt | awk '{print $1}')
  seqrow "conjugate gradient ${cg}x${cg}, $iters iterations" cg "GFLOP/s" "2 * $cg * $cg * $iters / 1000000000"
fi
if want mc; then
  printf '"Estimate Pi" { Space A: %s Space B: %s }\n' "$top" "$core" >mc-host.map
  "$itc" compile "$root/examples/monte-carlo/monte-carlo.it" mc-host.map --machine "$host" -o mc_it_host
  mcargs=(batches=$((threads * 16)) draws=$mc seed=2024 max_rounds=20 tolerance=0 keep=5 p=$((threads * 4)))
  t_mc_seq=$(median "$ref/ref_monte_carlo" "${mcargs[@]}" output_file=pi_seq.txt lpu_file=l_seq.txt history_file=h_seq.txt)
  t_mc_it1=$(median ./mc_it_host "${mcargs[@]}" output_file=pi_it1.txt lpu_file=l_it1.txt history_file=h_it1.txt)
  "$ref/ref_check" equal pi_it1.txt pi_seq.txt 0 >/dev/null || { echo "Monte Carlo differs" >&2; exit 1; }
  seqrow "Monte Carlo pi, 20 rounds of $((threads * 16)) x $mc draws" mc "Mdraws/s" "20 * $threads * 16 * $mc / 1000000"
fi
rm -rf "$work"
