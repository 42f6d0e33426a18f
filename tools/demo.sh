#!/usr/bin/env bash
# The main job on a fresh machine: install dependencies, build itc, describe this machine with
# hwloc, check every example, then compile the paper's block matrix multiply (Listing 1) for
# this machine split into two MPI segments that share its cores (`itc machine --segments 2`),
# run it under `mpirun -np 2` on inputs made by `itc data make`, compare the product with an
# independent sequential reference (`itc data compare`), print both times and rates, then run it
# once more with IT_TRACE and show `itc trace`'s summary. Exits non-zero on the first failure.
#   tools/demo.sh [rows cols inner]     (default 1024 1024 1024)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
rows=${1:-1024} cols=${2:-1024} inner=${3:-1024}
out="$root/out/demo"

step() { printf '\n== %s\n' "$*"; }
seconds() { date +%s.%N; }

step "installing dependencies (no-op when present)"
bash "$root/tools/install-deps.sh"

step "building itc, libitrt and the sequential reference"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target itc itrt_task ref_matrix_multiply
itc="$build/tools/itc"
ref="$build/tests/reference"
"$itc" --version

mkdir -p "$out"
cd "$out"
step "checking every example (syntax, semantics, partitions, mapping on test-cluster-4)"
for prog in "$root"/examples/*/*.it; do
  "$itc" check "$prog" "${prog%.it}.map" --machine "$root/pcubes-models/test-cluster-4.pcubes"
  echo "ok    ${prog#"$root/"}"
done

step "describing this machine as two MPI segments sharing its cores: $out/local.pcubes"
"$itc" machine --segments 2 -o local.pcubes
cat local.pcubes
core=$(grep -E '^Space [0-9]+ *<[^:]*core' local.pcubes | sed -E 's/^Space ([0-9]+).*/\1/')
printf '"Block_Matrix_Multiply" {\n    Space A: %s   // c blocks spread over the cores of both segments\n}\n' \
  "$core" > mm.map
cat mm.map

step "compiling examples/matrix-multiply for this machine"
"$itc" compile "$root/examples/matrix-multiply/matrix-multiply.it" mm.map --machine local.pcubes \
  -o mm -O3
ls -l mm

step "making ${rows}x${inner} and ${inner}x${cols} single-precision inputs"
"$itc" data make -o a.bin --type float --shape "${rows}x${inner}" --seed 11 --lo -1 --hi 1
"$itc" data make -o b.bin --type float --shape "${inner}x${cols}" --seed 12 --lo -1 --hi 1
"$itc" data show a.bin --type float --count 3
# c in 128 x 512 blocks (16 LPUs over the cores), a and b streamed 128 columns / rows at a time
k=$(( rows < 128 ? rows : 128 )) l=$(( cols < 512 ? cols : 512 )) q=$(( inner < 128 ? inner : 128 ))
args=(input_file_1=a.bin input_file_2=b.bin k=$k l=$l q=$q)

mpirun=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
step "running: ${mpirun[*]} -np 2 ./mm ${args[*]} output_file=c.bin"
t0=$(seconds)
"${mpirun[@]}" -np 2 ./mm "${args[@]}" output_file=c.bin
t1=$(seconds)

step "running the sequential reference"
"$ref/ref_matrix_multiply" "${args[@]}" output_file=c_ref.bin
t2=$(seconds)

step "comparing the IT result with the reference"
"$itc" data compare c.bin c_ref.bin --type float --tolerance 1e-4
flops=$(awk "BEGIN{print 2 * $rows * $cols * $inner}")
rate() { awk -v f="$flops" -v t="$1" 'BEGIN { printf "%.3f s  %6.2f GFLOP/s", t, f / t / 1e9 }'; }
printf '\nIT program, mpirun -np 2 (incl. MPI start-up and file I/O): %s\n' "$(rate "$(awk "BEGIN{print $t1 - $t0}")")"
printf 'sequential reference (incl. file I/O):                     %s\n' "$(rate "$(awk "BEGIN{print $t2 - $t1}")")"

step "tracing the same run: IT_TRACE=mm-trace.json, then itc trace (summary and SVG timeline)"
IT_TRACE=mm-trace.json "${mpirun[@]}" -np 2 ./mm "${args[@]}" output_file=c_traced.bin
"$itc" trace mm-trace.json -o mm-trace.svg
echo "open $out/mm-trace.svg in a browser, or mm-trace.json in https://ui.perfetto.dev"
