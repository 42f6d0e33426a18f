#!/usr/bin/env bash
# run_example.sh: end-to-end recipe for one examples/ program. Generates small seeded inputs,
# compiles and runs the IT program under mpirun, runs the sequential reference with the same
# arguments, and compares the outputs with ref_check. With --reference-only it skips itc and
# mpirun and only checks that the reference side of the recipe works (used by ctest).
#
#   run_example.sh [--reference-only] <example> <work-dir> [np]
#
# Environment: BUILD (build dir holding tests/reference/* and tools/itc; default: ./build),
#              ITC (itc binary), MACHINE (machine file; default pcubes-models/test-cluster-4.pcubes),
#              MPIRUN (default: mpirun --oversubscribe).
set -euo pipefail

reference_only=0
if [[ ${1:-} == --reference-only ]]; then reference_only=1; shift; fi
example=${1:?usage: run_example.sh [--reference-only] <example> <work-dir> [np]}
work=${2:?missing work dir}
np=${3:-4}

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build}
ref=${REF_DIR:-$build/tests/reference}
itc=${ITC:-$build/tools/itc}
machine=${MACHINE:-$root/pcubes-models/test-cluster-4.pcubes}
mpirun=${MPIRUN:-mpirun --oversubscribe}
src=$root/examples/$example

mkdir -p "$work"
cd "$work"
make_input() { "$ref/make_input" "$@"; }
check() { echo "+ ref_check $*"; "$ref/ref_check" "$@"; }

# run_it <args...>: compile (once) and run the IT program, unless --reference-only
run_it() {
  if ((reference_only)); then return 0; fi
  if [[ ! -x ./prog ]]; then
    "$itc" compile "$src/$example.it" "$src/$example.map" --machine "$machine" -o ./prog
  fi
  echo "+ $mpirun -np $np ./prog $*"
  $mpirun -np "$np" ./prog "$@"
}
# it_check <ref_check args...>: comparisons that need the IT program's outputs
it_check() { if ((reference_only)); then return 0; fi; check "$@"; }

case $example in
vector-add)
  make_input -o a.txt --type double --shape 1000 --seed 1 --lo -10 --hi 10
  make_input -o b.bin --type double --shape 1000 --seed 2 --lo -10 --hi 10   # binary input
  args=(a_file=a.txt b_file=b.bin p=8)
  run_it "${args[@]}" c_file=c.txt
  "$ref/ref_vector_add" "${args[@]}" c_file=c_ref.txt
  it_check equal c.txt c_ref.txt 0
  run_it "${args[@]}" c_file=c.bin                                           # binary output
  it_check equal c.bin c_ref.txt 0
  ;;
dot-product)
  make_input -o u.txt --type double --shape 1000 --kind constant --value 1
  make_input -o v.txt --type double --shape 1000 --kind flat
  args=(u_file=u.txt v_file=v.txt p=8)
  run_it "${args[@]}" output_file=dot.txt
  "$ref/ref_dot_product" "${args[@]}" output_file=dot_ref.txt
  check value dot_ref.txt 0 499500 0
  it_check value dot.txt 0 499500 0
  ;;
moving-average)
  make_input -o x.txt --type double --shape 1000 --seed 3 --lo -1 --hi 1
  args=(input_file=x.txt p=8 lag=3)
  run_it "${args[@]}" output_file=y.txt
  "$ref/ref_moving_average" "${args[@]}" output_file=y_ref.txt
  it_check equal y.txt y_ref.txt 1e-15
  ;;
matrix-multiply)
  make_input -o a.txt --type float --shape 48x40 --seed 4 --lo -1 --hi 1
  make_input -o b.txt --type float --shape 40x36 --seed 5 --lo -1 --hi 1
  args=(input_file_1=a.txt input_file_2=b.txt k=12 l=9 q=8)
  run_it "${args[@]}" output_file=c.txt
  "$ref/ref_matrix_multiply" "${args[@]}" output_file=c_ref.txt
  it_check equal float:c.txt float:c_ref.txt 1e-5
  ;;
row-max)
  make_input -o m.txt --type double --shape 12x10 --seed 6 --lo -50 --hi 50
  args=(matrix_file=m.txt s=2)
  run_it "${args[@]}" output_file=max.txt sums_file=sums.txt
  "$ref/ref_row_max" "${args[@]}" output_file=max_ref.txt sums_file=sums_ref.txt
  it_check equal sums.txt sums_ref.txt 0
  it_check equal max.txt max_ref.txt 0
  ;;
monte-carlo)
  args=(batches=16 draws=2000 seed=2024 max_rounds=20 tolerance=0.005 keep=4 p=8)
  run_it "${args[@]}" output_file=pi.txt lpu_file=lpu.txt history_file=history.txt
  "$ref/ref_monte_carlo" "${args[@]}" output_file=pi_ref.txt lpu_file=lpu_ref.txt history_file=history_ref.txt
  check pi pi_ref.txt lpu_ref.txt history_ref.txt 4
  it_check equal pi.txt pi_ref.txt 0
  it_check equal int:lpu.txt int:lpu_ref.txt 0
  it_check equal history.txt history_ref.txt 0
  ;;
conjugate-gradient)
  make_input -o a.txt --type double --shape 64x64 --kind spd --seed 7 --lo -1 --hi 1
  make_input -o b.txt --type double --shape 64 --seed 8 --lo -1 --hi 1
  args=(matrix_file=a.txt rhs_file=b.txt tolerance=1e-10 max_iterations=300 p=8 q=4 c=2)
  run_it "${args[@]}" solution_file=x.txt summary_file=cg.txt
  "$ref/ref_cg" "${args[@]}" solution_file=x_ref.txt summary_file=cg_ref.txt
  check residual a.txt x_ref.txt b.txt 1e-9
  it_check residual a.txt x.txt b.txt 1e-9
  it_check equal x.txt x_ref.txt 1e-8
  ;;
stencil)
  make_input -o plate.txt --type float --shape 40x36 --seed 9 --lo 0 --hi 100
  args=(input_file=plate.txt iterations=3 p1=4 p2=2 k=10 l=12 m=7 n=8)
  run_it "${args[@]}" output_file=out.txt
  "$ref/ref_stencil" "${args[@]}" output_file=out_ref.txt
  check stencil-bounds plate.txt out_ref.txt
  it_check equal float:out.txt float:out_ref.txt 1e-6
  ;;
radix-sort)
  make_input -o keys.txt --type int --shape 2000 --seed 10 --lo 0 --hi 65535
  args=(input_file=keys.txt digits=4 key_size=16 p=8)
  run_it "${args[@]}" output_file=sorted.txt
  "$ref/ref_radix_sort" "${args[@]}" output_file=sorted_ref.txt
  check sorted-permutation keys.txt sorted_ref.txt
  it_check equal int:sorted.txt int:sorted_ref.txt 0
  ;;
lu-factorization)
  make_input -o a.txt --type double --shape 24x24 --seed 11 --lo -1 --hi 1
  args=(argument_matrix_file=a.txt block_size=8 k=4 l=4 q=4)
  run_it "${args[@]}" upper_matrix_file=u.txt lower_matrix_file=l.txt pivot_matrix_file=p.txt
  "$ref/ref_lu" "${args[@]}" upper_matrix_file=u_ref.txt lower_matrix_file=l_ref.txt pivot_matrix_file=p_ref.txt
  check lu a.txt u_ref.txt l_ref.txt p_ref.txt 1e-10
  it_check lu a.txt u.txt l.txt p.txt 1e-10
  it_check equal int:p.txt int:p_ref.txt 0
  it_check equal u.txt u_ref.txt 1e-9
  it_check equal l.txt l_ref.txt 1e-9
  ;;
*)
  echo "run_example.sh: unknown example '$example'" >&2
  exit 2
  ;;
esac
echo "run_example.sh: $example ok"
