#!/usr/bin/env bash
# The main job on a fresh machine: install dependencies, build itc, describe this machine with
# hwloc, and check every example program (syntax and semantics; with its mapping where the
# machine-model checks are available). Prints what it does; exits non-zero on the first failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

step() { printf '\n== %s\n' "$*"; }

step "installing dependencies (no-op when present)"
bash "$root/tools/install-deps.sh"

step "building itc"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target itc
itc="$build/tools/itc"
"$itc" --version

out="$root/out"
mkdir -p "$out"
if "$itc" --help | grep -q '^  machine'; then
  step "describing this machine: $out/local.pcubes"
  "$itc" machine -o "$out/local.pcubes"
  cat "$out/local.pcubes"
fi

step "checking every example"
status=0
for prog in "$root"/examples/*/*.it; do
  rel=${prog#"$root/"}
  if "$itc" check "$prog"; then
    echo "ok    $rel"
  else
    echo "FAIL  $rel"
    status=1
  fi
done
exit $status
