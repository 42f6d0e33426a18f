#!/usr/bin/env bash
# Runs clang-tidy with the project's .clang-tidy (likely bugs and needless copies) over our C++
# sources and fails on any finding. Needs BUILD_DIR/compile_commands.json (tools/test.sh's
# build makes it).
#   tools/tidy.sh          backend/, semantic/ and runtime/task/: the compiler's decisions and the
#                          layer generated programs call (what CI runs, about 3 minutes on 2 cores)
#   tools/tidy.sh --all    every source of frontend/, semantic/, backend/, runtime/, pcubes/ and
#                          tools/ (about 9 minutes on 2 cores), except the files that include
#                          the ANTLR runtime: Debian's ANTLR 4.9 headers do not parse with
#                          clang 14 (an error inside antlr4-runtime, not in our code)
# Environment: BUILD_DIR (default build/), JOBS (default 2), CLANG_TIDY (default clang-tidy-14).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-2}
ct=${CLANG_TIDY:-$(command -v clang-tidy-14 || command -v clang-tidy || echo clang-tidy-14)}
command -v "$ct" >/dev/null || { echo "tools/tidy.sh: $ct not found (tools/install-deps.sh installs it)" >&2; exit 2; }
[[ -f $build/compile_commands.json ]] ||
  { echo "tools/tidy.sh: no $build/compile_commands.json (build first: tools/test.sh)" >&2; exit 2; }
case ${1:-} in
--all) dirs=(frontend semantic backend runtime pcubes tools) ;;
"") dirs=(backend semantic runtime/task) ;;
*) echo "usage: tools/tidy.sh [--all]" >&2; exit 2 ;;
esac
# Files that include the ANTLR runtime, directly or through one of our headers that does.
# (ANTLR's generated lexers and parsers, e.g. ITParser.h, are such headers too.)
antlr_include='antlr4-runtime|#include "[A-Za-z]*(Lexer|Parser|Listener|Visitor)\.h"'
mapfile -t antlr_headers < <(git ls-files '*.h' | xargs grep -l -E "$antlr_include" || true)
uses_antlr() {
  grep -q -E "$antlr_include" "$1" && return 0
  local h
  for h in "${antlr_headers[@]}"; do grep -q "#include \"$h\"" "$1" && return 0; done
  return 1
}
files=()
# backend/templates: C++ text the backend pastes into generated programs, not sources of ours.
while read -r f; do uses_antlr "$f" || files+=("$f"); done < <(git ls-files "${dirs[@]/%//*.cpp}" | grep -v '^backend/templates/')
log=$(mktemp)
commands=$(mktemp -d)
trap 'rm -rf "$log" "$commands"' EXIT
# The build's compile commands without the forced include of GCC's precompiled headers
# (cmake/ItcPrecompile.cmake): clang would find the .gch beside it and fail to read it. Every file
# includes what it uses, so clang-tidy sees the same code.
python3 - "$build/compile_commands.json" "$commands/compile_commands.json" <<'PY'
import json, re, sys
entries = json.load(open(sys.argv[1]))
pch = re.compile(r" -include \S*cmake_pch\.hxx| -Winvalid-pch")
for e in entries:  # CMake's Ninja generator writes "command" strings
    e["command"] = pch.sub("", e["command"])
json.dump(entries, open(sys.argv[2], "w"))
PY
printf '%s\n' "${files[@]}" |
  xargs -P "$jobs" -n 4 "$ct" -p "$commands" --quiet >"$log" 2>/dev/null || true
if grep -E ': (warning|error): ' "$log" >/dev/null; then
  grep -E -A3 ': (warning|error): ' "$log" >&2
  echo "tools/tidy.sh: clang-tidy findings in the files above (${#files[@]} files checked)" >&2
  exit 1
fi
echo "tools/tidy.sh: ${#files[@]} files pass .clang-tidy"
