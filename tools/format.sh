#!/usr/bin/env bash
# Applies the project's C++ style (.clang-format files) to every C++ source in git, or with
# --check only reports the files that differ and exits non-zero (what CI runs, a few seconds).
# Not formatted: backend/templates (text embedded in generated programs) and tests/e2e/golden
# (generated C++ compared byte for byte); their .clang-format files say DisableFormat.
# Usage: tools/format.sh [--check]    Environment: CLANG_FORMAT (default clang-format-14, the
# version Debian's clang-format package installs: other versions format some constructs otherwise)
set -euo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || echo clang-format-14)}
command -v "$cf" >/dev/null || { echo "tools/format.sh: $cf not found (tools/install-deps.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v -e '^backend/templates/' -e '^tests/e2e/golden/')
case ${1:-} in
--check)
  bad=()
  for f in "${files[@]}"; do
    "$cf" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if ((${#bad[@]})); then
    echo "tools/format.sh: ${#bad[@]} file(s) differ from .clang-format (run tools/format.sh):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "tools/format.sh: ${#files[@]} files follow .clang-format" ;;
"") "$cf" -i "${files[@]}" ;;
*) echo "usage: tools/format.sh [--check]" >&2; exit 2 ;;
esac
