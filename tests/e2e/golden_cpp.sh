#!/usr/bin/env bash
# golden_cpp.sh [--update]: the C++ that `itc compile --emit-cpp` writes for examples/vector-add
# and examples/stencil must match tests/e2e/golden/*.cpp byte for byte (deterministic names,
# libFormat layout, IT line comments). With --update it rewrites the golden files instead.
set -euo pipefail
root=${ROOT:?}; itc=${ITC:?}
update=0; [[ ${1:-} == --update ]] && update=1
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
cd "$root"
bad=0
for ex in vector-add stencil; do
  "$itc" compile examples/$ex/$ex.it examples/$ex/$ex.map --machine pcubes-models/test-cluster-4.pcubes \
    -o "$out/$ex" --emit-cpp "$out/cpp"
  if ((update)); then cp "$out/cpp/$ex.cpp" tests/e2e/golden/$ex.cpp; continue; fi
  if ! diff -u tests/e2e/golden/$ex.cpp "$out/cpp/$ex.cpp"; then
    echo "golden_cpp.sh: emitted C++ for $ex differs (run with --update if intended)"; bad=1
  fi
done
exit $bad
