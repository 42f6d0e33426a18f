#!/usr/bin/env bash
# run_errors.sh: run-time checks of generated programs give one clear message and a non-zero
# exit on every rank, never a hang: a missing key=value argument, an input file whose
# dimensions contradict the program, more processes than the machine has segments, (with
# --debug) an out-of-bounds subscript named by its IT source line, list misuse (named the same
# way). Also: a mapping that puts a
# space on other processes than its parent space's parts is no error; the plan gives it parts of
# its own and moves the data (checked against the reference, with the bytes moved).
set -uo pipefail
work=${1:?work dir}
root=${ROOT:?}; itc=${ITC:?}; ref=${REF_DIR:?}
mpirun=${MPIRUN:-mpirun --oversubscribe}
[[ $(id -u) == 0 ]] && mpirun="$mpirun --allow-run-as-root"
mkdir -p "$work" && cd "$work" || exit 1
bad=0
expect() { # expect <what> <pattern> <command...>
  local what=$1 pat=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  if [[ $rc == 0 ]]; then echo "FAIL ($what): exit status 0"; bad=1; return; fi
  if ! grep -q -- "$pat" <<<"$out"; then echo "FAIL ($what): no '$pat' in:"; echo "$out"; bad=1; return; fi
  echo "ok ($what): $(grep -m1 -- "$pat" <<<"$out")"
}
va=$(dirname "$work")/vector-add-cluster/prog-cluster
"$ref/make_input" -o a.txt --type double --shape 50 --seed 1 >/dev/null
"$ref/make_input" -o b.txt --type double --shape 50 --seed 2 >/dev/null
"$ref/make_input" -o m.txt --type double --shape 5x10 --seed 3 >/dev/null
expect "missing argument" "missing command-line argument \`p=" \
  timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b.txt c_file=c.txt
expect "file dimensions" "dimension" \
  timeout 60 $mpirun -np 2 "$va" a_file=m.txt b_file=b.txt c_file=c.txt p=4
expect "too many processes" "more processes than the 4 memory segments" \
  timeout 60 $mpirun -np 5 "$va" a_file=a.txt b_file=b.txt c_file=c.txt p=4
expect "bad partition argument" "p" \
  timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b.txt c_file=c.txt p=0
# --debug: bounds checks naming the IT line
"$itc" compile "$root/tests/e2e/programs/out_of_bounds.it" "$root/tests/e2e/programs/out_of_bounds.map" \
  --machine "$root/pcubes-models/test-cluster-4.pcubes" -o oob --debug || { echo "FAIL: compile --debug"; exit 1; }
expect "bounds check" "out_of_bounds.it:2[0-9]" timeout 60 $mpirun -np 2 ./oob a_file=a.txt b_file=b.txt p=4
# started without mpirun: one process (a light MPI singleton), the same results
if timeout 60 "$va" a_file=a.txt b_file=b.txt c_file=c_alone.txt p=4 &&
   "$ref/ref_vector_add" a_file=a.txt b_file=b.txt c_file=c_alone_ref.txt p=4 &&
   "$ref/ref_check" equal c_alone.txt c_alone_ref.txt 0 >/dev/null; then
  echo "ok (without mpirun): equal to the reference"
else
  echo "FAIL (without mpirun)"; bad=1
fi
# list misuse names the IT line: `value` of a cursor on an empty list
li=$(dirname "$work")/lists-cluster/prog-cluster
"$ref/make_input" -o empty.txt --type double --shape list:0 >/dev/null
expect "value past the end of a list" "lists.it:3[0-9]: \`value\` of a cursor past the end" \
  timeout 60 $mpirun -np 2 "$li" values_file=empty.txt matrix_file=m.txt keep=2 p=2 best_file=b.txt output_file=o.txt
# IT text copied into the C++ (comments, names) never breaks it: continuation lines ending in
# `\ `, `*/`, `??/`, a Latin-1 byte, a very long line, a task name with `??`
"$itc" compile "$root/tests/e2e/programs/awkward_text.it" "$root/tests/e2e/programs/awkward_text.map" \
  --machine "$root/pcubes-models/test-cluster-4.pcubes" -o awkward || { echo "FAIL: compile awkward_text"; exit 1; }
"$ref/make_input" -o va.txt --type double --shape 97 --seed 1 --lo -10 --hi 10 >/dev/null
"$ref/make_input" -o vb.txt --type double --shape 97 --seed 2 --lo -10 --hi 10 >/dev/null
if timeout 60 $mpirun -np 2 ./awkward a_file=va.txt b_file=vb.txt c_file=vc.txt p=5 &&
   "$ref/ref_vector_add" a_file=va.txt b_file=vb.txt c_file=vc_ref.txt p=5 &&
   "$ref/ref_check" equal vc.txt vc_ref.txt 0 >/dev/null; then
  echo "ok (awkward source text): compiled and equal to the reference"
else
  echo "FAIL (awkward source text)"; bad=1
fi
# stages of two spaces sharing an array across processes: parts of their own and movements
"$itc" compile "$root/tests/e2e/programs/nested.it" "$root/tests/e2e/programs/nested_split.map" \
  --machine "$root/pcubes-models/test-cluster-4.pcubes" -o nested_split || { echo "FAIL: compile nested"; exit 1; }
"$ref/make_input" -o x.txt --type double --shape 97 --seed 3 --lo -1 --hi 1 >/dev/null
if IT_STATS=1 timeout 60 $mpirun -np 2 ./nested_split input_file=x.txt output_file=n.txt rounds=3 p=7 q=3 2>stats.txt &&
   "$ref/ref_nested" input_file=x.txt output_file=n_ref.txt rounds=3 p=7 q=3 &&
   "$ref/ref_check" equal n.txt n_ref.txt 1e-12 >/dev/null &&
   grep -q "gather up of x from Space B to Space A" stats.txt &&
   grep -q "scatter down of x from Space A to Space B" stats.txt; then
  echo "ok (space across processes): results equal the reference, data moved between the spaces"
else
  echo "FAIL (space across processes):"; cat stats.txt; bad=1
fi
exit $bad
