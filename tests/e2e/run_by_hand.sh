#!/usr/bin/env bash
# run_by_hand.sh WORK: small programs whose results are worked out by hand in the comments below
# (independently of the compiler), at np 1, 2 and 4 on test-cluster-4 with partitions that do
# not divide the arrays: padding refreshed at two levels (padded_levels_where.it), an Epoch
# under a false `If` (guarded_epoch_lag.it) and one in a space that only reads the array
# (epoch_reader_space.it).
set -u
source "$(dirname "$0")/script_setup.sh" "$@"
compile_program() { # compile_program <name>: programs/<name>.it with its map, to ./<name>
  compile "$root/tests/e2e/programs/$1.it" "$root/tests/e2e/programs/$1.map" "$1"
}
printf 'Array\n0 3 6 2 5 1 4 0\n8\n' >u8.txt
# padded_levels_where, 2 rounds: round 1 pins u[0] (1 3 6 2 5 1 4 0) and sweeps (1 4 9 8 7 6 5 4);
# round 2 pins (2 4 9 8 7 6 5 4) and sweeps: 2 6 13 17 15 13 11 9. The neighbour a B part reads
# across a Space A block boundary is fresh only if both refreshes ran.
printf 'Array\n2 6 13 17 15 13 11 9\n8\n' >levels_want.txt
compile_program padded_levels_where
for np in 1 2 4; do
  for km in "1 2" "3 1" "2 2"; do
    set -- $km
    check "padding at two levels, k=$1 m=$2" $np levels_want.txt levels.txt \
      ./padded_levels_where input=u8.txt out=levels.txt steps=2 k=$1 m=$2
  done
done
# guarded_epoch_lag on 0...6: f = 2v + 1; round 1's Epoch is not entered, round 2's reads
# current - 1 = f and current - 2 = v: y = f + 100 v = 1 103 205 307 409 511 613.
printf 'Array\n0 1 2 3 4 5 6\n7\n' >v7.txt
printf 'Array\n1 103 205 307 409 511 613\n7\n' >lag_want.txt
compile_program guarded_epoch_lag
for np in 1 2 4; do check "Epoch under a false If" $np lag_want.txt lag.txt ./guarded_epoch_lag input=v7.txt out=lag.txt p=3; done
# epoch_reader_space on 0...6: y = 101 f = 101 (2v + 1); z (B's read of y at current - 1) = f.
printf 'Array\n101 303 505 707 909 1111 1313\n7\n' >reader_want.txt
printf 'Array\n1 3 5 7 9 11 13\n7\n' >reader_z_want.txt
compile_program epoch_reader_space
for np in 1 2 4; do
  check "Epoch in a space that only reads" $np reader_want.txt reader.txt \
    ./epoch_reader_space input=v7.txt out=reader.txt zout=reader_z.txt p=3
  "$ref/ref_check" equal reader_z.txt reader_z_want.txt 0 >/dev/null || { echo "FAIL (z, np $np)"; bad=1; }
done
exit $bad
