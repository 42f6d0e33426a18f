#!/usr/bin/env bash
# run_functions.sh: end-to-end check of tests/e2e/programs/functions.it (functions of both forms,
# classes, @Extern code in stages, Initialize, the coordinator and functions): compile it once for
# pcubes-models/test-cluster-4.pcubes (cached in the work dir), run it under `mpirun -np N` on a
# seeded input and compare every output with tests/reference/ref_functions.
#
#   run_functions.sh <np> <small|uneven|compile> <work-dir>
# Environment: ITC, REF_DIR (tests/reference build dir), ROOT (source root), MPIRUN.
set -euo pipefail
np=${1:?np}; size=${2:?size}; work=${3:?work dir}
root=${ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
itc=${ITC:?ITC must name the itc binary}
ref=${REF_DIR:?REF_DIR must name the tests/reference build dir}
mpirun=${MPIRUN:-mpirun --oversubscribe}
[[ $(id -u) == 0 ]] && mpirun="$mpirun --allow-run-as-root"
src=$root/tests/e2e/programs
mkdir -p "$work"
cd "$work"
prog=$work/prog
if [[ ! -x $prog ]]; then
  "$itc" compile "$src/functions.it" "$src/functions.map" --machine "$root/pcubes-models/test-cluster-4.pcubes" \
    -o "$prog" --emit-cpp "$work/cpp"
fi
[[ $size == compile ]] && { echo "run_functions.sh: compiled"; exit 0; }
case $size in
small) len=100 p=8 factor=1.5 modulus=12 n=10 ;;
uneven) len=997 p=7 factor=0.75 modulus=30 n=37 ;;
*) echo "run_functions.sh: unknown size $size" >&2; exit 2 ;;
esac
"$ref/make_input" -o x.txt --type double --shape $len --seed 21 --lo -2 --hi 2 >/dev/null
args=(x_file=x.txt factor=$factor modulus=$modulus n=$n p=$p)
echo "+ mpirun -np $np prog ${args[*]}"
$mpirun -np "$np" "$prog" "${args[@]}" y_file=y.txt keys_file=keys.txt summary_file=summary.txt >out.txt
cat out.txt
"$ref/ref_functions" "${args[@]}" y_file=y_ref.txt keys_file=keys_ref.txt summary_file=summary_ref.txt
"$ref/ref_check" equal keys.txt keys_ref.txt 0
"$ref/ref_check" equal y.txt y_ref.txt 1e-12
"$ref/ref_check" equal summary.txt summary_ref.txt 1e-12
# the coordinator's native code printed on every rank
lines=$(grep -c "^functions: $n values, total " out.txt || true)
[[ $lines == "$np" ]] || { echo "run_functions.sh: expected $np lines from the coordinator's @Extern, got $lines"; exit 1; }
echo "run_functions.sh: np=$np $size ok"
