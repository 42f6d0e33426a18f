#!/usr/bin/env bash
# Round trips of `itc data` in a fresh directory: make -> show, make -> convert -> compare for all
# four collection types in both encodings, compare failing with the right position and status,
# and (when given) the same files as tests/reference/make_input for the options both tools share.
#   round_trip.sh ITC WORKDIR TESTDATA [MAKE_INPUT]
set -euo pipefail
itc=$1 dir=$2 testdata=$3 make_input=${4:-}
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_status CODE CMD...: runs CMD (output kept in out.log) and checks its exit status.
expect_status() {
  local want=$1; shift
  local got=0
  "$@" >out.log 2>&1 || got=$?
  if [ "$got" -ne "$want" ]; then
    fail "exit $got (expected $want): $*"
    sed 's/^/    /' out.log
  fi
}
# expect_output TEXT: out.log contains TEXT (a fixed string).
expect_output() {
  grep -qF -- "$1" out.log || { fail "expected output \`$1\`, got:"; sed 's/^/    /' out.log; }
}

# -- make -> convert -> compare, every collection type, both directions, several element types
shapes=("--shape 4x5" "--shape list:7" "--shape lists:2x3 --lengths 0,1,2,3,4,5"
        "--shape arrays:3 --lengths 2x2,3x1,1x4" "--shape lists:3 --lengths 2"
        "--shape arrays:2 --lengths 2x3x2")
n=0
for shape in "${shapes[@]}"; do
  for type in int float double char bool string range; do
    for ext in txt bin; do
      other=$([ $ext = txt ] && echo bin || echo txt)
      n=$((n + 1))
      # Characters default to 'a' ... 'z' and Booleans to 0 ... 1; the others get negative values too
      range=$(case $type in char|bool|string) ;; *) echo "--lo -50 --hi 50" ;; esac)
      # shellcheck disable=SC2086
      expect_status 0 "$itc" data make -o m$n.$ext $shape --type $type --seed $n $range
      expect_status 0 "$itc" data convert m$n.$ext c$n.$other --type $type
      expect_status 0 "$itc" data convert c$n.$other back$n.$ext --type $type
      expect_status 0 "$itc" data compare m$n.$ext c$n.$other --type $type
      expect_output "are equal"
      cmp -s m$n.$ext back$n.$ext || fail "convert there and back changed m$n.$ext ($shape, $type)"
    done
  done
done

# -- make refuses arrays of length 0 (no command or program reads them); empty lists are fine
for shape in "--shape 0" "--shape 3x0" "--shape lists:0x2 --lengths 0" "--shape arrays:2 --lengths 0x2,1x1"; do
  # shellcheck disable=SC2086
  expect_status 2 "$itc" data make -o zero.txt $shape --type int
  expect_output "an array's lengths must be at least 1"
done
for shape in "--shape list:0" "--shape lists:2 --lengths 0" "--shape arrays:0 --lengths 2"; do
  # shellcheck disable=SC2086
  expect_status 0 "$itc" data make -o empty.txt $shape --type int
  expect_status 0 "$itc" data show empty.txt
done

# -- make -> show: header, shape, lengths, first elements, statistics
expect_status 0 "$itc" data make -o words.txt --shape list:3 --type string --kind flat --value 7
expect_status 0 "$itc" data show words.txt --type string
expect_output "element type: String (256 bytes in binary)"
expect_output '  [2] "9"'
expect_status 0 "$itc" data make -o words.bin --shape 2x2 --type string --seed 5
expect_status 0 "$itc" data show words.bin --type string
expect_output '  [1,1] "'
grep -qE '^  \[0,0\] "[a-z]{1,8}"$' out.log || fail "uniform Strings are not words of 1 to 8 letters: $(cat out.log)"
expect_status 0 "$itc" data make -o lin.txt --shape 3x4 --type double --kind linear --value 1 --coef 10,1
expect_status 0 "$itc" data show lin.txt --type double --count 5
expect_output "lin.txt: a 3*4 Array (text), 12 elements"
expect_output "element type: Real double-precision (8 bytes in binary)"
expect_output "first 5 elements:"
expect_output "  [1,0] 11"
expect_output "min 1  max 24  mean 12.5"
expect_status 0 "$itc" data make -o aol.bin --shape lists:2x2 --lengths 1,0,3,2 --type int --kind flat
expect_status 0 "$itc" data show aol.bin --type int
expect_output "aol.bin: a 2*2 Array of Lists (binary), 6 elements"
expect_output "list lengths: 1 0 3 2"
expect_output "  list [1,0] [2] 3"
expect_output "min 0  max 5  mean 2.5"
expect_status 0 "$itc" data show aol.bin
expect_output "element type: not recorded in the file (24 content bytes: 4 bytes per element)"
expect_status 0 "$itc" data make -o loa.txt --shape arrays:2 --lengths 2x2 --type float --kind identity
expect_status 0 "$itc" data show loa.txt --type float
expect_output "loa.txt: a List of 2 Arrays (text), 8 elements"
expect_output "array lengths: 2*2 2*2"
expect_output "  array 1 [1,1] 1"
expect_output "min 0  max 1  mean 0.5"

# -- compare: the first differing position, both values, the count, exit status 1
expect_status 0 "$itc" data make -o a.txt --shape 3x4 --type double --kind flat
expect_status 0 "$itc" data make -o b.bin --shape 3x4 --type double --kind flat --value 0.001
expect_status 1 "$itc" data compare a.txt b.bin --type double
expect_output "a.txt and b.bin differ at [0,0]: 0 in a.txt, 0.001 in b.bin"
expect_output "12 of 12 elements differ (tolerance 0)"
expect_status 0 "$itc" data compare a.txt b.bin --type double --tolerance 1e-3
expect_status 0 "$itc" data make -o c.txt --shape 3x4 --type double --kind identity
expect_status 0 "$itc" data make -o i.txt --shape 3x4 --type double --kind constant
expect_status 1 "$itc" data compare i.txt c.txt --type double
expect_output "i.txt and c.txt differ at [0,0]: 0 in i.txt, 1 in c.txt"
expect_output "3 of 12 elements differ"
expect_status 0 "$itc" data make -o l1.txt --shape lists:2 --lengths 3,4 --type int --kind flat
expect_status 0 "$itc" data make -o l2.txt --shape lists:2 --lengths 3,4 --type int --kind flat --coef 1
expect_status 0 "$itc" data compare l1.txt l2.txt --type int
expect_status 0 "$itc" data make -o l3.txt --shape lists:2 --lengths 3,4 --type int --kind linear
expect_status 1 "$itc" data compare l1.txt l3.txt --type int
expect_output "l1.txt and l3.txt differ at list [1] [0]: 3 in l1.txt, 0 in l3.txt"
expect_status 0 "$itc" data make -o l4.txt --shape lists:2 --lengths 3,5 --type int
expect_status 1 "$itc" data compare l1.txt l4.txt --type int
expect_output "shapes differ: list [1] has length 4 in l1.txt and 5 in l4.txt"
expect_status 1 "$itc" data compare a.txt loa.txt --type double
expect_output "shapes differ: a.txt is a 3*4 Array, loa.txt is a List of 2 Arrays"
expect_status 2 "$itc" data compare a.txt missing.txt --type double
expect_output "missing.txt: cannot open for reading: No such file or directory"

# -- class elements: every numeric field is made, shown per field, converted and compared
class=(--program "$testdata/classes.it" --class Sample)
for shape in "--shape 3x2" "--shape list:4" "--shape lists:2 --lengths 3,1" "--shape arrays:2 --lengths 1x2"; do
  for ext in txt bin; do
    other=$([ $ext = txt ] && echo bin || echo txt)
    n=$((n + 1))
    # shellcheck disable=SC2086
    expect_status 0 "$itc" data make -o s$n.$ext $shape "${class[@]}" --seed $n --lo 1 --hi 9
    expect_status 0 "$itc" data convert s$n.$ext s$n.$other "${class[@]}"
    expect_status 0 "$itc" data compare s$n.$ext s$n.$other "${class[@]}"
    expect_output "are equal"
  done
done
expect_status 0 "$itc" data make -o s.txt --shape 2 "${class[@]}" --kind constant --value 7
expect_status 0 "$itc" data show s.txt "${class[@]}"
expect_output "element type: Sample (30 bytes in binary)"
expect_output "  [1] {weight = 7, count = 7, coords[0] = 7, coords[1] = 7, flag = true, letter = 7, span.min = 7, span.max = 7}"
expect_output "coords: min 7  max 7  mean 7"
expect_status 0 "$itc" data make -o t.txt --shape 2 "${class[@]}" --kind constant --value 7
expect_status 0 "$itc" data compare s.txt t.txt "${class[@]}"
expect_status 0 "$itc" data make -o u.txt --shape 2 "${class[@]}" --kind flat --value 7
expect_status 1 "$itc" data compare s.txt u.txt "${class[@]}"
expect_output "s.txt and u.txt differ at [1].weight: 7 in s.txt, 8 in u.txt"
expect_output "1 of 2 elements differ"
expect_status 0 "$itc" data make -o tagged.bin --shape 2 --program "$testdata/classes.it" --class Tagged
expect_status 0 "$itc" data show tagged.bin --program "$testdata/classes.it" --class Tagged
# a String field is a word of 1 to 8 letters under `uniform`
grep -qE '^  \[0\] \{tag = "[a-z]{1,8}", sample.weight = ' out.log ||
  fail "a class's String field is not a word: $(cat out.log)"

# -- char bounds given as characters (`A`, `'A'`) or codes: letters A...C only (a text file
#    holds their codes, 65...67), both ends drawn
for bounds in "--lo A --hi C" "--lo 'A' --hi 'C'" "--lo 65 --hi 67"; do
  # shellcheck disable=SC2086
  expect_status 0 "$itc" data make -o letters.txt --type char --shape 200 $bounds
  if ! sed -n 2p letters.txt | tr ' ' '\n' | awk 'NF { n++; if ($1 < 65 || $1 > 67) bad = 1; if ($1 == 65) lo = 1;
        if ($1 == 67) hi = 1 } END { exit !(n == 200 && !bad && lo && hi) }'; then
    fail "char bounds $bounds: $(sed -n 2p letters.txt | head -c 80)"
  fi
done
expect_status 2 "$itc" data make -o never.txt --type char --shape 5 --lo AB
expect_output "expected a number, or one character"

# -- the same seeded values as tests/reference/make_input (identical binary files)
if [ -n "$make_input" ]; then
  for opts in "--type double --shape 6x5 --seed 7 --lo -1 --hi 1" "--type float --shape list:9 --seed 3" \
              "--type int --shape 40 --seed 9 --lo -100 --hi 100" "--type double --shape 5x5 --kind spd --seed 4" \
              "--type double --shape 4x4 --kind diagdom --seed 5 --lo -1 --hi 1" \
              "--type int --shape 3x4 --kind linear --value 2 --coef 3,1" "--type float --shape 7 --kind flat --coef 0.5"; do
    # shellcheck disable=SC2086
    "$make_input" -o ref.bin $opts && "$itc" data make -o mine.bin $opts \
      && cmp -s ref.bin mine.bin || fail "itc data make and make_input differ for: $opts"
    # shellcheck disable=SC2086
    "$make_input" -o ref.txt $opts && expect_status 0 "$itc" data compare mine.bin ref.txt ${opts%% --shape*}
  done
fi

echo "$n make/convert/compare round trips; $failures failure(s)"
[ "$failures" -eq 0 ]
