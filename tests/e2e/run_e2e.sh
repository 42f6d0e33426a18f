#!/usr/bin/env bash
# run_e2e.sh: one end-to-end check of an examples/ program: compile it with itc (once per
# mapping, cached in the work dir), make seeded inputs with tests/reference's generator, run it
# under `mpirun -np N` (np 1: without mpirun) and compare with the independent sequential
# reference.
#
#   run_e2e.sh <example> <np> <cluster|host|segments|custom> <size> <work-dir>
#
# cluster: examples/<ex>/<ex>.map on pcubes-models/test-cluster-4.pcubes (4 segments x 2 cores)
# host:    a single-process mapping generated for the machine `itc machine` writes for this box
# segments: the same mapping on this box described as two MPI segments (`itc machine --segments 2`)
# custom:  the machine file E2E_MACHINE and the mapping file E2E_MAP (trying a program elsewhere)
# size:    small | uneven | medium (uneven sizes do not divide by the partition arguments),
#          or compile (only build the program)
# Environment: ITC, REF_DIR (tests/reference build dir), ROOT (source root), MPIRUN,
#              IT_STATS_CHECK=1 to also check IT_STATS (stencil ghost volume, matmul memory,
#              lu_stride and spmv_siblings movement volumes).
set -euo pipefail
ex=${1:?example}; np=${2:?np}; mapping=${3:?cluster|host}; size=${4:?size}; work=${5:?work dir}
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
itc=${ITC:?ITC must name the itc binary}
ref=${REF_DIR:?REF_DIR must name the tests/reference build dir}
mpirun=${MPIRUN:-mpirun --oversubscribe}
[[ $(id -u) == 0 ]] && mpirun="$mpirun --allow-run-as-root"
src=$root/examples/$ex
[[ -d $src ]] || src=$root/tests/e2e/programs   # test programs that are not examples
mkdir -p "$work"
cd "$work"

# -- the program, compiled once per mapping --------------------------------------------------
if [[ $mapping == custom ]]; then
  # another machine model and mapping, for trying a program elsewhere: E2E_MACHINE, E2E_MAP
  machine=${E2E_MACHINE:?custom needs E2E_MACHINE}
  map=${E2E_MAP:?custom needs E2E_MAP}
elif [[ $mapping == cluster ]]; then
  machine=$root/pcubes-models/test-cluster-4.pcubes
  map=$src/$ex.map
else
  machine=$work/$mapping.pcubes
  if [[ ! -f $machine ]]; then
    if [[ $mapping == segments ]]; then "$itc" machine --segments 2 -o "$machine" >/dev/null
    else "$itc" machine -o "$machine" >/dev/null; fi
  fi
  top=$(grep -E '^Space [0-9]+' "$machine" | head -1 | sed -E 's/^Space ([0-9]+).*/\1/')
  core=$(grep -E '^Space [0-9]+ *<[^:]*core' "$machine" | sed -E 's/^Space ([0-9]+).*/\1/')
  # upper spaces on the whole box, the lowest space on its cores; one process (segments: this
  # box as two processes sharing its cores, `itc machine --segments 2`)
  map=$work/$mapping.map
  case $ex in
  vector-add) printf '"Vector Addition" { Space A: %s }\n' "$core" >"$map" ;;
  moving-average) printf '"Moving Average" { Space A: %s }\n' "$core" >"$map" ;;
  dot-product) printf '"Dot Product" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  matrix-multiply) printf '"Block_Matrix_Multiply" { Space A: %s }\n' "$core" >"$map" ;;
  stencil) printf '"Five Points Stencil" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  row-max) printf '"Largest Row Sum" { Space A: %s Space B: %s Space C: %s }\n' "$top" "$top" "$core" >"$map" ;;
  converge) printf '"Converge" { Space A: %s }\n' "$core" >"$map" ;;
  heat_converge) printf '"Heat 1D" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  operators) printf '"Ops" { Space A: %s }\n' "$core" >"$map" ;;
  power_iteration) printf '"Multiply" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  coordinator_arrays) printf '"Scale" { Space A: %s }\n"Scale Rows" { Space A: %s }\n' "$core" "$core" >"$map" ;;
  particles) printf '"Make Particles" { Space A: %s }\n"Move Particles" { Space A: %s }\n' "$core" "$core" >"$map" ;;
  nested) printf '"Nested Blocks" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  radix-sort) printf '"Radix Sort" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  pivot_rows) printf '"Pivot Rows" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  strided_handover) printf '"Deal" { Space A: %s }\n"Blocks" { Space A: %s }\n' "$core" "$core" >"$map" ;;
  lu_stride) printf '"Strided LU" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  block_lu) printf '"Block Cyclic LU" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  prefix_scan) printf '"Prefix Scan" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  epoch_partial) printf '"Partial Relaxation" { Space A: %s }\n' "$core" >"$map" ;;
  epoch_lag2) printf '"Three Level Recurrence" { Space A: %s }\n' "$core" >"$map" ;;
  row_sum3) printf '"Three Level Row Sums" { Space A: %s Space B: %s Space C: %s }\n' "$top" "$top" "$core" >"$map" ;;
  spmv_siblings) printf '"Sibling SpMV" { Space A: %s Space B: %s }\n' "$core" "$core" >"$map" ;;
  replicated_where) printf '"Replicated Row" { Space A: %s }\n' "$core" >"$map" ;;
  sections) printf '"Sections" { Space A: %s }\n' "$core" >"$map" ;;
  function_sections) printf '"Double" { Space A: %s }\n' "$core" >"$map" ;;
  static_globals) printf '"Static Globals" { Space A: %s }\n' "$core" >"$map" ;;
  array_values) printf '"Array Values" { Space A: %s }\n' "$core" >"$map" ;;
  shape_uses) printf '"Shape Uses" { Space A: %s Space B: %s }\n' "$core" "$core" >"$map" ;;
  local_loops) printf '"Local Loops" { Space A: %s }\n' "$core" >"$map" ;;
  env_functions) printf '"Scale" { Space A: %s }\n' "$core" >"$map" ;;
  section_targets) printf '"Sum Rows" { Space A: %s }\n' "$core" >"$map" ;;
  move_order) printf '"Move Order" { Space A: %s Space B: %s Space C: %s }\n' "$top" "$core" "$core" >"$map" ;;
  flow_functions) printf '"Flow Functions" { Space A: %s }\n' "$core" >"$map" ;;
  loop_scalars) printf '"Loop Scalars" { Space A: %s Space B: %s Space C: %s Space D: %s }\n' "$top" "$core" "$core" "$core" >"$map" ;;
  strided_parents) printf '"Strided Parents" { Space A: %s Space B: %s Space C: %s Space D: %s }\n' "$top" "$core" "$top" "$core" >"$map" ;;
  strided_functions) printf '"Strided Functions" { Space A: %s Space B: %s }\n' "$core" "$core" >"$map" ;;
  skipped_levels) printf '"Skipped Levels" { Space A: %s Space B: %s Space C: %s }\n' "$top" "$core" "$core" >"$map" ;;
  view_chain) printf '"Scale" { Space A: %s }\n' "$core" >"$map" ;;
  entry_ties) printf '"Entry Ties" { Space A: %s Space B: %s Space C: %s Space D: %s }\n' "$core" "$core" "$core" "$core" >"$map" ;;
  foreach_conditions) printf '"Piece Conditions" { Space A: %s }\n' "$core" >"$map" ;;
  epoch_history) printf '"Epoch History" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  later_writes) printf '"Later Writes" { Space A: %s }\n' "$core" >"$map" ;;
  foreach_whole) printf '"Whole Turns" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  guarded_epochs) printf '"Guarded Epochs" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  bool_arrays) printf '"Signs" { Space A: %s }\n' "$core" >"$map" ;;
  field_args) printf '"Scale" { Space A: %s }\n' "$core" >"$map" ;;
  env_static) printf '"Fixed" { Space A: %s }\n' "$core" >"$map" ;;
  sibling_writers) printf '"Sibling Writers" { Space A: %s Space B: %s }\n' "$core" "$core" >"$map" ;;
  stage_forms) printf '"Stage Forms" { Space A: %s }\n"Warm Up" { Space A: %s }\n' "$core" "$core" >"$map" ;;
  part_functions) printf '"Part Functions" { Space A: %s Space B: %s }\n' "$core" "$core" >"$map" ;;
  env_values) printf '"Values" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  list_arrays) printf '"Row Lists" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  reduce_operator) printf '"Reduce With Operator" { Space A: %s }\n' "$core" >"$map" ;;
  subpartition_space) printf '"Chunk Pieces" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  subpartition_levels) printf '"Chunk Halves" { Space A: %s Space B: %s Space C: %s }\n' "$top" "$core" "$core" >"$map" ;;
  inverted) printf '"Reverse Ramp" { Space A: %s Space B: %s }\n' "$core" "$core" >"$map" ;;
  concurrent_tasks) printf '"Relax" { Space A: %s }\n"Total" { Space A: %s Space B: %s }\n' "$core" "$core" "$top" >"$map" ;;
  env_chain) printf '"Double" { Space A: %s }\n"Add" { Space A: %s }\n' "$core" "$core" >"$map" ;;
  cg_csr)
    printf '"CSR Matrix Vector Product" { Space A: %s }\n"Vector Addition" { Space A: %s }\n' "$core" "$core" >"$map"
    printf '"Dot Product" { Space A: %s Space B: %s }\n' "$top" "$core" >>"$map" ;;
  lists) printf '"Keep Largest" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  monte-carlo) printf '"Estimate Pi" { Space A: %s Space B: %s }\n' "$top" "$core" >"$map" ;;
  padded_deal) printf '"Padded Deal" { Space A: %s Space B: %s }\n' "$core" "$core" >"$map" ;;
  foreach_peaks) printf '"Chunk Peaks" { Space A: %s Space B: %s }\n' "$core" "$core" >"$map" ;;
  env_scalars)
    printf '"Mark" { Space A: %s Space B: %s }\n"Shift" { Space A: %s Space B: %s }\n' "$top" "$core" "$core" "$top" >"$map" ;;
  env_views)
    for t in Double "Scale Column" "Shift Block" "Row Total"; do printf '"%s" { Space A: %s }\n' "$t" "$core"; done >"$map" ;;
  lu-factorization)
    printf '"Initiate LU" { Space A: %s }\n"SAXPY" { Space A: %s }\n' "$core" "$core" >"$map"
    printf '"Transposed LU Factorization" { Space A: %s Space B: %s }\n' "$top" "$core" >>"$map" ;;
  conjugate-gradient)
    for t in "Start CG" "Matrix Vector Product" "Dot Product" "Update Solution"; do
      printf '"%s" { Space A: %s Space B: %s }\n' "$t" "$top" "$core"
    done >"$map"
    printf '"Update Direction" { Space A: %s }\n' "$core" >>"$map" ;;
  *) echo "run_e2e.sh: no host mapping for $ex" >&2; exit 2 ;;
  esac
fi
prog=$work/prog-$mapping
[[ $size == compile ]] && rm -f "$prog"   # the compile fixture always compiles afresh
if [[ ! -x $prog ]]; then
  "$itc" compile "$src/$ex.it" "$map" --machine "$machine" -o "$prog" --emit-cpp "$work/cpp-$mapping"
fi

[[ $size == compile ]] && { echo "run_e2e.sh: compiled $ex for $mapping"; exit 0; }

# -- inputs, arguments and the comparison per example and size ---------------------------------
mk() { "$ref/make_input" "$@" >/dev/null; }
chk() { "$ref/ref_check" "$@"; }
# Every run reports its synchronisations (IT_STATS); they are compared with itc plan at the end.
rm -f run_stats.txt
# At np 1 the program runs as users start one process, without mpirun: it must then do without
# MPI (runtime/engine/runtime.h), which a PML that does not exist proves (MPI_Init would fail).
# mpirun -np 1 is run by run_by_hand.sh and run_errors.sh.
run() {
  local rc=0
  if ((np == 1)); then
    echo "+ $(basename "$prog") $*"
    IT_STATS=1 OMPI_MCA_pml=no-such-pml "$prog" "$@" 2>run_err.txt || rc=$?
  else
    echo "+ mpirun -np $np $(basename "$prog") $*"
    IT_STATS=1 $mpirun -np "$np" "$prog" "$@" 2>run_err.txt || rc=$?
  fi
  cat run_err.txt >&2
  cat run_err.txt >>run_stats.txt
  return $rc
}
case $ex:$size in
vector-add:small) n=1000 p=8 ;; vector-add:uneven) n=997 p=6 ;; vector-add:medium) n=100000 p=16 ;;
moving-average:small) n=1000 p=8 lag=3 ;; moving-average:uneven) n=997 p=7 lag=5 ;;
moving-average:medium) n=100000 p=16 lag=9 ;;
dot-product:small) n=1000 p=8 ;; dot-product:uneven) n=997 p=7 ;; dot-product:medium) n=100000 p=16 ;;
matrix-multiply:small) r=48 c=36 inner=40 k=12 l=9 q=8 ;;
matrix-multiply:uneven) r=97 c=131 inner=89 k=20 l=33 q=16 ;;
matrix-multiply:medium) r=256 c=256 inner=256 k=64 l=64 q=32 ;;
stencil:small) r=40 c=36 it=3 p1=4 p2=2 k=10 l=12 m=7 n=8 ;;
stencil:uneven) r=97 c=131 it=2 p1=4 p2=2 k=25 l=40 m=9 n=11 ;;
stencil:medium) r=256 c=256 it=4 p1=4 p2=2 k=64 l=64 m=32 n=32 ;;
conjugate-gradient:small) n=40 p=8 q=4 c=2 ;; conjugate-gradient:uneven) n=97 p=7 q=3 c=2 ;;
conjugate-gradient:medium) n=200 p=8 q=4 c=2 ;;
nested:small) n=48 p=4 q=3 ;; nested:uneven) n=97 p=7 q=3 ;; nested:medium) n=10000 p=4 q=8 ;;
converge:small) n=40 p=8 ;; converge:uneven) n=97 p=7 ;; converge:medium) n=10000 p=16 ;;
operators:small) n=5 ;; operators:uneven) n=-11 ;; operators:medium) n=7 ;;
power_iteration:small) n=20 p=4 ;; power_iteration:uneven) n=37 p=5 ;; power_iteration:medium) n=400 p=8 ;;
coordinator_arrays:small) n=12 r=6 c=4 p=4 ;; coordinator_arrays:uneven) n=37 r=11 c=7 p=5 ;;
coordinator_arrays:medium) n=1000 r=100 c=50 p=8 ;;
particles:small) n=40 p=8 ;; particles:uneven) n=97 p=7 ;; particles:medium) n=5000 p=16 ;;
heat_converge:small) n=40 p=8 ;; heat_converge:uneven) n=97 p=7 ;; heat_converge:medium) n=2000 p=16 ;;
radix-sort:small) n=1000 digits=4 bits=16 p=8 ;; radix-sort:uneven) n=997 digits=3 bits=12 p=7 ;;
radix-sort:medium) n=100000 digits=8 bits=16 p=16 ;;
pivot_rows:small) r=13 c=9 p=5 ;; pivot_rows:uneven) r=37 c=11 p=6 ;; pivot_rows:medium) r=200 c=100 p=16 ;;
strided_handover:small) r=16 c=16 s=2 p=3 ;; strided_handover:uneven) r=21 c=17 s=2 p=5 ;;
strided_handover:medium) r=300 c=200 s=16 p=8 ;;
row-max:small) r=12 c=10 s=2 ;; row-max:uneven) r=97 c=131 s=3 ;; row-max:medium) r=256 c=256 s=8 ;;
lu_stride:small) n=16 ;; lu_stride:uneven) n=37 ;; lu_stride:medium) n=100 ;;
lu-factorization:small) n=40 bs=8 k=8 l=8 q=4 ;; lu-factorization:uneven) n=37 bs=6 k=5 l=7 q=3 ;;
reduce_operator:small) n=40 p=4 ;; reduce_operator:uneven) n=37 p=6 ;;
subpartition_space:small) r=12 c=12 p=4 q=4 ;; subpartition_space:uneven) r=37 c=23 p=5 q=5 ;;
subpartition_levels:small) r=12 c=12 p=4 q=4 ;; subpartition_levels:uneven) r=37 c=23 p=5 q=5 ;;
inverted:small) n=40 p=4 ;; inverted:uneven) n=37 p=5 ;;
env_chain:small) n=40 p=4 ;; env_chain:uneven) n=37 p=5 ;;
cg_csr:small) g=8 p=4 ;; cg_csr:uneven) g=11 p=7 ;;
lists:small) n=20 r=12 c=5 keep=4 p=3 ;; lists:uneven) n=3 r=37 c=7 keep=5 p=6 ;;
monte-carlo:small) batches=16 draws=2000 seed=2024 rounds=20 tol=0.002 keep=5 p=8 ;;
monte-carlo:uneven) batches=13 draws=1500 seed=7 rounds=50 tol=0.004 keep=3 p=5 ;;
padded_deal:small) n=40 p=4 ;; padded_deal:uneven) n=37 p=5 ;;
foreach_peaks:small) r=6 c=16 p=4 q=2 ;; foreach_peaks:uneven) r=7 c=23 p=4 q=2 ;;
env_scalars:small) n=40 p=4 ;; env_scalars:uneven) n=97 p=7 ;;
env_views:small) r=12 c=9 p=3 ;; env_views:uneven) r=37 c=23 p=4 ;;
lu-factorization:medium) n=300 bs=32 k=40 l=40 q=16 ;;
block_lu:small) n=16 b=2 ;; block_lu:uneven) n=37 b=3 ;;
prefix_scan:small) n=1000 p=8 rounds=1 ;; prefix_scan:uneven) n=997 p=7 rounds=2 ;;
epoch_partial:small) r=16 c=12 rounds=9 skip=4 lc=8 p=3 q=2 ;;
epoch_partial:uneven) r=37 c=23 rounds=13 skip=5 lc=17 p=5 q=3 ;;
epoch_lag2:small) n=40 steps=6 skip=4 p=4 ;; epoch_lag2:uneven) n=97 steps=9 skip=3 p=7 ;;
row_sum3:small) r=12 c=10 p=2 q=3 cp=2 ;; row_sum3:uneven) r=97 c=131 p=3 q=5 cp=4 ;;
spmv_siblings:small) n=40 k=3 p=8 it=3 ;; spmv_siblings:uneven) n=97 k=5 p=7 it=4 ;;
spmv_siblings:medium) n=1001 k=7 p=6 it=5 ;;
replicated_where:small) r=16 c=12 p=4 ;; replicated_where:uneven) r=37 c=23 p=6 ;;
sections:small) r=16 c=12 p=4 ;; sections:uneven) r=37 c=23 p=6 ;;
function_sections:small) r=5 c=7 p=2 ;; function_sections:uneven) r=9 c=11 p=3 ;;
static_globals:small) n=64 p=4 ;; static_globals:uneven) n=101 p=6 ;;
array_values:small) n=64 p=4 ;; array_values:uneven) n=101 p=7 ;;
shape_uses:small) n=64 p=4 q=5 ;; shape_uses:uneven) n=101 p=7 q=9 ;;
local_loops:small) r=16 c=12 n=64 p=4 ;; local_loops:uneven) r=37 c=23 n=101 p=7 ;;
env_functions:small) n=64 k=3 p=4 ;; env_functions:uneven) n=101 k=-7 p=7 ;;
section_targets:small) n=8 p=2 ;; section_targets:uneven) n=13 p=3 ;;
env_static:small) k=3 ;; env_static:uneven) k=-17 ;;
move_order:small) n=64 k=37 p=4 c=3 ;; move_order:uneven) n=101 k=100 p=7 c=4 ;;
flow_functions:small) n=64 p=4 ;; flow_functions:uneven) n=101 p=7 ;;
loop_scalars:small) n=64 m=4 k=37 p=4 c=3 ;; loop_scalars:uneven) n=101 m=5 k=100 p=7 c=4 ;;
strided_parents:small) n=64 c=3 s=2 ;; strided_parents:uneven) n=101 c=2 s=3 ;;
strided_functions:small) r=64 c=5 n=64 b=2 ;; strided_functions:uneven) r=29 c=3 n=101 b=3 ;;
skipped_levels:small) n=64 p=2 b=2 c=3 ;; skipped_levels:uneven) n=101 p=7 b=3 c=2 ;;
view_chain:small) n=64 lo=10 hi=40 k=20 p=4 ;; view_chain:uneven) n=101 lo=0 hi=100 k=99 p=7 ;;
entry_ties:small) n=64 p=4 ;; entry_ties:uneven) n=101 p=7 ;;
foreach_conditions:small) n=64 k=37 p=4 r=5 ;; foreach_conditions:uneven) n=101 k=100 p=7 r=4 ;;
epoch_history:small) n=64 rounds=3 p=4 ;; epoch_history:uneven) n=101 rounds=4 p=7 ;;
later_writes:small) n=64 k=37 p=4 ;; later_writes:uneven) n=101 k=100 p=7 ;;
foreach_whole:small) n=64 p=4 q=5 ;; foreach_whole:uneven) n=101 p=7 q=4 ;;
guarded_epochs:small) n=64 rounds=6 p=4 ;; guarded_epochs:uneven) n=101 rounds=7 p=7 ;;
bool_arrays:small) n=64 p=4 ;; bool_arrays:uneven) n=101 p=7 ;;
field_args:small) n=64 a=2 b=3 p=4 ;; field_args:uneven) n=101 a=-3 b=7 p=7 ;;
sibling_writers:small) n=64 p=4 q=3 ;; sibling_writers:uneven) n=101 p=7 q=5 ;;
stage_forms:small) n=64 p=4 ;; stage_forms:uneven) n=101 p=7 ;;
env_values:small) n=12 k=4 p=4 ;; env_values:uneven) n=29 k=7 p=3 ;;
list_arrays:small) r=8 c=5 k=3 p=4 ;; list_arrays:uneven) r=13 c=7 k=11 p=3 ;;
concurrent_tasks:small) n=1500 m=1000 rounds=20000 p=4 loops=10 ;;
concurrent_tasks:uneven) n=1499 m=701 rounds=20001 p=5 loops=10 ;;
concurrent_tasks:medium) n=1500 m=300 rounds=20000 p=5 loops=120 ;;  # many small tasks at once
part_functions:small) n=64 r=16 c=12 p=4 ;; part_functions:uneven) n=101 r=29 c=17 p=3 ;;
*) echo "run_e2e.sh: unknown example/size $ex:$size" >&2; exit 2 ;;
esac
case $ex in
concurrent_tasks)
  # two independent tasks run at once, the one reading the first task's array starts after it;
  # a loop launches more tasks than may be in flight, one bound to a file from a replaced variable
  # (medium: 120 of them, which made Open MPI deadlock when task threads created communicators)
  mk -o l.txt --type double --shape $n --seed 61 --lo -1 --hi 1
  mk -o r.txt --type double --shape $m --seed 62 --lo -1 --hi 1
  args=(left_file=l.txt right_file=r.txt rounds=$rounds p=$p)
  IT_TASKS=1 run "${args[@]}" loops=$loops left_out=lo.txt right_out=ro.txt summary_file=s.txt loop_out=lp.txt \
    2>tasks.txt || { cat tasks.txt; exit 1; }
  "$ref/ref_concurrent_tasks" "${args[@]}" left_out=lo_ref.txt right_out=ro_ref.txt summary_file=s_ref.txt \
    loop_out=lp_ref.txt
  chk equal lp.txt lp_ref.txt 1e-12
  chk equal lo.txt lo_ref.txt 1e-9
  chk equal ro.txt ro_ref.txt 1e-9
  chk equal s.txt s_ref.txt 1e-9
  grep -q '^IT_TASKS [0-9.]* start #2 `Relax` after none; running beside it: #1 `Relax`$' tasks.txt &&
    grep -q '^IT_TASKS [0-9.]* start #3 `Total` after #1 `Relax`;' tasks.txt &&
    awk '/end #1 `Relax`/ { e = $2 } /start #3 `Total`/ { s = $2 } END { exit !(e != "" && s != "" && e <= s) }' tasks.txt ||
    { echo "tasks did not run as their dependencies allow:"; cat tasks.txt; exit 1; } ;;
vector-add)
  mk -o a.txt --type double --shape $n --seed 1 --lo -10 --hi 10
  mk -o b.txt --type double --shape $n --seed 2 --lo -10 --hi 10
  args=(a_file=a.txt b_file=b.txt p=$p)
  run "${args[@]}" c_file=c.txt
  "$ref/ref_vector_add" "${args[@]}" c_file=c_ref.txt
  chk equal c.txt c_ref.txt 0 ;;
moving-average)
  mk -o x.txt --type double --shape $n --seed 3 --lo -1 --hi 1
  args=(input_file=x.txt p=$p lag=$lag)
  run "${args[@]}" output_file=y.txt
  "$ref/ref_moving_average" "${args[@]}" output_file=y_ref.txt
  chk equal y.txt y_ref.txt 1e-12 ;;
dot-product)
  mk -o u.txt --type double --shape $n --seed 3 --lo -1 --hi 1
  mk -o v.txt --type double --shape $n --seed 4 --lo -1 --hi 1
  args=(u_file=u.txt v_file=v.txt p=$p)
  run "${args[@]}" output_file=dot.txt
  "$ref/ref_dot_product" "${args[@]}" output_file=dot_ref.txt
  chk equal dot.txt dot_ref.txt 1e-12 ;;
matrix-multiply)
  mk -o a.bin --type float --shape ${r}x${inner} --seed 4 --lo -1 --hi 1
  mk -o b.txt --type float --shape ${inner}x${c} --seed 5 --lo -1 --hi 1
  args=(input_file_1=a.bin input_file_2=b.txt k=$k l=$l q=$q)
  IT_STATS=1 run "${args[@]}" output_file=c.txt 2>stats.txt || { cat stats.txt; exit 1; }
  "$ref/ref_matrix_multiply" "${args[@]}" output_file=c_ref.txt
  chk equal float:c.txt float:c_ref.txt 1e-4
  if [[ ${IT_STATS_CHECK:-0} == 1 ]]; then
    # each rank holds about 1/np of the partitioned c (block rows/cols of whole blocks)
    total=$((r * c * 4))
    awk -v total=$total -v np=$np '/IT_STATS rank .* memory:/ {
        for (i = 1; i <= NF; i++) if ($i ~ /^c=/) { split($i, kv, "="); b = kv[2];
          printf "rank c-bytes %d of %d (ideal %d)\n", b, total, total / np;
          if (b > 1.6 * total / np + 64 * 1024) { print "too much of c on one rank"; bad = 1 } } }
        END { exit bad }' stats.txt
  fi ;;
stencil)
  mk -o plate.txt --type float --shape ${r}x${c} --seed 9 --lo 0 --hi 100
  args=(input_file=plate.txt iterations=$it p1=$p1 p2=$p2 k=$k l=$l m=$m n=$n)
  IT_STATS=1 run "${args[@]}" output_file=out.txt 2>stats.txt || { cat stats.txt; exit 1; }
  "$ref/ref_stencil" "${args[@]}" output_file=out_ref.txt
  chk equal float:out.txt float:out_ref.txt 1e-4
  if [[ ${IT_STATS_CHECK:-0} == 1 ]]; then
    python3 "$root/tests/e2e/ghost_volume.py" --rows $r --cols $c --k $k --l $l --p1 $p1 \
      --iterations $it --np $np --stats stats.txt
  fi ;;
row-max)
  mk -o m.txt --type double --shape ${r}x${c} --seed 6 --lo -50 --hi 50
  args=(matrix_file=m.txt s=$s)
  run "${args[@]}" output_file=max.txt sums_file=sums.txt
  "$ref/ref_row_max" "${args[@]}" output_file=max_ref.txt sums_file=sums_ref.txt
  chk equal sums.txt sums_ref.txt 1e-9
  chk equal max.txt max_ref.txt 1e-9 ;;
nested)
  # an array used by stages of Space A and of Space B below it: views, no copies
  mk -o x.txt --type double --shape $n --seed 3 --lo -1 --hi 1
  args=(input_file=x.txt rounds=3 p=$p q=$q)
  IT_STATS=1 run "${args[@]}" output_file=y.txt 2>stats.txt || { cat stats.txt; exit 1; }
  "$ref/ref_nested" "${args[@]}" output_file=y_ref.txt
  chk equal y.txt y_ref.txt 1e-12
  # entering and leaving Space B moves no data between the spaces, only empty packets
  if grep -E "(entry into|exit from) Space B" stats.txt | awk '$(NF-3) != 0 || $(NF-1) != 0 { bad = 1 } END { exit bad || NR != 2 }'; then :; else
    echo "data moved between Space A and Space B:"; cat stats.txt; exit 1; fi ;;
operators)
  run n=$n output_file=r.txt real_file=q.txt
  "$ref/ref_operators" n=$n output_file=r_ref.txt real_file=q_ref.txt
  chk equal r.txt r_ref.txt 0
  chk equal q.txt q_ref.txt 1e-15 ;;
power_iteration)
  # small: the tolerance ends the loop; uneven: the round limit does
  if [[ $size == uneven ]]; then lim=(tolerance=1e-15 max_iterations=30); else lim=(tolerance=1e-6 max_iterations=1000); fi
  args=(n=$n "${lim[@]}" p=$p)
  run "${args[@]}" output_file=o.txt
  "$ref/ref_power_iteration" "${args[@]}" output_file=o_ref.txt
  chk equal o.txt o_ref.txt 1e-9 ;;
coordinator_arrays)
  mk -o m.txt --type double --shape ${r}x${c} --seed 21 --lo -1 --hi 1
  args=(n=$n matrix_file=m.txt p=$p)
  run "${args[@]}" matrix_out=mo.txt vector_out=v.txt x_out=x.txt down_out=d.txt
  "$ref/ref_coordinator_arrays" "${args[@]}" matrix_out=mo_ref.txt vector_out=v_ref.txt x_out=x_ref.txt down_out=d_ref.txt
  for f in mo v x d; do chk equal $f.txt ${f}_ref.txt 1e-12; done ;;
particles)
  args=(n=$n steps=5 dt=0.05 p=$p)
  run "${args[@]}" output_file=x.txt centre_file=c.txt
  "$ref/ref_particles" "${args[@]}" output_file=x_ref.txt centre_file=c_ref.txt
  chk equal x.txt x_ref.txt 1e-9
  chk equal c.txt c_ref.txt 1e-9 ;;
heat_converge)
  # small: the tolerance ends the sweeps; uneven: the sweep limit does
  mk -o t.txt --type double --shape $n --seed 12 --lo 0 --hi 100
  if [[ $size == uneven ]]; then lim=(tolerance=1e-9 max_sweeps=25); else lim=(tolerance=0.01 max_sweeps=100000); fi
  args=(input_file=t.txt "${lim[@]}" p=$p)
  run "${args[@]}" output_file=o.txt summary_file=s.txt
  "$ref/ref_heat_converge" "${args[@]}" output_file=o_ref.txt summary_file=s_ref.txt
  chk equal o.txt o_ref.txt 1e-12
  chk equal s.txt s_ref.txt 1e-12 ;;
converge)
  # reductions into Root: a Repeat while on the result, and Space A reading it (sent down)
  mk -o x.txt --type double --shape $n --seed 3 --lo 0.1 --hi 1
  args=(input_file=x.txt limit=3.5 p=$p)
  run "${args[@]}" output_file=y.txt
  "$ref/ref_converge" "${args[@]}" output_file=y_ref.txt
  chk equal y.txt y_ref.txt 1e-12 ;;
radix-sort)
  # keys move between the whole array in Space A and the blocks of Space B every round; the
  # digit counts in g go up to A and back down; epochs of keys in A
  mk -o keys.txt --type int --shape $n --seed 11 --lo 0 --hi $(((1 << bits) - 1))
  args=(input_file=keys.txt digits=$digits key_size=$bits p=$p)
  IT_STATS=1 run "${args[@]}" output_file=sorted.txt 2>stats.txt || { cat stats.txt; exit 1; }
  "$ref/ref_radix_sort" "${args[@]}" output_file=sorted_ref.txt
  chk equal int:sorted.txt int:sorted_ref.txt 0
  chk sorted-permutation keys.txt sorted.txt
  # on the cluster Space A sits above the <segment> level: Space B keeps parts of its own of g
  # and they move; on one process Space B works in views of Space A's parts (tokens only)
  # (a custom mapping may do either)
  if [[ $mapping == cluster ]]; then want="gather up of g from Space B to Space A"; else want="entry into Space B"; fi
  [[ $mapping == custom ]] || grep -q "$want" stats.txt || { echo "no '$want':"; cat stats.txt; exit 1; } ;;
pivot_rows)
  # Where-guarded writes of a replicated array and of a scalar reach every LPU (replica
  # broadcast); the scalar also goes up to the un-partitioned Space A
  mk -o a.txt --type double --shape ${r}x${c} --seed 12 --lo -1 --hi 1
  args=(input_file=a.txt p=$p)
  IT_STATS=1 run "${args[@]}" output_file=out.txt picks_file=picks.txt 2>stats.txt || { cat stats.txt; exit 1; }
  "$ref/ref_pivot_rows" "${args[@]}" output_file=out_ref.txt picks_file=picks_ref.txt
  chk equal out.txt out_ref.txt 1e-12
  chk equal int:picks.txt int:picks_ref.txt 0
  grep -q "replica broadcast of row in Space B" stats.txt || { echo "no broadcast of row:"; cat stats.txt; exit 1; } ;;
strided_handover)
  # arrays left in stride()/block_stride() parts: handed over to block parts cell by cell from
  # their owners, and written as outputs (.txt and .bin)
  mk -o a.txt --type double --shape ${r}x${c} --seed 13 --lo -1 --hi 1
  args=(input_file=a.txt s=$s p=$p)
  run "${args[@]}" a_file=a_out.txt b_file=b_out.bin c_file=c_out.txt
  "$ref/ref_strided_handover" "${args[@]}" a_file=a_ref.txt b_file=b_ref.bin c_file=c_ref.txt
  chk equal a_out.txt a_ref.txt 1e-12
  chk equal b_out.bin b_ref.bin 0
  chk equal c_out.txt c_ref.txt 0 ;;
conjugate-gradient)
  # five tasks sharing their vectors through environments; the coordinator loops on scalars
  mk -o a.txt --type double --shape ${n}x${n} --kind spd --seed 4 --lo -1 --hi 1
  mk -o b.txt --type double --shape $n --seed 5 --lo -1 --hi 1
  args=(matrix_file=a.txt rhs_file=b.txt tolerance=1e-8 max_iterations=500 p=$p q=$q c=$c)
  run "${args[@]}" solution_file=x.txt summary_file=summary.txt
  "$ref/ref_cg" "${args[@]}" solution_file=x_ref.txt summary_file=summary_ref.txt
  chk residual a.txt x.txt b.txt 1e-7
  chk equal x.txt x_ref.txt 1e-6
  chk equal summary.txt summary_ref.txt 1e-6 ;;   # the same iteration count
lu-factorization)
  # the paper's LU: four tasks, environment views of sections of u written back by SAXPY
  mk -o a.txt --type double --shape ${n}x${n} --seed 7 --lo -1 --hi 1
  args=(argument_matrix_file=a.txt block_size=$bs q=$q)
  run "${args[@]}" k=$k l=$l upper_matrix_file=u.txt lower_matrix_file=l.txt pivot_matrix_file=p.txt
  "$ref/ref_lu" "${args[@]}" upper_matrix_file=u_ref.txt lower_matrix_file=l_ref.txt pivot_matrix_file=p_ref.txt
  chk lu a.txt u.txt l.txt p.txt 1e-9
  chk equal u.txt u_ref.txt 1e-9
  chk equal l.txt l_ref.txt 1e-9
  chk equal int:p.txt int:p_ref.txt 0 ;;
lu_stride)
  # one-task LU with pivoting: max_entry reduction into Space A, replicated rows under Where
  mk -o a.txt --type double --shape ${n}x${n} --seed 21 --lo -1 --hi 1
  args=(matrix_file=a.txt)
  IT_STATS=1 run "${args[@]}" lu_file=lu.txt pivot_file=p.txt 2>stats.txt || { cat stats.txt; exit 1; }
  "$ref/ref_lu_stride" "${args[@]}" lu_file=lu_ref.txt pivot_file=p_ref.txt
  chk lu-inplace a.txt lu.txt p.txt 1e-10
  chk equal p.txt p_ref.txt 0
  chk equal lu.txt lu_ref.txt 1e-10
  if [[ ${IT_STATS_CHECK:-0} == 1 ]]; then
    python3 "$root/tests/e2e/move_volume.py" lu_stride --n $n --np $np --pivots p.txt --stats stats.txt
  fi ;;
block_lu)
  # 2d block-cyclic LU: replicated row/column buffers, the element argument row_k[k]
  mk -o a.txt --type double --shape ${n}x${n} --kind diagdom --seed 23 --lo -1 --hi 1
  args=(matrix_file=a.txt b=$b)
  run "${args[@]}" lu_file=lu.txt
  "$ref/ref_block_lu" "${args[@]}" lu_file=lu_ref.txt
  chk lu-inplace a.txt lu.txt - 1e-10
  chk equal lu.txt lu_ref.txt 1e-10 ;;
epoch_partial | epoch_lag2)
  # the epoch entry must rotate the versions (the case under test), not copy whole parts
  grep -q 'c.rotate_epoch(' "$work/cpp-$mapping"/*.cpp || { echo "no rotate_epoch in the emitted C++" >&2; exit 1; }
  if [[ $ex == epoch_partial ]]; then
    mk -o g.txt --type double --shape ${r}x${c} --seed 31 --lo -10 --hi 10
    args=(input_file=g.txt rounds=$rounds skip=$skip last_col=$lc p=$p q=$q)
  else
    mk -o g.txt --type double --shape $n --seed 32 --lo -10 --hi 10
    args=(input_file=g.txt steps=$steps skip=$skip p=$p)
  fi
  run "${args[@]}" output_file=o.txt
  "$ref/ref_$ex" "${args[@]}" output_file=o_ref.txt
  chk equal o.txt o_ref.txt 1e-12 ;;
prefix_scan)
  # epochs in Space B and in Space A; totals gathered up and scattered down every round
  mk -o x.txt --type int --shape $n --seed 25 --lo -100 --hi 100
  args=(input_file=x.txt rounds=$rounds p=$p)
  run "${args[@]}" output_file=s.txt
  "$ref/ref_prefix_scan" "${args[@]}" output_file=s_ref.txt
  [[ $rounds == 1 ]] && chk prefix-sum x.txt s.txt 0
  chk equal s.txt s_ref.txt 0 ;;
function_sections)
  # sections of coordinator and function arrays as values, by position, into an environment
  args=(r=$r c=$c s=3 p=$p)
  run "${args[@]}" summary_file=s.txt seg_file=g.txt rev_file=v.txt x_file=x.txt
  "$ref/ref_function_sections" "${args[@]}" summary_file=s_ref.txt seg_file=g_ref.txt rev_file=v_ref.txt \
    x_file=x_ref.txt
  for f in s g v x; do chk equal $f.txt ${f}_ref.txt 0; done ;;
array_values)
  # static arrays of class objects, lpuId, stage-local copies of parts and lists as values
  mk -o x.txt --type double --shape $n --seed 36 --lo -1 --hi 1
  args=(x_file=x.txt k=3 p=$p)
  run "${args[@]}" y_file=y.txt c_file=c.txt summary_file=s.txt head_file=h.txt
  "$ref/ref_array_values" "${args[@]}" y_file=y_ref.txt c_file=c_ref.txt summary_file=s_ref.txt head_file=h_ref.txt
  chk equal y.txt y_ref.txt 1e-12
  chk equal c.txt c_ref.txt 0
  chk equal s.txt s_ref.txt 0
  chk equal h.txt h_ref.txt 1e-12 ;;
shape_uses)
  # stages that use an array only for its shape (a loop over it, `.local`) in a space where
  # nothing else uses it; a Reduction variable bounds a Repeat for
  mk -o v.txt --type int --shape $n --seed 39 --lo -50 --hi 50
  args=(input_file=v.txt p=$p q=$q)
  run "${args[@]}" output_file=o.txt firsts_file=f.txt
  "$ref/ref_shape_uses" "${args[@]}" output_file=o_ref.txt firsts_file=f_ref.txt
  chk equal o.txt o_ref.txt 0
  chk equal f.txt f_ref.txt 0 ;;
move_order)
  # movements placed before a view space's entry and an epoch's, and replicas made equal at the end
  mk -o x.txt --type int --shape $n --seed 49 --lo -50 --hi 50
  args=(x_file=x.txt k=$k p=$p c=$c)
  run "${args[@]}" w_file=w.txt v_file=v.txt s_file=s.txt
  "$ref/ref_move_order" "${args[@]}" w_file=w_ref.txt v_file=v_ref.txt s_file=s_ref.txt
  for f in w v s; do chk equal $f.txt ${f}_ref.txt 0; done ;;
loop_scalars)
  # scalars written under If/Where by one LPU, read by Repeat headers and by every LPU of other spaces
  mk -o x.txt --type int --shape $n --seed 63 --lo 0 --hi 50
  args=(x_file=x.txt m=$m k=$k p=$p c=$c)
  run "${args[@]}" v_file=v.txt u_file=u.txt stats_file=s.txt
  "$ref/ref_loop_scalars" "${args[@]}" v_file=v_ref.txt u_file=u_ref.txt stats_file=s_ref.txt
  for f in v u s; do chk equal $f.txt ${f}_ref.txt 0; done ;;
strided_parents)
  # spaces dividing strided parts get parts of their own (their blocks are not boxes of the parent's)
  mk -o x.txt --type int --shape $n --seed 73 --lo -50 --hi 50
  mk -o y.txt --type int --shape $n --seed 74 --lo -50 --hi 50
  mk -o z.txt --type int --shape $n --seed 75 --lo -50 --hi 50
  args=(x_file=x.txt y_file=y.txt z_file=z.txt c=$c s=$s)
  run "${args[@]}" x_out=xo.txt y_out=yo.txt z_out=zo.txt
  "$ref/ref_strided_parents" "${args[@]}" x_out=xo_ref.txt y_out=yo_ref.txt z_out=zo_ref.txt
  for f in xo yo zo; do chk equal $f.txt ${f}_ref.txt 0; done ;;
strided_functions)
  # functions called from stages with parts cut by stride() and block_stride(): the held indices
  mk -o m.txt --type double --shape ${r}x${c} --seed 79 --lo -1 --hi 1
  mk -o w.txt --type double --shape $n --seed 80 --lo -1 --hi 1
  args=(m_file=m.txt w_file=w.txt f=3 b=$b)
  run "${args[@]}" m_out=mo.txt w_out=wo.txt summary_file=s.txt
  # test-cluster-4 deals the rows out to its 8 cores
  "$ref/ref_strided_functions" "${args[@]}" lpus=8 m_out=mo_ref.txt w_out=wo_ref.txt summary_file=s_ref.txt
  chk equal mo.txt mo_ref.txt 1e-12
  chk equal wo.txt wo_ref.txt 1e-12
  chk equal s.txt s_ref.txt 1e-9 ;;
skipped_levels)
  # a space entered from its grandparent: tokens between the two, not with the skipped level
  mk -o x.txt --type int --shape $n --seed 77 --lo -50 --hi 50
  args=(x_file=x.txt p=$p b=$b c=$c)
  run "${args[@]}" x_out=xo.txt
  "$ref/ref_skipped_levels" "${args[@]}" x_out=xo_ref.txt
  chk equal xo.txt xo_ref.txt 0 ;;
view_chain)
  # environment views of views: writes reach the viewed array, outputs show its final values
  mk -o v.txt --type int --shape $n --seed 76 --lo -50 --hi 50
  args=(v_file=v.txt lo=$lo hi=$hi k=$k p=$p)
  run "${args[@]}" a_out=ao.txt s_out=so.txt t_out=to.txt
  "$ref/ref_view_chain" "${args[@]}" a_out=ao_ref.txt s_out=so_ref.txt t_out=to_ref.txt
  for f in ao so to; do chk equal $f.txt ${f}_ref.txt 0; done ;;
entry_ties)
  # max_entry/min_entry ties across LPUs, on an increasing and on an inverted range
  mk -o x.txt --type int --shape $n --seed 72 --lo 0 --hi 3
  args=(x_file=x.txt p=$p)
  run "${args[@]}" result_file=r.txt
  "$ref/ref_entry_ties" "${args[@]}" result_file=r_ref.txt
  chk equal r.txt r_ref.txt 0 ;;
foreach_conditions)
  # Where/If inside Repeat foreach sub-partition test the current piece
  mk -o x.txt --type int --shape $n --seed 71 --lo -20 --hi 20
  args=(x_file=x.txt k=$k p=$p r=$r)
  run "${args[@]}" x_out=xo.txt
  "$ref/ref_foreach_conditions" "${args[@]}" x_out=xo_ref.txt
  chk equal xo.txt xo_ref.txt 0 ;;
epoch_history)
  # versions older than current - 1 moved between spaces and refreshed in padded copies
  mk -o u.txt --type int --shape $n --seed 69 --lo 0 --hi 50
  mk -o g.txt --type int --shape $n --seed 70 --lo 0 --hi 50
  args=(u_file=u.txt g_file=g.txt rounds=$rounds p=$p)
  run "${args[@]}" u_out=uo.txt g_out=go.txt
  "$ref/ref_epoch_history" "${args[@]}" u_out=uo_ref.txt g_out=go_ref.txt
  chk equal uo.txt uo_ref.txt 0
  chk equal go.txt go_ref.txt 0 ;;
later_writes)
  # an older value moved into a space before a newer guarded write there, not over it
  mk -o x.txt --type int --shape $n --seed 68 --lo -50 --hi 50
  args=(x_file=x.txt k=$k p=$p)
  run "${args[@]}" x_out=xo.txt w_out=wo.txt
  "$ref/ref_later_writes" "${args[@]}" x_out=xo_ref.txt w_out=wo_ref.txt
  chk equal xo.txt xo_ref.txt 0
  chk equal wo.txt wo_ref.txt 0 ;;
foreach_whole)
  # a space dividing the partitions inside `Repeat foreach sub-partition`: whole blocks every turn
  mk -o m.txt --type int --shape $n --seed 66 --lo -50 --hi 50
  mk -o v.txt --type int --shape $n --seed 67 --lo -50 --hi 50
  args=(m_file=m.txt v_file=v.txt p=$p q=$q)
  run "${args[@]}" m_out=mo.txt v_out=vo.txt
  "$ref/ref_foreach_whole" "${args[@]}" m_out=mo_ref.txt v_out=vo_ref.txt
  chk equal mo.txt mo_ref.txt 0
  chk equal vo.txt vo_ref.txt 0 ;;
guarded_epochs)
  # epochs of sibling spaces in a loop, one under Where, one on strided parts
  mk -o s.txt --type int --shape $n --seed 64 --lo 0 --hi 500
  mk -o t.txt --type int --shape $n --seed 65 --lo 0 --hi 500
  args=(s_file=s.txt t_file=t.txt rounds=$rounds p=$p)
  run "${args[@]}" s_out=so.txt t_out=to.txt
  "$ref/ref_guarded_epochs" "${args[@]}" s_out=so_ref.txt t_out=to_ref.txt
  chk equal so.txt so_ref.txt 0
  chk equal to.txt to_ref.txt 0 ;;
flow_functions)
  # functions of task arrays in Computation conditions (the LPU's part), Where and Repeat while
  mk -o x.txt --type int --shape $n --seed 48 --lo 1 --hi 9
  args=(input_file=x.txt limit=500 p=$p)
  run "${args[@]}" output_file=o.txt
  "$ref/ref_flow_functions" "${args[@]}" output_file=o_ref.txt
  chk equal o.txt o_ref.txt 0 ;;
bool_arrays)
  # arrays of Booleans as values in the coordinator, functions and stages
  mk -o v.txt --type int --shape $n --seed 47 --lo -50 --hi 50
  args=(v_file=v.txt p=$p)
  run "${args[@]}" marks_file=m.txt stats_file=s.txt counts_file=c.txt
  "$ref/ref_bool_arrays" "${args[@]}" marks_file=m_ref.txt stats_file=s_ref.txt counts_file=c_ref.txt
  for f in m s c; do chk equal $f.txt ${f}_ref.txt 0; done ;;
field_args)
  # fixed-size fields of a task-global object as stage arguments, changed in Root between calls
  mk -o v.txt --type int --shape $n --seed 45 --lo -50 --hi 50
  args=(input_file=v.txt a=$a b=$b p=$p)
  run "${args[@]}" output_file=o.txt stats_file=s.txt
  "$ref/ref_field_args" "${args[@]}" output_file=o_ref.txt stats_file=s_ref.txt
  chk equal o.txt o_ref.txt 0
  chk equal s.txt s_ref.txt 0 ;;
env_static)
  # fixed-size arrays and environment items in the coordinator (whole, rows, columns, `&`)
  run k=$k out_file=o.txt
  "$ref/ref_env_static" k=$k out_file=o_ref.txt
  chk equal o.txt o_ref.txt 0 ;;
sibling_writers)
  # several spaces write one array in turn: the environment keeps the last write of every cell
  mk -o x.txt --type int --shape $n --seed 44 --lo -50 --hi 50
  args=(x_file=x.txt p=$p q=$q)
  run "${args[@]}" y_file=y.txt z_file=z.txt stats_file=s.txt
  "$ref/ref_sibling_writers" "${args[@]}" y_file=y_ref.txt z_file=z_ref.txt stats_file=s_ref.txt
  for f in y z s; do chk equal $f.txt ${f}_ref.txt 0; done ;;
section_targets)
  # sections as assignment targets in the coordinator, functions, environments and stages
  mk -o f.txt --type int --shape 3 --seed 46 --lo -50 --hi 50
  args=(n=$n p=$p f_file=f.txt)
  # w.txt is stored and loaded back in one run: without an earlier run's copy, a rank that reads
  # it before rank 0 has written it fails (rank 0 reads first, then the others)
  rm -f m.txt s.txt x.txt g.txt fo.txt w.txt
  run "${args[@]}" m_file=m.txt sums_file=s.txt x_file=x.txt g_file=g.txt fo_file=fo.txt w_file=w.txt
  "$ref/ref_section_targets" "${args[@]}" m_file=m_ref.txt sums_file=s_ref.txt x_file=x_ref.txt g_file=g_ref.txt \
    fo_file=fo_ref.txt w_file=w_ref.txt
  for f in m s x g fo w; do chk equal $f.txt ${f}_ref.txt 0; done ;;
env_functions)
  # functions given environments read and write their items (scalar, element, share, section)
  mk -o v.txt --type int --shape $n --seed 43 --lo -50 --hi 50
  args=(v_file=v.txt k=$k p=$p)
  run "${args[@]}" stats_file=s.txt w_file=w.txt
  "$ref/ref_env_functions" "${args[@]}" stats_file=s_ref.txt w_file=w_ref.txt
  chk equal s.txt s_ref.txt 0
  chk equal w.txt w_ref.txt 0 ;;
local_loops)
  # parallel loops over arrays local to a stage: a block of rows, a downward section, lpuId;
  # whole static arrays copied, written and put in a list in stages; copies into parts from
  # local arrays and into sections of parts
  mk -o m.txt --type int --shape ${r}x${c} --seed 41 --lo -50 --hi 50
  mk -o v.txt --type int --shape $n --seed 42 --lo -50 --hi 50
  args=(m_file=m.txt v_file=v.txt p=$p)
  run "${args[@]}" out_file=o.txt rev_file=r.txt ids_file=i.txt u_file=u.txt flip_file=f.txt five_file=5.txt \
    stats_file=s.txt
  "$ref/ref_local_loops" "${args[@]}" out_file=o_ref.txt rev_file=r_ref.txt ids_file=i_ref.txt u_file=u_ref.txt \
    flip_file=f_ref.txt five_file=5_ref.txt stats_file=s_ref.txt
  for f in o r i u f 5 s; do chk equal $f.txt ${f}_ref.txt 0; done ;;
stage_forms)
  # a field as a stage argument, reductions in a stage's do-while and through an operator
  # parameter, an index bound through a range literal, Initialize with a parameter array's
  # dimensions, dimension assignments (chains, locals) in Initialize and the coordinator, one
  # function called with an args value and a String, array values in a stage, a task run with
  # `new TaskEnvironment(...)` in place
  mk -o x.txt --type int --shape $n --seed 37 --lo -50 --hi 50
  mk -o m.txt --type int --shape ${n}x2 --seed 38 --lo -20 --hi 20
  args=(x_file=x.txt m_file=m.txt n=$n flag=yes p=$p)
  run "${args[@]}" y_file=y.txt z_file=z.txt w_file=w.txt stats_file=s.txt twice_file=t.txt
  "$ref/ref_stage_forms" "${args[@]}" y_file=y_ref.txt z_file=z_ref.txt w_file=w_ref.txt stats_file=s_ref.txt \
    twice_file=t_ref.txt
  chk equal y.txt y_ref.txt 0
  chk equal w.txt w_ref.txt 0
  chk equal z.txt z_ref.txt 0
  chk equal s.txt s_ref.txt 0
  chk equal t.txt t_ref.txt 0 ;;
static_globals)
  # static arrays as task-globals: replicated coefficients, a replicated Integer[2] written under
  # Where, 1d and 2d static arrays written to files
  mk -o x.txt --type double --shape $n --seed 35 --lo -1 --hi 1
  args=(x_file=x.txt a=1 b=2 c=0.5 p=$p)
  run "${args[@]}" y_file=y.txt w_file=w.txt grid_file=g.txt
  "$ref/ref_static_globals" "${args[@]}" y_file=y_ref.txt w_file=w_ref.txt grid_file=g_ref.txt
  chk equal y.txt y_ref.txt 1e-12
  chk equal w.txt w_ref.txt 0
  chk equal g.txt g_ref.txt 0 ;;
row_sum3)
  # Integer-valued entries: the row sums are exact whatever the grouping, so max_entry is too
  mk -o m.txt --type int --shape ${r}x${c} --seed 6 --lo -50 --hi 50
  args=(matrix_file=m.txt p=$p q=$q c=$cp)
  run "${args[@]}" sums_file=sums.txt output_file=max.txt
  "$ref/ref_row_sum3" "${args[@]}" sums_file=sums_ref.txt output_file=max_ref.txt
  chk equal sums.txt sums_ref.txt 0
  chk equal max.txt max_ref.txt 0 ;;
spmv_siblings)
  # CSR with k entries per row (random columns, repeats allowed); y and x move between the
  # sibling spaces A (row blocks) and B (stride) every iteration
  mk -o rp.txt --type int --shape $((n + 1)) --kind linear --coef $k
  mk -o ci.txt --type int --shape $((n * k)) --seed 27 --lo 0 --hi $((n - 1))
  mk -o v.txt --type double --shape $((n * k)) --seed 28 --lo -1 --hi 1
  mk -o x.txt --type double --shape $n --seed 26 --lo -1 --hi 1
  mk -o s.txt --type double --shape $n --seed 29 --lo 0.2 --hi 0.5
  args=(row_ptr_file=rp.txt cols_file=ci.txt vals_file=v.txt x_file=x.txt scale_file=s.txt iterations=$it p=$p)
  IT_STATS=1 run "${args[@]}" y_output_file=y.txt x_output_file=xo.txt 2>stats.txt || { cat stats.txt; exit 1; }
  "$ref/ref_spmv_siblings" "${args[@]}" y_output_file=y_ref.txt x_output_file=xo_ref.txt
  chk equal y.txt y_ref.txt 1e-10
  chk equal xo.txt xo_ref.txt 1e-10
  if [[ ${IT_STATS_CHECK:-0} == 1 ]]; then
    python3 "$root/tests/e2e/move_volume.py" spmv_siblings --n $n --k $k --p $p --iterations $it \
      --np $np --stats stats.txt
  fi ;;
reduce_operator)
  # the operator of a cross-LPU reduction given as a stage parameter
  mk -o v.txt --type double --shape $n --seed 40 --lo -5 --hi 5
  run input_file=v.txt p=$p output_file=o.txt
  "$ref/ref_reduce_operator" input_file=v.txt output_file=o_ref.txt
  chk equal o.txt o_ref.txt 0 ;;
subpartition_space)
  # a space dividing sub-partitions: its LPUs split the current chunk, fewer in the last one
  mk -o m.txt --type double --shape ${r}x${c} --seed 39 --lo -1 --hi 1
  run input_file=m.txt p=$p q=$q output_file=o.txt
  "$ref/ref_subpartition_space" input_file=m.txt q=$q output_file=o_ref.txt
  chk equal o.txt o_ref.txt 1e-12 ;;
subpartition_levels)
  # two spaces below a sub-partitioned one: both work, turn by turn, in views of the chunk
  mk -o m.txt --type double --shape ${r}x${c} --seed 41 --lo -1 --hi 1
  run input_file=m.txt p=$p q=$q output_file=o.txt
  "$ref/ref_subpartition_levels" input_file=m.txt p=$p q=$q output_file=o_ref.txt
  chk equal o.txt o_ref.txt 1e-12 ;;
inverted)
  # arrays whose dimension runs downwards, split into blocks and dealt round-robin
  mk -o a.txt --type double --shape $n --seed 38 --lo -1 --hi 1
  run input_file=a.txt p=$p output_file=b.txt strided_file=c.txt
  "$ref/ref_inverted" input_file=a.txt output_file=b_ref.txt strided_file=c_ref.txt
  chk equal b.txt b_ref.txt 1e-12
  chk equal c.txt c_ref.txt 1e-12 ;;
env_chain)
  # `b.x = c.x = a.v`: both executions of Add update a's array; elements read by the coordinator,
  # store of an environment array and of a coordinator list
  mk -o v.txt --type double --shape $n --seed 37 --lo -1 --hi 1
  run input_file=v.txt amount=1.5 p=$p output_file=o.txt summary_file=s.txt doubled_file=d.txt list_file=l.txt
  "$ref/ref_env_chain" input_file=v.txt amount=1.5 output_file=o_ref.txt summary_file=s_ref.txt \
    doubled_file=d_ref.txt list_file=l_ref.txt
  chk equal o.txt o_ref.txt 1e-12
  chk equal s.txt s_ref.txt 1e-12
  chk equal d.txt d_ref.txt 1e-12
  chk equal l.txt l_ref.txt 1e-12 ;;
cg_csr)
  # a coordinator loop over five environments of three tasks sharing the vectors; it reads the
  # dot product's result to decide convergence (p: row blocks, round-robin deal, blocks below one)
  "$ref/ref_cg_csr" grid=$g seed=17 row_ptr_file=rp.txt cols_file=ci.txt vals_file=v.txt
  mk -o b.txt --type double --shape $((g * g)) --seed 18 --lo -1 --hi 1
  mk -o z.txt --type double --shape $((g * g)) --kind constant --value 0
  args=(row_ptr_file=rp.txt cols_file=ci.txt vals_file=v.txt rhs_file=b.txt zero_file=z.txt
        tolerance=1e-8 max_iterations=300 p=$p)
  run "${args[@]}" solution_file=x.txt summary_file=summary.txt
  "$ref/ref_cg_csr" "${args[@]}" solution_file=x_ref.txt summary_file=summary_ref.txt
  chk csr-residual rp.txt ci.txt v.txt x.txt b.txt 1e-7
  chk equal x.txt x_ref.txt 1e-6
  chk equal summary.txt summary_ref.txt 1e-6 ;;   # the same iteration count
lists)
  # a List input walked with cursors, kept sorted under a capacity, moved to every Space B LPU
  mk -o v.txt --type double --shape list:$n --seed 35 --lo -1 --hi 1
  mk -o m.txt --type double --shape ${r}x${c} --seed 36 --lo -1 --hi 1
  args=(values_file=v.txt matrix_file=m.txt keep=$keep p=$p)
  run "${args[@]}" best_file=b.txt output_file=o.txt
  "$ref/ref_lists" "${args[@]}" best_file=b_ref.txt output_file=o_ref.txt
  chk equal b.txt b_ref.txt 0
  chk equal o.txt o_ref.txt 1e-12 ;;
monte-carlo)
  # lists (a history kept with cursors, in the environment, written as a List file), scalars
  # written by stages, a Repeat while whose condition Space B evaluates too (small: the round
  # limit ends it; uneven: the tolerance does)
  args=(batches=$batches draws=$draws seed=$seed max_rounds=$rounds tolerance=$tol keep=$keep p=$p)
  run "${args[@]}" output_file=pi.txt lpu_file=lpu.txt history_file=history.txt
  "$ref/ref_monte_carlo" "${args[@]}" output_file=ref.txt lpu_file=ref_lpu.txt history_file=ref_hist.txt
  chk equal pi.txt ref.txt 0
  chk equal int:lpu.txt int:ref_lpu.txt 0
  chk equal history.txt ref_hist.txt 0
  chk pi pi.txt lpu.txt history.txt $keep ;;
padded_deal)
  # strided writes below a padded space: the owner's B LPU decides each cell (U: 2 cores per
  # node on the cluster; the host mapping puts both spaces on the cores, so U = 1)
  mk -o v.txt --type double --shape $n --seed 34 --lo -1 --hi 1
  u=1; [[ $mapping == cluster ]] && u=2; [[ $mapping == custom ]] && u=${E2E_U:?custom needs E2E_U, the B PPUs per A PPU}
  run input_file=v.txt p=$p output_file=o.txt smooth_file=w.txt
  "$ref/ref_padded_deal" input_file=v.txt p=$p u=$u output_file=o_ref.txt smooth_file=w_ref.txt
  chk equal o.txt o_ref.txt 1e-12
  chk equal w.txt w_ref.txt 1e-12 ;;
foreach_peaks)
  # a reduction into the LPU's own space after every sub-partition turn, uneven turn counts
  mk -o m.txt --type double --shape ${r}x${c} --seed 33 --lo 1 --hi 2
  args=(input_file=m.txt p=$p q=$q)
  run "${args[@]}" output_file=o.txt last_file=l.txt sums_file=s.txt
  "$ref/ref_foreach_peaks" "${args[@]}" output_file=o_ref.txt last_file=l_ref.txt sums_file=s_ref.txt
  chk equal o.txt o_ref.txt 1e-12
  chk equal l.txt l_ref.txt 1e-12
  chk equal s.txt s_ref.txt 1e-9 ;;
env_scalars)
  # scalars written by stages (a counter, a value under Where) kept by the environment
  mk -o v.txt --type double --shape $n --seed 32 --lo -1 --hi 1
  args=(input_file=v.txt threshold=0.5 p=$p)
  run "${args[@]}" output_file=o.txt
  "$ref/ref_env_scalars" "${args[@]}" output_file=o_ref.txt
  chk equal o.txt o_ref.txt 1e-12 ;;
env_views)
  # views of a column, a block and a row of m, each split differently from m, written back
  mk -o m.txt --type double --shape ${r}x${c} --seed 31 --lo -1 --hi 1
  args=(matrix_file=m.txt p=$p)
  run "${args[@]}" output_file=o.txt total_file=t.txt
  "$ref/ref_env_views" "${args[@]}" output_file=o_ref.txt total_file=t_ref.txt
  chk equal o.txt o_ref.txt 1e-12
  chk equal t.txt t_ref.txt 1e-9 ;;
replicated_where)
  # a replicated row written under Where by one LPU, read by all, every iteration
  mk -o m.txt --type double --shape ${r}x${c} --seed 30 --lo -1 --hi 1
  args=(input_file=m.txt factor=0.25 p=$p)
  run "${args[@]}" output_file=o.txt
  "$ref/ref_replicated_where" "${args[@]}" output_file=o_ref.txt
  chk equal o.txt o_ref.txt 1e-12 ;;
sections)
  # sections copied in stages: a row into a replicated array, a column, part of a row, an
  # inverted section, a 2d block, a whole array of an earlier epoch
  mk -o m.txt --type double --shape ${r}x${c} --seed 32 --lo -1 --hi 1
  args=(input_file=m.txt factor=0.25 c=$((c / 3)) r=$((r / 2)) lo=2 hi=$((c - 2)) p=$p)
  outs=(output_file col_file seg_file rev_file blk_file back_file)
  run_args=() ref_args=()
  for o in "${outs[@]}"; do run_args+=("$o=$o.txt"); ref_args+=("$o=$o.ref.txt"); done
  run "${args[@]}" "${run_args[@]}"
  "$ref/ref_sections" "${args[@]}" "${ref_args[@]}"
  for o in "${outs[@]}"; do chk equal "$o.txt" "$o.ref.txt" 1e-12; done ;;
list_arrays)
  # a List of Arrays filled in two spaces, read and changed by the coordinator; an Array of Lists
  mk -o m.txt --type double --shape ${r}x${c} --seed 43 --lo -1 --hi 1
  args=(matrix_file=m.txt k=$k p=$p)
  # the reference runs first: it writes the program's List of Arrays input, l.txt
  "$ref/ref_list_arrays" "${args[@]}" summary_file=s_ref.txt buckets_file=b_ref.txt tails_file=t_ref.txt \
    in_lists_file=l.txt
  run "${args[@]}" summary_file=s.txt buckets_file=b.txt tails_file=t.txt in_lists_file=l.txt picked_file=p.txt
  chk equal s.txt s_ref.txt 1e-12
  # nested data files: the same text, byte for byte (Integer elements)
  cmp b.txt b_ref.txt
  cmp t.txt t_ref.txt
  # the environment's List of Arrays: [5 6 7], row 0, row k (its sums are in the summary)
  [[ $(head -1 p.txt) == "List of Arrays" && $(tail -1 p.txt) == 3 && \
     $(tail -2 p.txt | head -1) == "0:3 3:$c $((3 + c)):$c" ]] || { echo "list_arrays: p.txt is wrong"; exit 1; } ;;
env_values)
  # list, String and object items of an environment, Strings and objects moving inside the task
  mk -o v.txt --type double --shape $n --seed 41 --lo -1 --hi 1
  args=(input_file=v.txt k=$k strict=1 sep=x p=$p)
  run "${args[@]}" summary_file=s.txt
  "$ref/ref_env_values" "${args[@]}" summary_file=s_ref.txt
  chk equal s.txt s_ref.txt 1e-12 ;;
part_functions)
  # functions called from stages with the LPU's part, by value and by &
  mk -o x.txt --type double --shape $n --seed 33 --lo -1 --hi 1
  mk -o m.txt --type double --shape ${r}x${c} --seed 34 --lo -1 --hi 1
  args=(x_file=x.txt m_file=m.txt t=0.25 f=3 row=5 p=$p)
  run "${args[@]}" x_out=xo.txt m_out=mo.txt summary_file=s.txt
  "$ref/ref_part_functions" "${args[@]}" x_out=xo_ref.txt m_out=mo_ref.txt summary_file=s_ref.txt
  chk equal xo.txt xo_ref.txt 1e-12
  chk equal mo.txt mo_ref.txt 1e-12
  chk equal s.txt s_ref.txt 0 ;;
esac
# The synchronisations the runs performed are those itc plan shows, and the other way round.
python3 "$root/tests/e2e/plan_stats.py" --itc "$itc" --program "$src/$ex.it" --map "$map" --machine "$machine" \
  --stats run_stats.txt
echo "run_e2e.sh: $ex np=$np $mapping $size ok"
