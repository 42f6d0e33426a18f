#!/usr/bin/env bash
# run_faults.sh: faults end cleanly.
#  (a) a rank killed (SIGKILL) in the middle of a task, at np 2 and 4: the job ends non-zero within
#      10 s and the output is either complete (the run finished first) or absent — an older file
#      under that name is untouched; killed again around the time the output is written, the same.
#  (b) native code in a stage calls itrt::fail on one rank: one message naming the rank and the
#      @Extern block's IT line, every rank exits non-zero, no output.
#  (c) writing an output fails (a file-size limit, ulimit -f, on the ranks): a clear message
#      naming the file, non-zero exit, the older output untouched — for .txt and .bin outputs.
#  (d) a hung run (a test hook drops the packets of the stencil's padding exchanges): the watchdog
#      (IT_WATCHDOG=2) ends every rank non-zero within seconds, rank 0's message and every other
#      rank's report name the LPUs, the synchronisation and its IT line; no output.
# Uses the stencil compiled by the e2e fixture; compiles tests/e2e/programs/native_fail.it.
set -uo pipefail
source "$(dirname "$0")/script_setup.sh" "$@"
fail() { echo "FAIL ($1)"; bad=1; }
stencil=$(dirname "$work")/stencil-cluster/prog-cluster
[[ -x $stencil ]] || { echo "no stencil program at $stencil"; exit 1; }
"$ref/make_input" -o plate.bin --type float --shape 600x600 --seed 5 --lo 0 --hi 100 >/dev/null
st_args=(input_file=plate.bin p1=4 p2=2 k=150 l=150 m=75 n=75)

# (a) ------------------------------------------------------------------------------------------
# Kills one rank of a running stencil after `delay` seconds. Sets kill_rc and kill_secs.
kill_one_rank() { # kill_one_rank <np> <delay> <iterations> <output>
  local np=$1 delay=$2 it=$3 out=$4
  $mpirun -np "$np" "$stencil" "${st_args[@]}" iterations="$it" output_file="$out" >/dev/null 2>kill_err.txt &
  local job=$!
  sleep "$delay"
  local victim
  victim=$(pgrep -f "^$stencil " | tail -1)
  local t0
  t0=$(date +%s.%N)
  [[ -n $victim ]] && kill -9 "$victim"
  # the job must end by itself within 10 s; a watchdog makes sure the test does not hang
  ( sleep 20; kill -9 "$job" 2>/dev/null ) & local dog=$!
  wait "$job"; kill_rc=$?
  kill "$dog" 2>/dev/null; wait "$dog" 2>/dev/null
  kill_secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  [[ -n $victim ]] || kill_rc=-1
}
for np in 2 4; do
  echo "old output" > killed.bin
  kill_one_rank $np 1.5 200000 killed.bin
  if [[ $kill_rc == -1 ]]; then fail "kill np=$np: no rank found to kill"
  elif [[ $kill_rc == 0 ]]; then fail "kill np=$np: exit status 0 after a rank was killed"
  elif awk -v s="$kill_secs" 'BEGIN { exit !(s > 10) }'; then fail "kill np=$np: the job took $kill_secs s to end"
  elif [[ $(cat killed.bin) != "old output" ]]; then fail "kill np=$np: the older output was replaced"
  else echo "ok (kill np=$np mid-task): exit $kill_rc after $kill_secs s, older output untouched"; fi
  rm -f fresh.bin
  kill_one_rank $np 1.5 200000 fresh.bin
  [[ -e fresh.bin ]] && fail "kill np=$np: an output appeared after the kill"
done
# Around the end: a run that takes about as long as the delay; whatever the timing, the output
# is complete (equal to an undisturbed run's) or the older one.
$mpirun -np 2 "$stencil" "${st_args[@]}" iterations=40 output_file=full.bin >/dev/null 2>&1 || fail "undisturbed run"
t0=$(date +%s.%N)
$mpirun -np 2 "$stencil" "${st_args[@]}" iterations=40 output_file=timing.bin >/dev/null 2>&1
span=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "old output" > old.ref
for frac in 0.7 0.85 0.95; do
  cp old.ref late.bin
  kill_one_rank 2 "$(awk -v s="$span" -v f="$frac" 'BEGIN { printf "%.2f", s * f }')" 40 late.bin
  if [[ $kill_rc == 0 ]]; then
    cmp -s late.bin full.bin || fail "kill at ${frac} of the run: exit 0 but the output differs from an undisturbed run's"
  elif ! cmp -s late.bin old.ref; then
    cmp -s late.bin full.bin || fail "kill at ${frac} of the run: a partial output replaced the older one"
  fi
done
echo "ok (kills around the output write, run of ${span} s): outputs complete or untouched"

# (b) ------------------------------------------------------------------------------------------
compile "$root/tests/e2e/programs/native_fail.it" "$root/tests/e2e/programs/native_fail.map" native_fail
"$ref/make_input" -o v.txt --type double --shape 100 --seed 1 >/dev/null
for np in 2 4; do
  rm -f nf_out.txt
  out=$(timeout 60 $mpirun -np $np ./native_fail input_file=v.txt output_file=nf_out.txt bad=77 p=8 2>&1); rc=$?
  lines=$(grep -c "^itrt: error" <<<"$out")
  want="itrt: error on rank [0-9]*: value check failed at index 77 (called from the native code at .*native_fail.it:22)"
  if [[ $rc == 0 || $rc == 124 ]]; then fail "native fail np=$np: exit status $rc"
  elif [[ $lines != 1 ]] || ! grep -q "$want" <<<"$out"; then fail "native fail np=$np: not one message naming rank and line:"; echo "$out"
  elif [[ -e nf_out.txt ]]; then fail "native fail np=$np: an output was written"
  else echo "ok (native code fails on one rank, np=$np): $(grep '^itrt: error' <<<"$out")"; fi
done

# (c) ------------------------------------------------------------------------------------------
"$ref/make_input" -o big.txt --type double --shape 20000 --seed 2 >/dev/null
for ext in txt bin; do
  for np in 1 2; do
    echo "older result" > limited.$ext
    # the limit on the ranks only (mpirun's own files must not hit it); no shared-memory transport,
    # whose segment files a limit would also stop
    out=$(OMPI_MCA_btl=self,tcp timeout 60 $mpirun -np $np bash -c \
          "ulimit -f 64; exec ./native_fail input_file=big.txt output_file=limited.$ext bad=-1 p=8" 2>&1); rc=$?
    if [[ $rc == 0 || $rc == 124 ]]; then fail "write fails ($ext, np=$np): exit status $rc"
    elif ! grep -q "^itrt: error.*writing \`limited.$ext\`" <<<"$out"; then fail "write fails ($ext, np=$np): no message naming the file:"; echo "$out"
    elif [[ $(cat limited.$ext) != "older result" ]]; then fail "write fails ($ext, np=$np): the older output was replaced"
    else echo "ok (output write fails, .$ext, np=$np): $(grep -m1 '^itrt: error' <<<"$out")"; fi
  done
done

# (d) ------------------------------------------------------------------------------------------
for np in 1 2; do
  rm -f hung.bin
  t0=$(date +%s)
  out=$(ITRT_TEST_DROP_SYNC="padding exchange" IT_WATCHDOG=2 timeout 60 $mpirun -np $np "$stencil" "${st_args[@]}" \
        iterations=5 output_file=hung.bin 2>&1); rc=$?
  secs=$(( $(date +%s) - t0 ))
  waits='Space [AB] LPU \([0-9, ]+\)\) waits at `task [^`]*padding exchange of [^`]*` \([^)]*stencil\.it:[0-9]+\)'
  if [[ $rc == 0 || $rc == 124 ]]; then fail "hung run np=$np: exit status $rc"
  elif [[ $(grep -c '^itrt: error' <<<"$out") != 1 ]] || ! grep -q '^itrt: error on rank 0: the run is hung' <<<"$out"; then
    fail "hung run np=$np: not one message from rank 0:"; echo "$out"
  elif ! grep -qE "$waits" <<<"$out"; then fail "hung run np=$np: no LPU named with its synchronisation and line:"; echo "$out"
  elif [[ $np == 2 ]] && ! grep -q '^itrt: hung run, what rank 1 waits for:' <<<"$out"; then fail "hung run np=2: no report of rank 1:"; echo "$out"
  elif [[ -e hung.bin ]]; then fail "hung run np=$np: an output was written"
  elif (( secs > 30 )); then fail "hung run np=$np: took $secs s to end"
  else echo "ok (hung run ends through the watchdog, np=$np, ${secs} s): $(grep -m1 -E "$waits" <<<"$out" | sed 's/^ *//')"; fi
done
exit $bad
