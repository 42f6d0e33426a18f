#!/usr/bin/env bash
# version.sh ITC: `itc --version` names itc's own version and, each on its own line, the releases
# of ANTLR4's C++ runtime, LLVM, the MPI, hwloc and fmt. Each is compared with what the system
# says independently (dpkg, llvm-config, mpirun, pkg-config), not with an earlier itc output.
set -euo pipefail
itc=${1:?usage: version.sh ITC [PROJECT_VERSION]}
project_version=${2:-}
out=$("$itc" --version)
echo "$out"
fail=0
expect() { # expect LABEL REGEX: some line of the output matches REGEX
  if grep -Eq -- "$2" <<<"$out"; then echo "ok: $1"; else echo "FAIL: $1: no line matches /$2/"; fail=1; fi
}
need() { [[ -n $1 ]] || { echo "FAIL: cannot tell the expected version: $2 says nothing"; fail=1; }; }
[[ -z $project_version ]] || expect "itc's own version" "^itc ${project_version//./\\.}\$"
# ANTLR4 runtime: the Debian package's upstream version (4.9+dfsg-3 -> 4.9).
antlr=$(dpkg-query -W -f '${Version}' 'libantlr4-runtime-dev' 2>/dev/null | sed -E 's/^([0-9.]+).*/\1/' || true)
need "$antlr" "libantlr4-runtime-dev's version"
expect "ANTLR4 runtime $antlr" "^ANTLR4 runtime ${antlr//./\\.}( |\$)"
llvm=$(llvm-config-14 --version 2>/dev/null || llvm-config --version 2>/dev/null || true)
need "$llvm" "llvm-config-14 --version"
expect "LLVM $llvm" "^LLVM ${llvm//./\\.}( |\$)"
ompi=$(mpirun --version 2>/dev/null | sed -nE 's/^mpirun \(Open MPI\) ([0-9.]+).*/\1/p' | head -1)
need "$ompi" "mpirun --version"
expect "Open MPI $ompi" "^Open MPI ${ompi//./\\.} "
hwloc=$(pkg-config --modversion hwloc)
expect "hwloc $hwloc" "^hwloc ${hwloc//./\\.} \\(API [0-9]+\\.[0-9]+\\.[0-9]+\\)"
fmt=$(pkg-config --modversion fmt)
expect "fmt $fmt" "^fmt ${fmt//./\\.}\$"
expect "where libitrt is" "^libitrt (installed|build tree): "
# Exactly these seven lines, so a new dependency line is added here on purpose.
lines=$(wc -l <<<"$out")
[[ $lines == 7 ]] || { echo "FAIL: expected 7 lines, got $lines"; fail=1; }
exit $fail
