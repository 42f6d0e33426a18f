# Sourced by the e2e scripts (run_errors.sh, run_faults.sh, run_sharing.sh, run_by_hand.sh) with
# their arguments: enters the work directory (the first argument) and sets the paths the ctest
# environment gives (ROOT, ITC, REF_DIR), an mpirun that may oversubscribe and run as root, and
# `bad`, the script's exit status so far; defines `compile` and `check` below.
work=${1:?work dir}
root=${ROOT:?}; itc=${ITC:?}; ref=${REF_DIR:?}
mpirun=${MPIRUN:-mpirun --oversubscribe}
[[ $(id -u) == 0 ]] && mpirun="$mpirun --allow-run-as-root"
mkdir -p "$work" && cd "$work" || exit 1
bad=0
# compile <program.it> <map> <output> [itc options...]: for test-cluster-4; a failure ends the
# script, since every check after it would fail for the same reason.
compile() {
  local program=$1 map=$2 output=$3
  shift 3
  "$itc" compile "$program" "$map" --machine "$root/pcubes-models/test-cluster-4.pcubes" -o "$output" "$@" ||
    { echo "FAIL: compile $output"; exit 1; }
}
# check <what> <np> <want file> <got file> <command...>: runs the command under mpirun -np <np>
# and compares the file it writes with the expected one, exactly.
check() {
  local what=$1 np=$2 want=$3 got=$4; shift 4
  rm -f "$got"
  if timeout 60 $mpirun -np "$np" "$@" >run.log 2>&1 && "$ref/ref_check" equal "$got" "$want" 0 >/dev/null; then
    echo "ok ($what, np $np)"
  else echo "FAIL ($what, np $np): got"; cat "$got" run.log 2>/dev/null; echo "want"; cat "$want"; bad=1; fi
}
# check_also <what> <want file> <got file>: another file the last `check` run wrote, compared
# exactly (no second run).
check_also() {
  local what=$1 want=$2 got=$3
  if "$ref/ref_check" equal "$got" "$want" 0 >/dev/null; then echo "ok ($what)"
  else echo "FAIL ($what): got"; cat "$got" 2>/dev/null; echo "want"; cat "$want"; bad=1; fi
}
