#!/usr/bin/env bash
# Regenerates the .expected files of tests/pcubes/testdata with the itc of BUILD_DIR (default
# build/). Review every change with `git diff` before committing: never edit one to pass.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
mapfile -t files < <(find "$here/testdata" -name '*.pcubes' -o -name '*.ml' -o -name '*.map' -o -name '*.run' | sort)
python3 "$here/../golden/golden.py" --itc "$build/tools/itc" --update "${files[@]}"
