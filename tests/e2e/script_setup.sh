# Sourced by the e2e scripts (run_errors.sh, run_faults.sh, run_sharing.sh, run_by_hand.sh) with
# their arguments: enters the work directory (the first argument) and sets the paths the ctest
# environment gives (ROOT, ITC, REF_DIR), an mpirun that may oversubscribe and run as root, and
# `bad`, the script's exit status so far.
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
