#!/usr/bin/env bash
# blas_vs_loops.sh: the block matrix multiply of examples/matrix-multiply, in single and in
# double precision (the example with its arrays made `Real double-precision`), compiled twice
# for a single-process host mapping: as itc compiles it by default (the stage is a gemm: the
# emitted C++ must call itrt::task::dense_gemm, i.e. OpenBLAS) and with `--no-blas` (loops only,
# no such call). Every build runs on sizes that do not divide by the partition arguments and
# must equal the sequential reference (tests/reference/ref_matrix_multiply, element=float or
# double) within the precision's tolerance, and the two builds must equal each other.
#   blas_vs_loops.sh <work-dir>     Environment: ITC, REF_DIR, ROOT, MPIRUN (as run_e2e.sh)
set -euo pipefail
work=${1:?work dir}
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
itc=${ITC:?ITC must name the itc binary}
ref=${REF_DIR:?REF_DIR must name the tests/reference build dir}
mpirun=${MPIRUN:-mpirun --oversubscribe}
[[ $(id -u) == 0 ]] && mpirun="$mpirun --allow-run-as-root"
mkdir -p "$work"
cd "$work"

machine=$work/host.pcubes
[[ -f $machine ]] || "$itc" machine -o "$machine" >/dev/null
core=$(grep -E '^Space [0-9]+ *<[^:]*core' "$machine" | sed -E 's/^Space ([0-9]+).*/\1/')
printf '"Block_Matrix_Multiply" { Space A: %s }\n' "$core" >host.map
cp "$root/examples/matrix-multiply/matrix-multiply.it" mm_float.it
sed 's/Real single-precision/Real double-precision/' mm_float.it >mm_double.it
grep -q 'Real double-precision' mm_double.it || { echo "no double variant made" >&2; exit 1; }

# r x inner times inner x c, blocks k x l, sub-partitions of q: nothing divides evenly
r=97 c=131 inner=89 k=20 l=33 q=16
for element in float double; do
  tol=1e-4; [[ $element == double ]] && tol=1e-10
  "$ref/make_input" -o a_$element.bin --type $element --shape ${r}x${inner} --seed 4 --lo -1 --hi 1 >/dev/null
  "$ref/make_input" -o b_$element.txt --type $element --shape ${inner}x${c} --seed 5 --lo -1 --hi 1 >/dev/null
  args=(input_file_1=a_$element.bin input_file_2=b_$element.txt k=$k l=$l q=$q)
  "$ref/ref_matrix_multiply" "${args[@]}" element=$element output_file=c_ref_$element.txt
  for variant in blas loops; do
    flags=(); [[ $variant == loops ]] && flags=(--no-blas)
    prog=mm_${element}_$variant
    "$itc" compile mm_$element.it host.map --machine "$machine" -o $prog --emit-cpp cpp_$prog "${flags[@]}"
    calls=$(grep -c 'itrt::task::dense_gemm(' cpp_$prog/$prog.cpp || true)
    if [[ $variant == blas && $calls == 0 ]]; then
      echo "$prog: the stage was not compiled to a BLAS call" >&2; exit 1
    fi
    if [[ $variant == loops && $calls != 0 ]]; then
      echo "$prog: --no-blas still calls BLAS" >&2; exit 1
    fi
    echo "+ mpirun -np 1 $prog ${args[*]}"
    $mpirun -np 1 ./$prog "${args[@]}" output_file=c_${element}_$variant.txt
    "$ref/ref_check" equal $element:c_${element}_$variant.txt $element:c_ref_$element.txt $tol
  done
  "$ref/ref_check" equal $element:c_${element}_blas.txt $element:c_${element}_loops.txt $tol
done
echo "blas_vs_loops.sh: BLAS and loop builds equal the reference in float and double"
