#!/usr/bin/env bash
# relocated.sh BUILD_DIR WORK_DIR: `cmake --install` into a temporary prefix, move the prefix
# elsewhere, then use only the moved tree: its itc compiles the installed dot-product example for
# the installed test-cluster model, its `itc data make` makes the inputs, the program runs under
# `mpirun -np 2`, and the result is compared (installed `itc data compare`) with the dot product
# computed independently by a few lines of python3. Nothing of the build or source tree is used
# after the install, so a path baked in at build time would fail the test.
set -euo pipefail
build=${1:?usage: relocated.sh BUILD_DIR WORK_DIR}
work=${2:?usage: relocated.sh BUILD_DIR WORK_DIR}
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/first" >"$work/install.log"
# A blank and a quote in the path, too: itc passes every path to the C++ compiler as one word
# (a quote once ended the word and ran the rest as a shell command).
mv "$work/first" "$work/moved prefix's copy"
prefix="$work/moved prefix's copy"
itc="$prefix/bin/itc"
for f in bin/itc lib/itc/libitrt_task.a lib/itc/libitrt_data.a lib/itc/libitrt_engine.a \
         include/itc/runtime/task/program.h share/itc/pcubes-models/test-cluster-4.pcubes \
         share/doc/itc/examples/dot-product/dot-product.it share/doc/itc/language/tutorial.md; do
  [[ -e $prefix/$f ]] || { echo "FAIL: the install has no $f"; exit 1; }
done
# The installed itc must not find the build tree: hide it from the PATH and run from elsewhere.
export PATH="$prefix/bin:/usr/bin:/bin"
cd "$work"
itc --version | tee version.txt
grep -qxF "libitrt installed: $prefix/include/itc, $prefix/lib/itc" version.txt ||
  { echo "FAIL: the moved itc does not use the runtime beside it"; exit 1; }
example="$prefix/share/doc/itc/examples/dot-product"
itc compile "$example/dot-product.it" "$example/dot-product.map" \
    --machine "$prefix/share/itc/pcubes-models/test-cluster-4.pcubes" -o "dot';touch ran;'" --emit-cpp "it's cpp"
[[ ! -e ran && -f "it's cpp/dot';touch ran;'.cpp" ]] || { echo "FAIL: a quote in -o was not one word"; exit 1; }
mv "dot';touch ran;'" dot
itc data make -o u.txt --type double --shape 1000 --seed 11 --lo -1 --hi 1
itc data make -o v.txt --type double --shape 1000 --seed 12 --lo -1 --hi 1
mpirun=(mpirun --oversubscribe)
[[ $(id -u) == 0 ]] && mpirun+=(--allow-run-as-root)
"${mpirun[@]}" -np 2 ./dot u_file=u.txt v_file=v.txt p=8 output_file=dot.txt
python3 - <<'PY'
# The reference: read both text files (header, elements, length) and sum the products.
def read(name):
    lines = open(name).read().strip().split("\n")
    assert lines[0] == "Array", name
    return [float(w) for line in lines[1:-1] for w in line.split()]
u, v = read("u.txt"), read("v.txt")
assert len(u) == len(v) == 1000
with open("dot_ref.txt", "w") as f:
    f.write("Array\n%r\n1\n" % sum(a * b for a, b in zip(u, v)))
PY
itc data compare dot.txt dot_ref.txt --type double --tolerance 1e-12
echo "relocated install: compiled and ran dot-product from $prefix"
