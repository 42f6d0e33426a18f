#!/usr/bin/env bash
# Error-path check: runs an mpirun command line, expects a non-zero exit, exactly ONE line
# starting with "itrt: error" in the combined output, and that line to match a pattern.
# Usage: check_fail.sh <pattern> <command...>
# ALSO (optional): more patterns, one per line, each of which some line of the output must match.
set -u
pattern=$1
shift
out=$(timeout 60 "$@" 2>&1)
rc=$?
count=$(printf '%s\n' "$out" | grep -c '^itrt: error' || true)
ok=1
if [ "$rc" -eq 0 ]; then echo "FAIL: expected a non-zero exit status, got 0"; ok=0; fi
if [ "$rc" -eq 124 ]; then echo "FAIL: timed out (hang)"; ok=0; fi
if [ "$count" -ne 1 ]; then echo "FAIL: expected exactly one 'itrt: error' line, found $count"; ok=0; fi
if ! printf '%s\n' "$out" | grep '^itrt: error' | grep -qE "$pattern"; then
  echo "FAIL: the error line does not match /$pattern/"; ok=0
fi
while IFS= read -r also; do
  [ -z "$also" ] && continue
  if ! printf '%s\n' "$out" | grep -qE "$also"; then echo "FAIL: no line of the output matches /$also/"; ok=0; fi
done <<< "${ALSO:-}"
if [ "$ok" -ne 1 ]; then
  echo "---- command: $*"; echo "---- exit status: $rc"; echo "---- output:"; printf '%s\n' "$out"
  exit 1
fi
echo "PASS: exit status $rc, one message: $(printf '%s\n' "$out" | grep '^itrt: error')"
