#!/usr/bin/env bash
# run_errors.sh: run-time checks of generated programs give one clear message and a non-zero
# exit on every rank, never a hang: a missing key=value argument, an unknown one (with the
# nearest known key suggested; of a key given twice the last wins), an input file whose
# dimensions contradict the program, more processes than the machine has segments, (with
# --debug) an out-of-bounds subscript named by its IT source line, list misuse (named the same
# way), a section copied in a stage outside the LPU's part (named the same way), Boolean and
# Character arguments that are neither, a dimension bound Initialize left unset or changed on a
# linked array, a loop step of 0 or less, a fixed-size array indexed outside it, writing an item
# nothing produced, an Integer division by zero, an element passed to a stage by an LPU that
# does not hold it, more worker threads than the system lets the program start, an element of
# a section outside the section, a bound input or output file that cannot be used (named with
# the line of its bind_input or bind_output), a loop reaching past a part (inputs of different
# lengths), an element of a stride() part the LPU does not hold (without --debug too), two
# overlapping sections of one part passed to `&` parameters of one call, a Reduction result an
# earlier task left per LPU read by a later one.
# A List of Arrays file must hold arrays of the list's rank (`load` and `store` errors name their
# line). Views of an item filled by `load` work; keys may be reserved words (`args.step`). `--help` prints the program's keys and exits 0. Also: a mapping that puts a space on other processes than its
# parent space's parts is no error; the plan gives it parts of its own and moves the data
# (checked against the reference, with the bytes moved).
set -uo pipefail
source "$(dirname "$0")/script_setup.sh" "$@"
expect() { # expect <what> <pattern> <command...>
  local what=$1 pat=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  if [[ $rc == 0 ]]; then echo "FAIL ($what): exit status 0"; bad=1; return; fi
  if ! grep -q -- "$pat" <<<"$out"; then echo "FAIL ($what): no '$pat' in:"; echo "$out"; bad=1; return; fi
  echo "ok ($what): $(grep -m1 -- "$pat" <<<"$out")"
}
expect_result() { # expect_result <what> <wanted file> <written file> <command...>: runs, and the file matches
  local what=$1 want=$2 got=$3; shift 3
  if "$@" >"$got.log" 2>&1 && cmp -s "$got" "$want"; then echo "ok ($what)"
  else echo "FAIL ($what):"; cat "$got.log" "$got"; bad=1; fi
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
# A bad sub-partition argument is found alike by every rank: one message, no MPI_ABORT (probe AY:
# every rank printed it and Open MPI's abort banner followed).
mm=$(dirname "$work")/matrix-multiply-cluster/prog-cluster
"$ref/make_input" -o ma.txt --type float --shape 8x6 --seed 5 >/dev/null
"$ref/make_input" -o mb.txt --type float --shape 6x4 --seed 6 >/dev/null
out=$(timeout 60 $mpirun -np 4 "$mm" input_file_1=ma.txt input_file_2=mb.txt output_file=mc.txt k=4 l=2 q=0 2>&1)
if [[ $? != 0 && $(grep -c "itrt: error.*sub-partition: .*must be positive, got 0" <<<"$out") == 1 ]] &&
  ! grep -q "MPI_ABORT\|ORTE_ERROR_LOG" <<<"$out"; then
  echo "ok (bad sub-partition argument)"
else echo "FAIL (bad sub-partition argument): want one message and no abort, got:"; echo "$out"; bad=1; fi
# A runtime switch set to a value it does not take (IT_STATS=yes) is named in a warning (probe AR:
# ignored without a word); the run goes on.
out=$(IT_STATS=yes ITRT_WORKER_SPIN=-5 IT_WATCHDOG=abc timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b.txt c_file=c_env.txt p=4 2>&1)
if [[ $? == 0 && $(grep -c "itrt: warning: IT_STATS=yes: expected 0 or 1" <<<"$out") == 1 &&
  $(grep -c "itrt: warning: ITRT_WORKER_SPIN=-5: expected a number of iterations" <<<"$out") == 1 &&
  $(grep -c "itrt: warning: IT_WATCHDOG=abc is not a number of seconds" <<<"$out") == 1 ]]; then
  echo "ok (runtime switches with values they do not take)"
else echo "FAIL (runtime switches with values they do not take):"; echo "$out"; bad=1; fi
# program help: --help lists the keys the coordinator reads (type, IT lines) and the runtime's
# environment variables, printed once, exit 0 on every rank without MPI abort noise
help_ok() { # help_ok <what> <command...>: the remaining checks read $out
  local what=$1; shift
  out=$("$@" 2>&1); rc=$?
  if [[ $rc != 0 ]]; then echo "FAIL ($what): exit status $rc:"; echo "$out"; bad=1; return 1; fi
  if [[ $(grep -c "^Usage: mpirun -np N " <<<"$out") != 1 ]] || grep -qi "abort\|mpirun has exited" <<<"$out" ||
     ! grep -q "IT_STATS=1" <<<"$out" || ! grep -q "IT_PIN=0|1" <<<"$out" || ! grep -q "IT_TRACE=FILE" <<<"$out"; then
    echo "FAIL ($what): usage not printed once, or noise:"; echo "$out"; bad=1; return 1
  fi
}
if help_ok "--help" timeout 60 $mpirun -np 2 "$va" p=4 --help; then
  for want in "a_file=<...> *file name *vector-add.it:9$" "b_file=<...> *file name *vector-add.it:10$" \
              "c_file=<...> *file name *vector-add.it:11$" "p=<...> *Integer *vector-add.it:12$" \
              "N: 1 to 4 processes"; do
    grep -q -- "$want" <<<"$out" || { echo "FAIL (--help): no '$want' in:"; echo "$out"; bad=1; }
  done
  echo "ok (--help): $(grep -c '=<...>' <<<"$out") keys listed"
fi
help_ok "-h" timeout 60 $mpirun -np 1 "$va" -h && echo "ok (-h)"
expect "unknown argument" "unknown command-line argument \`a_fiel=a.txt\`; did you mean \`a_file\`?" \
  timeout 60 $mpirun -np 2 "$va" a_fiel=a.txt b_file=b.txt c_file=c.txt p=4
[[ $rc == 1 ]] || { echo "FAIL (unknown argument): exit status $rc, not 1"; bad=1; }
# an output name no data file can have is refused when bound, before the task runs
expect "bound output extension" "bind_output of \`c\` of task \`Vector Addition\`: c.dat: unknown data file extension \`.dat\`" \
  timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b.txt c_file=c.dat p=4
# an empty input file name (`a_file=`) is reported at its bind_input, not later as an item with no input
expect "empty input file name" "vector-add.it:9: the input file name for \`a\` of task \`Vector Addition\` is empty" \
  timeout 60 $mpirun -np 2 "$va" a_file= b_file=b.txt c_file=c.txt p=4
# a key given twice: the last one wins (p=0 alone stops the program, as above)
out=$(timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b.txt c_file=c_twice.txt p=0 p=4 2>&1); rc=$?
if [[ $rc == 0 && -s c_twice.txt ]]; then echo "ok (argument given twice: the last wins)"
else echo "FAIL (argument given twice): exit status $rc, c_twice.txt $( [[ -s c_twice.txt ]] && echo written || echo missing):"; echo "$out"; bad=1; fi
# a coordinator that reads no args: --help says so, any key is unknown
sed -e 's/args\.a_file/"a.txt"/; s/args\.b_file/"b.txt"/; s/args\.c_file/"c_noargs.txt"/; s/args\.p/4/' \
  "$root/examples/vector-add/vector-add.it" >noargs.it
compile noargs.it "$root/examples/vector-add/vector-add.map" noargs
if help_ok "--help without args" timeout 60 $mpirun -np 2 ./noargs --help; then
  if grep -q "Arguments: none" <<<"$out"; then echo "ok (--help without args)"
  else echo "FAIL (--help without args): no 'Arguments: none' in:"; echo "$out"; bad=1; fi
fi
expect "argument of a program without args" "the program reads no arguments" \
  timeout 60 $mpirun -np 2 ./noargs p=4
# a List of 2d Arrays read from a file whose arrays have another number of dimensions
cat >list_rank.it <<'IT'
Program (args) {
    la = new List of 2d Array of Integer
    load(la, args.input)
    store(la, args.copy)
}
IT
: >list_rank.map
compile list_rank.it list_rank.map list_rank
printf 'List of Arrays\n1 2 3 4 5 6\n0:1*2*3\n1\n' >rank3.txt
expect "List of Arrays of another rank" "list_rank.it:3: load: rank3.txt: .*expected directory entry 1 to be a 2-dimensional Array, found \`0:1\*2\*3\`" \
  timeout 60 $mpirun -np 2 ./list_rank input=rank3.txt copy=rank_copy.txt
# an output that cannot be written: one message, every rank exits 1, no MPI_ABORT noise
printf 'List of Arrays\n1 2 3 4 5 6\n0:2*3\n1\n' >rank2.txt
expect "unwritable output" "itrt: error: list_rank.it:4: store: writing \`/nonexistent-dir/copy.txt\`: cannot open for writing" \
  timeout 60 $mpirun -np 2 ./list_rank input=rank2.txt copy=/nonexistent-dir/copy.txt
[[ $rc == 1 && $(grep -c "itrt: error" <<<"$out") == 1 ]] && ! grep -q MPI_ABORT <<<"$out" ||
  { echo "FAIL (unwritable output): exit status $rc, or not one message:"; echo "$out"; bad=1; }
# a bound output that cannot be written is found at bind_output, before any task runs (probe AY:
# after the whole computation)
expect "unwritable bound output" "vector-add.it:11: bind_output of \`c\` of task \`Vector Addition\`: cannot write \`/nonexistent-dir/c.txt\`: the directory" \
  env IT_TASKS=1 timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b.txt c_file=/nonexistent-dir/c.txt p=4
grep -q "IT_TASKS.*start" <<<"$out" && { echo "FAIL (unwritable bound output): a task ran first:"; echo "$out"; bad=1; }
# a text file with commas between elements, and a binary file named .txt: said so (probe h29/s3:
# only a wrong element count on the trailer's line)
printf 'Array\n1,2,3,4\n4\n' >commas.txt
printf 'Array\n1 2 3 4\n4\n' >plain4.txt
expect "commas between elements" "commas.txt: line 3: expected 4 elements .*found 1 (elements are separated by blanks, not commas)" \
  timeout 60 $mpirun -np 2 "$va" a_file=commas.txt b_file=plain4.txt c_file=c_commas.txt p=2
"$itc" data convert plain4.txt binary4.bin --type double >/dev/null && cp binary4.bin binary4.txt
expect "binary data in a .txt file" "binary4.txt: line 2: a byte 0x[0-9a-f]*, which text cannot hold: the file looks binary" \
  timeout 60 $mpirun -np 2 "$va" a_file=binary4.txt b_file=plain4.txt c_file=c_binary.txt p=2
# a directory named as the output: said so (probe h29/s3: "unknown data file extension (none)")
mkdir -p out_dir
expect "a directory as the bound output" "bind_output of \`c\` of task \`Vector Addition\`: cannot write \`out_dir\`: it is a directory" \
  timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b.txt c_file=out_dir p=4
# input files of different lengths: the stage's loop over c (a's length) reaches past b's parts;
# the loop checks that once before it runs and names the line (without --debug)
"$ref/make_input" -o b20.txt --type double --shape 20 --seed 2 >/dev/null
expect "arrays of inconsistent lengths" "vector-add.it:27: \`y\`: the loop reaches indices .* outside the LPU's part" \
  timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b20.txt c_file=c.txt p=4
# a loop over a padded array writing an unpadded one in both branches of an if/else: the write is
# at every turn, so it is checked before the loop too (a tester's run corrupted the heap instead)
cat >padded_if.it <<'IT'
Program (args) {
    env = new TaskEnvironment(name: "Copy")
    bind_input(env, "t", args.input)
    execute(task: "Copy"; environment: env; partition: args.p)
    bind_output(env, "u", args.out)
}
Task "Copy":
    Define:
        t, u: 1d Array of Integer
    Environment:
        t: link
        u: create
    Initialize:
        u.dimension = t.dimension
    Stages:
        copyIf(t, u) {
            do {
                if (t[i] > 0) { u[i] = t[i] } else { u[i] = 0 }
            } for i in t
        }
    Computation:
        Space A { copyIf(t, u) }
    Partition (p):
        Space A <1d> {
            t: block_count(p) padding(1, 0)
            u: block_count(p)
        }
IT
printf '"Copy" { Space A: 2 }\n' >padded_if.map
compile padded_if.it padded_if.map padded_if
printf 'Array\n1 -2 3 -4 5 -6 7 -8\n8\n' >t8.txt
expect "a write in both branches of an if, past the part" "padded_if.it:18: \`u\`: the loop reaches indices .* outside the LPU's part" \
  timeout 60 $mpirun -np 2 ./padded_if input=t8.txt p=2 out=u8.txt
# a 13x9 matrix given to a square LU: the step k, a stage parameter, subscripts columns 9...12,
# which no part holds; the loops over block_stride() rows check it at their first turn
compile "$root/tests/e2e/programs/pivot_lu.it" "$root/tests/e2e/programs/pivot_lu.map" pivot_lu
"$ref/make_input" -o a13x9.txt --type double --shape 13x9 --seed 5 >/dev/null
for np in 1 2; do
  expect "a non-square matrix to LU, np $np" "pivot_lu.it:40: \`u\`: the loop reaches indices 9...9 of dimension 2, outside the LPU's part" \
    timeout 60 $mpirun -np $np ./pivot_lu input=a13x9.txt uout=u13.txt lout=l13.txt pout=p13.txt b=2
done
# (without --debug) an element of a stride() part the LPU does not hold, by an index that is no
# loop's: the line and the array are named, no write outside the part
cat >not_held.it <<'IT'
Program (args) {
    env = new TaskEnvironment(name: "Touch")
    bind_input(env, "v", args.input_file)
    execute(task: "Touch"; environment: env)
}
Task "Touch":
    Define:
        v: 1d Array of Integer
    Environment:
        v: link
    Stages:
        touch(v) {
            do { v[0] = v[i] } for i in v
        }
    Computation:
        Space A { touch(v) }
    Partition:
        Space A <1d> { v: stride() }
IT
printf '"Touch" { Space A: 1 }\n' >not_held.map
compile not_held.it not_held.map not_held
printf 'Array\n1 2 3 4 5 6 7 8\n8\n' >v8.txt
expect "a stride() element not held" "not_held.it:13: \`v\`: index 0 of dimension 1 is not held by this LPU" \
  timeout 60 $mpirun -np 2 ./not_held input_file=v8.txt
# a function reading an element its LPU does not hold of a stride() part passed to it: the
# message lists the held indices (the 8 LPUs of test-cluster-4 hold {1, 9} .. {7} of 0...9)
cat >held_fn.it <<'IT'
Function first(c) {
    return c[0]
}
Program (args) {
    env = new TaskEnvironment(name: "First")
    bind_input(env, "v", args.input)
    execute(task: "First"; environment: env)
}
Task "First":
    Define:
        v: 1d Array of Integer
        s: Integer Reduction
    Environment:
        v: link
    Stages:
        go(w, t) {
            do { reduce(t, "sum", first(w)) } for i in w.dimension1 and i == w.local.dimension1.range.min
        }
    Computation:
        Space A { go(v, Space Root: s) }
    Partition:
        Space A <1d> { v: stride() }
IT
printf '"First" { Space A: 1 }\n' >held_fn.map
compile held_fn.it held_fn.map held_fn
printf 'Array\n1 2 3 4 5 6 7 8 9 10\n10\n' >v10.txt
expect "a function reads an element its LPU does not hold" \
  "held_fn.it:2: index 0 of dimension 1 is not among the indices this LPU holds of the array passed here" \
  timeout 60 $mpirun -np 2 ./held_fn input=v10.txt
# two different sections of one part that overlap, passed to `&` parameters of one call, would
# each be a copy and lose one's writes: the program stops naming the line; disjoint ones work
cat >overlap.it <<'IT'
Function addBoth(&a, &b) {
    do in sequence { a[i] = a[i] + 1 } for i in a.dimension1.range
    do in sequence { b[i] = b[i] * 2 } for i in b.dimension1.range
}
Program (args) {
    env = new TaskEnvironment(name: "Overlap")
    bind_input(env, "v", args.input_file)
    execute(task: "Overlap"; environment: env; initialize: args.k)
    bind_output(env, "v", args.output_file)
}
Task "Overlap":
    Define:
        v: 1d Array of Integer
        k: Integer
    Environment:
        v: link
    Initialize (k):
    Stages:
        twoSections(v, k) {
            lo = v.local.dimension1.range.min
            addBoth(v[lo...lo + 1], v[lo + k...lo + k + 1])
        }
    Computation:
        Space A { twoSections(v, k) }
    Partition:
        Space A <1d> { v: block_count(2) }
IT
printf '"Overlap" { Space A: 1 }\n' >overlap.map
compile overlap.it overlap.map overlap
expect "overlapping sections to \`&\` parameters" "overlap.it:21: two different sections of one array that overlap" \
  timeout 60 $mpirun -np 2 ./overlap input_file=v8.txt k=1 output_file=overlap.txt
# k = 2: on each half 1 2 3 4 | 5 6 7 8, the first two + 1 and the next two * 2
printf 'Array\n2 3 6 8 6 7 14 16\n8\n' >overlap_want.txt
expect_result "disjoint sections to \`&\` parameters" overlap_want.txt overlap.txt \
  timeout 60 $mpirun -np 2 ./overlap input_file=v8.txt k=2 output_file=overlap.txt
# a task reading a Reduction result that an earlier task left per LPU of a partitioned space
# (`Space A: s`, several A LPUs): the environment keeps one LPU's value, so the task stops
# naming its execute line; with one A LPU the value is the one result (1 + ... + 8 = 36)
cat >perlpu.it <<'IT'
Program (args) {
    e = new TaskEnvironment(name: "Block Sums")
    bind_input(e, "x", args.input_file)
    execute(task: "Block Sums"; environment: e; partition: args.p)
    execute(task: "Block Sums"; environment: e; partition: args.p)
    bind_output(e, "y", args.output_file)
}
Task "Block Sums":
    Define:
        x, y: 1d Array of Integer
        s: Integer Reduction
    Environment:
        x: link
        s, y: link-or-create
    Initialize:
        y.dimension = x.dimension
    Stages:
        red(v, r) {
            do { reduce(r, "sum", v[i]) } for i in v
        }
        put(w, v) {
            do { w[i] = v } for i in w
        }
    Computation:
        Space A {
            put(y, s)
            red(x, Space A: s)
        }
    Partition (p):
        Space A <1d> { x, y: block_count(p) }
IT
printf '"Block Sums" { Space A: 1 }\n' >perlpu.map
compile perlpu.it perlpu.map perlpu
expect "a per-LPU Reduction result read by a later task" \
  "perlpu.it:5: task \`Block Sums\` reads \`s\`, which an earlier task reduced into \`Space A: s\`, one result per LPU there" \
  timeout 60 $mpirun -np 2 ./perlpu input_file=v8.txt p=2 output_file=perlpu.txt
printf 'Array\n36 36 36 36 36 36 36 36\n8\n' >perlpu_want.txt
expect_result "a Reduction result of one LPU read by a later task" perlpu_want.txt perlpu.txt \
  timeout 60 $mpirun -np 2 ./perlpu input_file=v8.txt p=1 output_file=perlpu.txt
# a bound input that cannot be read is named with the line of its bind_input
expect "unreadable bound input" "vector-add.it:10: input for \`b\` of task \`Vector Addition\`: .*no-such-b.txt" \
  timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=no-such-b.txt c_file=c.txt p=4
# reading an environment scalar nothing gave a value names the coordinator's line
cat >novalue.it <<'IT'
Program (args) {
    e = new TaskEnvironment(name: "Sum")
    v = e.total
}

Task "Sum":
    Define:
        total: Real double-precision
    Environment:
        total: create
    Stages:
        zero(t) {
            t = 0.0
        }
    Computation:
        zero(total)
    Partition:
        Space A <un-partitioned> { }
IT
printf '"Sum" { Space A: 1 }\n' >novalue.map
compile novalue.it novalue.map novalue
expect "environment scalar without a value" "novalue.it:3: environment item \`total\` of task \`Sum\` has no value" \
  timeout 60 $mpirun -np 2 ./novalue
# keys that are reserved words (`args.step`, `args.in`) are read like any other key
sed -e 's/args\.a_file/args.in/; s/args\.p\b/args.step/' "$root/examples/vector-add/vector-add.it" >keywords.it
compile keywords.it "$root/examples/vector-add/vector-add.map" keywords
out=$(timeout 60 $mpirun -np 2 ./keywords in=a.txt b_file=b.txt c_file=c_keywords.txt step=4 2>&1); rc=$?
if [[ $rc == 0 ]] && cmp -s c_keywords.txt c_twice.txt; then echo "ok (keys named by reserved words)"
else echo "FAIL (keys named by reserved words): exit status $rc, c_keywords.txt differs from c_twice.txt:"; echo "$out"; bad=1; fi
# an element of a section outside it, `(a[0...3])[4]` (also without --debug): named with its line
compile "$root/tests/e2e/programs/section_elements.it" "$root/tests/e2e/programs/section_elements.map" section_elements
expect "element outside its section" "section_elements.it:3[0-9]: index 4 is outside the section 0...3" \
  timeout 60 $mpirun -np 2 ./section_elements hi=3 t=sel_t.txt s=sel_s.txt u=sel_u.txt
# --debug: bounds checks naming the IT line
compile "$root/tests/e2e/programs/out_of_bounds.it" "$root/tests/e2e/programs/out_of_bounds.map" oob --debug
expect "bounds check" "out_of_bounds.it:2[0-9]: \`[a-z]*\`: index [0-9]* of dimension 1 is outside the LPU's part" \
  timeout 60 $mpirun -np 2 ./oob a_file=a.txt b_file=b.txt p=4
# ... and every rank ends without Open MPI's abort banner, under mpirun, which ends the job itself
# (probe AY: MPI_ABORT's banner after the error lines)
grep -q "MPI_ABORT\|ORTE_ERROR_LOG" <<<"$out" && { echo "FAIL (bounds check): Open MPI abort noise:"; echo "$out"; bad=1; }
# the same on stride() parts, whose elements are reached by position: an index the LPU does not
# hold is named with its IT line too (it used to read another LPU's row, or garbage)
sed 's/x, y: block_count(p)/x, y: stride()/' "$root/tests/e2e/programs/out_of_bounds.it" >oob_stride.it
compile oob_stride.it "$root/tests/e2e/programs/out_of_bounds.map" oob_stride --debug
expect "bounds check, strided" "oob_stride.it:2[0-9]: \`[a-z]*\`: index [0-9]* of dimension 1 is not held by this LPU" \
  timeout 60 $mpirun -np 2 ./oob_stride a_file=a.txt b_file=b.txt p=4
# Started without mpirun: one process, without MPI (a PML that does not exist would stop
# MPI_Init, not the run), the same results. IT_ONE_PROCESS_MPI=1 starts MPI anyway, so the same
# run then fails.
if OMPI_MCA_pml=no-such-pml timeout 60 "$va" a_file=a.txt b_file=b.txt c_file=c_alone.txt p=4 &&
   "$ref/ref_vector_add" a_file=a.txt b_file=b.txt c_file=c_alone_ref.txt p=4 &&
   "$ref/ref_check" equal c_alone.txt c_alone_ref.txt 0 >/dev/null; then
  echo "ok (without mpirun, without MPI): equal to the reference"
else
  echo "FAIL (without mpirun, without MPI)"; bad=1
fi
if OMPI_MCA_pml=no-such-pml IT_ONE_PROCESS_MPI=1 timeout 60 "$va" a_file=a.txt b_file=b.txt c_file=c_forced.txt \
  p=4 >forced.log 2>&1; then echo "FAIL (IT_ONE_PROCESS_MPI=1 did not start MPI)"; bad=1
else echo "ok (IT_ONE_PROCESS_MPI=1 starts MPI)"; fi
# IT_VERBOSE=1: each rank's threads and processors, each space's PPS and LPU count
out=$(IT_VERBOSE=1 timeout 60 $mpirun -np 2 "$va" a_file=a.txt b_file=b.txt c_file=c_verbose.txt p=4 2>&1)
if grep -q "IT_VERBOSE task \`Vector Addition\` rank 1: .* worker thread" <<<"$out" &&
   grep -q "IT_VERBOSE task \`Vector Addition\` Space A: PPS [0-9]*, 4 LPUs" <<<"$out"; then
  echo "ok (IT_VERBOSE banner)"
else
  echo "FAIL (IT_VERBOSE banner):"; echo "$out"; bad=1
fi
# list misuse names the IT line: `value` of a cursor on an empty list
li=$(dirname "$work")/lists-cluster/prog-cluster
"$ref/make_input" -o empty.txt --type double --shape list:0 >/dev/null
expect "value past the end of a list" "lists.it:[0-9]*: \`value\` of a cursor past the end" \
  timeout 60 $mpirun -np 2 "$li" values_file=empty.txt matrix_file=m.txt keep=2 p=2 best_file=b.txt output_file=o.txt
# a section copied in a stage that asks for an index the LPU does not hold names the IT line
se=$(dirname "$work")/sections-cluster/prog-cluster
expect "section outside the array" "sections.it:[0-9]*: index 13 of dimension 2 of the section is not held" \
  timeout 60 $mpirun -np 2 "$se" input_file=m.txt factor=1 c=13 r=1 lo=0 hi=1 p=2 output_file=o.txt \
  col_file=c.txt seg_file=s.txt rev_file=v.txt blk_file=b.txt back_file=k.txt
# a Real argument too large for its type is an error, like an Integer's; a tiny one is the nearest
# value (0), as in data files
expect "Real argument out of range" "argument \`factor=1e400\`: outside the range of a Real double-precision" \
  timeout 60 $mpirun -np 2 "$se" input_file=m.txt factor=1e400 c=1 r=1 lo=0 hi=1 p=2 output_file=o.txt \
  col_file=c.txt seg_file=s.txt rev_file=v.txt blk_file=b.txt back_file=k.txt
if timeout 60 $mpirun -np 2 "$se" input_file=m.txt factor=1e-400 c=1 r=1 lo=0 hi=1 p=2 output_file=o.txt \
  col_file=c.txt seg_file=s.txt rev_file=v.txt blk_file=b.txt back_file=k.txt >tiny.log 2>&1; then
  echo "ok (a Real argument below the smallest is 0)"
else echo "FAIL (a Real argument below the smallest):"; cat tiny.log; bad=1; fi
# IT text copied into the C++ (comments, names) never breaks it: continuation lines ending in
# `\ `, `*/`, `??/`, a Latin-1 byte, a very long line, a task name with `??`
compile "$root/tests/e2e/programs/awkward_text.it" "$root/tests/e2e/programs/awkward_text.map" awkward
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
compile "$root/tests/e2e/programs/nested.it" "$root/tests/e2e/programs/nested_split.map" nested_split
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
# a task that writes an array it sees under two names (`vaEnv3.v = vaEnv3.u`): refused when it
# starts, naming both items, on every rank
sed -e 's/^    vaEnv3.v = vaEnv2.u .*$/    vaEnv3.v = vaEnv3.u/' "$root/tests/e2e/programs/cg_csr.it" >alias.it
grep -q "vaEnv3.v = vaEnv3.u" alias.it || { echo "FAIL: alias.it not made"; exit 1; }
compile alias.it "$root/tests/e2e/programs/cg_csr.map" alias
"$ref/ref_cg_csr" grid=3 row_ptr_file=rp.txt cols_file=ci.txt vals_file=vals.txt
"$ref/make_input" -o b9.txt --type double --shape 9 --seed 4 >/dev/null
"$ref/make_input" -o z9.txt --type double --shape 9 --kind constant --value 0 >/dev/null
expect "one array under two names, written" "environment items \`u\` and \`v\` are the same array" \
  timeout 60 $mpirun -np 2 ./alias row_ptr_file=rp.txt cols_file=ci.txt vals_file=vals.txt rhs_file=b9.txt \
  zero_file=z9.txt tolerance=1e-8 max_iterations=5 p=2 solution_file=xa.txt summary_file=sa.txt
[[ -e xa.txt ]] && { echo "FAIL (one array under two names): an output was written"; bad=1; }
# a new array whose Initialize sets one bound of a dimension and not the other: refused at task
# start naming the array, the dimension and the bound (it used to run with 0...0, or crash)
cat >halfdim.it <<'IT'
Program (args) {
    env = new TaskEnvironment(name: "Half Dimension")
    bind_input(env, "m", args.m_file)
    bind_output(env, "w", args.w_file)
    execute(task: "Half Dimension"; environment: env)
}
Task "Half Dimension":
    Define:
        m, w: 2d Array of Real double-precision
    Environment:
        m: link
        w: create
    Initialize:
        w.dimension1 = m.dimension1
        w.dimension2.range.min = 0
    Stages:
        fill(w) {
            do { w[i][j] = 1 } for i, j in w
        }
    Computation:
        Space A { fill(w) }
    Partition:
        Space A <1d> { w<dim1>: block_size(1) }
IT
printf '"Half Dimension" { Space A: 1 }\n' >halfdim.map
compile halfdim.it halfdim.map halfdim
expect "a dimension bound unset" "dimension 2 of array \`w\` has no range.max after Initialize" \
  timeout 60 $mpirun -np 2 ./halfdim m_file=m.txt w_file=hw.txt
[[ -e hw.txt ]] && { echo "FAIL (a dimension bound unset): an output was written"; bad=1; }
# a loop step of 0 or less, from an argument, in a stage, in a `Repeat for`, in the coordinator:
# an error naming the IT line, not a loop that never ends
cat >steps.it <<'IT'
Program (args) {
    e = new TaskEnvironment(name: "Steps")
    e.s = args.s
    do in sequence { e.n = k } for k in [1...3] step args.c
    execute(task: "Steps"; environment: e)
}

Task "Steps":
    Define:
        s, r, n: Integer
    Environment:
        s, n: link
    Stages:
        walk(st, count) {
            do in sequence { count = count + 1 } for k in [1...3] step st
        }
    Computation:
        Repeat for r in [1...3] step s {
            Space A { walk(s, n) }
        }
    Partition:
        Space A <un-partitioned> { }
IT
printf '"Steps" { Space A: 1 }\n' >steps.map
compile steps.it steps.map steps
expect "coordinator loop step" "steps.it:4: the loop's step is 0; a step must be a positive Integer" \
  timeout 60 $mpirun -np 2 ./steps s=1 c=0
expect "Repeat step" "steps.it:18: the loop's step is -2; a step must be a positive Integer" \
  timeout 60 $mpirun -np 2 ./steps s=-2 c=1
# Initialize may not give a linked array other ranges than it has (it read garbage past the end)
cat >resize.it <<'IT'
Program (args) {
    e = new TaskEnvironment(name: "Resize")
    bind_input(e, "x", args.input)
    execute(task: "Resize"; environment: e; initialize: args.n)
    bind_output(e, "x", args.out)
}

Task "Resize":
    Define:
        x: 1d Array of Integer
        n: Integer
    Environment:
        x: link
    Initialize (n):
        x.dimension1.range.min = 0
        x.dimension1.range.max = n - 1
    Stages:
        inc(a) {
            do { a[i] = a[i] + 1 } for i in a
        }
    Computation:
        Space A { inc(x) }
    Partition:
        Space A <1d> { x: block_count(2) }
IT
printf '"Resize" { Space A: 1 }\n' >resize.map
printf 'Array\n1 2 3 4 5\n5\n' >x5.txt
compile resize.it resize.map resize
expect "linked array resized" "Initialize sets dimension 1 of the linked array \`x\` to 0...8, but the array it links has 0...4" \
  timeout 60 $mpirun -np 2 ./resize input=x5.txt n=9 out=resized.txt
[[ -e resized.txt ]] && { echo "FAIL (linked array resized): an output was written"; bad=1; }
# an item filled by `load`, read and written by the coordinator before any task has read the
# file, then viewed by a task, and a section of the view read in the coordinator: the file's
# cells, the coordinator's write, the view's writes (expected values by hand)
# the task both programs below run: increment every element of v
cat >inc_task.it <<'IT'
Task "Inc":
    Define:
        v: 1d Array of Integer
    Environment:
        v: link
    Stages:
        inc(x) {
            do { x[i] = x[i] + 1 } for i in x
        }
    Computation:
        Space A { inc(v) }
    Partition:
        Space A <1d> { v: block_count(2) }
IT
cat - inc_task.it >loadview.it <<'IT'
Program (args) {
    a = new TaskEnvironment(name: "Inc")
    load(a.v, args.input)
    a.v[0] = a.v[7]
    s = new TaskEnvironment(name: "Inc")
    s.v = a.v[2...5]
    execute(task: "Inc"; environment: s)
    row = s.v[3...4]
    store(row, args.row)
    bind_output(a, "v", args.out)
}

IT
printf '"Inc" { Space A: 1 }\n' >loadview.map
printf 'Array\n10 20 30 40 50 60 70 80\n8\n' >i8.txt
printf 'Array\n80 20 31 41 51 61 70 80\n8\n' >i8_want.txt
printf 'Array\n41 51\n2\n' >row_want.txt
compile loadview.it loadview.map loadview
for np in 1 2; do
  rm -f lvrow.txt
  check "view of a loaded item" $np i8_want.txt lv.txt ./loadview input=i8.txt out=lv.txt row=lvrow.txt
  "$ref/ref_check" equal lvrow.txt row_want.txt 0 >/dev/null || { echo "FAIL (section of the view, np $np)"; bad=1; }
done
# an index read from a file outside the array's part, compiled without --debug: the crash is
# reported in the runtime's words with the stage and its LPU, status 1 (no bare signal, no MPI
# backtrace); --debug reports the index and its line
cat >gather.it <<'IT'
// Gathers v[idx[i]] into w; idx comes from a file.
Program (args) {
    env = new TaskEnvironment(name: "Gather")
    bind_input(env, "v", args.v_file)
    bind_input(env, "idx", args.idx_file)
    bind_output(env, "w", args.w_file)
    execute(task: "Gather"; environment: env; partition: args.p)
}

Task "Gather":
    Define:
        v: 1d Array of Real double-precision
        idx: 1d Array of Integer
        w: 1d Array of Real double-precision
    Environment:
        v, idx: link
        w: create
    Initialize:
        w.dimension = idx.dimension
    Stages:
        gather(out, from, pos) {
            do { out[i] = from[pos[i]] } for i in out
        }
    Computation:
        Space A { gather(w, v, idx) }
    Partition (p):
        Space A <1d> {
            w, idx: block_count(p)
            v: replicated
        }
IT
printf '"Gather" { Space A: 1 }\n' >gather.map
printf 'Array\n1 2 3 4\n4\n' >gv.txt
printf 'Array\n0 3 2000000000 1\n4\n' >gidx.txt
compile gather.it gather.map gather
expect "crash reported, one process" "error on rank 0: the program stopped on an invalid memory access (SIGSEGV) in stage \`gather\` of task \`Gather\`, Space A, LPU \[1\], called at gather.it:25; .*itc compile --debug" \
  timeout 60 ./gather v_file=gv.txt idx_file=gidx.txt w_file=gw.txt p=2
[[ $rc == 1 ]] || { echo "FAIL (crash reported, one process): exit status $rc, not 1"; bad=1; }
expect "crash reported, np 2" "error on rank 1: the program stopped on an invalid memory access (SIGSEGV) in stage \`gather\`" \
  timeout 60 $mpirun -np 2 ./gather v_file=gv.txt idx_file=gidx.txt w_file=gw.txt p=2
if grep -q "Signal code\|Segmentation fault" <<<"$out"; then echo "FAIL (crash reported, np 2): MPI's or the shell's report too"; bad=1; fi
compile gather.it gather.map gather_debug --debug
expect "the same index with --debug" "gather.it:22: \`from\`: index 2000000000 of dimension 1 is outside the LPU's part 0...3" \
  timeout 60 ./gather_debug v_file=gv.txt idx_file=gidx.txt w_file=gw.txt p=2
# `load` into a list keeps a capacity set before it (the file's 4 elements, then one more)
cat >loadcap.it <<'IT'
Program (args) {
    z = new List of Integer
    set_capacity(z, 10)
    load(z, args.input)
    c = get_cursor(z)
    insert_at(z, c, 99)
    store(z, args.out)
}
IT
printf 'List\n1 2 3 4\n4\n' >l4.txt
printf 'List\n99 1 2 3 4\n5\n' >l5_want.txt
: >empty.map
compile loadcap.it empty.map loadcap
expect_result "load keeps the list's capacity" l5_want.txt l5.txt timeout 60 $mpirun -np 2 ./loadcap input=l4.txt out=l5.txt
# writing an item nothing produced; a fixed-size array indexed outside it (a class field's
# neighbour lies behind it)
cat - inc_task.it >unproduced.it <<'IT'
Class Pt {
    c: Array[2] of Integer
    w: Integer
}

Program (args) {
    q = new Pt(w: 7)
    k = 0
    k = args.k
    q.c[k] = 5
    e = new TaskEnvironment(name: "Inc")
    store(e.v, args.out)
}

IT
compile unproduced.it loadview.map unproduced
expect "fixed-size array index" "unproduced.it:10: index 2 is outside the fixed-size array's indices 0...1" \
  timeout 60 $mpirun -np 2 ./unproduced k=2 out=unproduced.txt
expect "store of an item nothing produced" "writing environment item \`v\` of task \`Inc\` to \`unproduced.txt\`: no task has produced it" \
  timeout 60 $mpirun -np 2 ./unproduced k=1 out=unproduced.txt
# a space below the one that divides the sub-partitions, the only one using the array: it views
# the current sub-partition through the spaces above it (it was refused as foreach-own-parts)
cat >deepturns.it <<'IT'
Program (args) {
    env = new TaskEnvironment(name: "Three")
    bind_input(env, "x", args.input_file)
    execute(task: "Three"; environment: env; partition: args.p, args.q)
    bind_output(env, "x", args.y_file)
}

Task "Three":
    Define:
        x: 1d Array of Real double-precision
    Environment:
        x: link
    Stages:
        bump(x) {
            do { x[i] = x[i] + i } for i in x
        }
    Computation:
        Space A {
            Repeat foreach sub-partition {
                Space B {
                    Space C { bump(x) }
                }
            }
        }
    Partition (p, q):
        Space A <1d> {
            x: block_count(p)
            Sub-partition <1d> <ordered> {
                x: block_size(q)
            }
        }
        Space B <1d> divides Space A sub-partitions {
            x: block_size(2)
        }
        Space C <1d> divides Space B partitions {
            x: block_size(1)
        }
IT
printf '"Three" { Space A: 2 Space B: 1 Space C: 1 }\n' >deepturns.map
printf 'Array\n1 1 1 1 1 1 1\n7\n' >ones7.txt
printf 'Array\n1 2 3 4 5 6 7\n7\n' >deep_want.txt
compile deepturns.it deepturns.map deepturns
for np in 1 4; do
  check "a space below the turn space" $np deep_want.txt deep.txt ./deepturns input_file=ones7.txt p=3 q=2 y_file=deep.txt
done
# an index outside a coordinator array: every rank meets it alike, so it is printed once (it was
# printed by every rank, without the IT line or the range)
cat >coordindex.it <<'IT'
Program (args) {
    a = new 1d Array of Integer
    a.dimension1.range.min = 0
    a.dimension1.range.max = 4
    n = args.n * 1
    a[n] = 3
    store(a, args.out)
}
IT
compile coordindex.it empty.map coordindex
expect "coordinator index" "itrt: error: coordindex.it:6: index 9 of dimension 1 is outside the array's range 0...4" \
  timeout 60 $mpirun -np 4 ./coordindex n=9 out=ci.txt
[[ $(grep -c "outside the array's range" <<<"$out") == 1 ]] || { echo "FAIL (coordinator index): not printed once:"; echo "$out"; bad=1; }
# 0 to a negative power names the IT line too (and is printed once: the coordinator's)
cat >powzero.it <<'IT'
Program (args) {
    e = args.e * 1
    x = 0 ** e
    y = x + 1
}
IT
compile powzero.it empty.map powzero
expect "0 to a negative power" "itrt: error: powzero.it:3: 0 \*\* -1 divides by zero" timeout 60 $mpirun -np 2 ./powzero e=-1
# an Integer division by zero in a stage names the IT line (it was a SIGFPE without a word)
cat >divzero.it <<'IT'
Program (args) {
    e = new TaskEnvironment(name: "Div")
    bind_input(e, "v", args.input)
    execute(task: "Div"; environment: e; partition: 2)
    bind_output(e, "v", args.out)
}

Task "Div":
    Define:
        v: 1d Array of Integer
    Environment:
        v: link
    Stages:
        divide(x) {
            do { x[i] = 100 / (x[i] - 5) } for i in x
        }
    Computation:
        Space A { divide(v) }
    Partition (p):
        Space A <1d> { v: block_count(p) }
IT
printf '"Div" { Space A: 1 }\n' >divzero.map
printf 'Array\n1 5 7\n3\n' >d3.txt
compile divzero.it divzero.map divzero
expect "integer division by zero" "divzero.it:15: integer division by zero" \
  timeout 60 $mpirun -np 2 ./divzero input=d3.txt out=d3_out.txt
# limits: a partition with more LPUs than the runtime holds, a part (or all of a process's parts)
# larger than the memory the process may use, an Integer argument outside Integer's range — each refused with its numbers, quickly
compile "$root/tests/e2e/programs/huge.it" "$root/tests/e2e/programs/huge.map" huge
expect "too many LPUs" "the partition gives 100000000 LPUs (a: block_size(1) on dimension 1), more than the 16777216" \
  timeout 60 $mpirun -np 2 ./huge n=100000000 b=1 output_file=huge.txt
expect "part larger than memory" "one part of \`a\` needs .* GiB (4000000000000000000 elements), more than the .* GiB of memory this process may use" \
  timeout 60 $mpirun -np 2 ./huge n=2000000000 b=2000000000 output_file=huge.txt
# parts each small enough, but together more than any machine's memory: refused before any is
# allocated (probe AY: the kernel killed the process without a word)
expect "parts larger than memory" "the parts this process holds need .* GiB (of \`a\`), more than the .* GiB of memory this process may use" \
  timeout 60 $mpirun -np 2 ./huge n=1000000 b=100 output_file=huge.txt
# under a limit on the address space (`ulimit -v`) the limit is what the process may use (probe
# h31/sB: std::bad_alloc and nothing else)
expect "part larger than ulimit -v" "one part of \`a\` needs 1.07 GiB (144000000 elements), more than the .* GiB of memory this process may use (the address space left under this process's limit, \`ulimit -v\`)" \
  bash -c 'ulimit -v 600000 && exec timeout 60 ./huge n=12000 b=12000 output_file=huge.txt'
expect "Integer argument out of range" "argument \`n=1000000000000\`: outside the range of an Integer" \
  timeout 60 $mpirun -np 2 ./huge n=1000000000000 b=1 output_file=huge.txt
[[ -e huge.txt ]] && { echo "FAIL (limits): an output was written"; bad=1; }
# Boolean and Character arguments are checked like Integers (env_values takes strict= and sep=)
ev=$(dirname "$work")/env_values-cluster/prog-cluster
"$ref/make_input" -o v.txt --type double --shape 12 --seed 4 >/dev/null
expect "Boolean argument" "argument \`strict=maybe\`: expected a Boolean" \
  timeout 60 $mpirun -np 2 "$ev" input_file=v.txt k=3 strict=maybe sep=x p=2 summary_file=ev.txt
expect "Character argument" "argument \`sep=xy\`: expected a single Character" \
  timeout 60 $mpirun -np 2 "$ev" input_file=v.txt k=3 strict=1 sep=xy p=2 summary_file=ev.txt
# Integers and Reals are decimal numbers, as in data files (probe AR: `0x10` was a Real 16, and
# an Integer took a leading blank); `nan` and `inf` are Reals as text files write them.
expect "hexadecimal Integer argument" "argument \`k=0x3\`: expected an Integer" \
  timeout 60 $mpirun -np 2 "$ev" input_file=v.txt k=0x3 strict=1 sep=x p=2 summary_file=ev.txt
expect "Integer argument with a blank" "argument \`k= 3\`: expected an Integer" \
  timeout 60 $mpirun -np 2 "$ev" input_file=v.txt "k= 3" strict=1 sep=x p=2 summary_file=ev.txt
cat - inc_task.it >realarg.it <<'IT'
Program (args) {
    a = new TaskEnvironment(name: "Inc")
    bind_input(a, "v", args.input)
    x = args.scale * 1.0
    execute(task: "Inc"; environment: a)
}

IT
compile realarg.it loadview.map realarg
expect "hexadecimal Real argument" "argument \`scale=0x10\`: expected a Real number" \
  timeout 60 $mpirun -np 2 ./realarg input=i8.txt scale=0x10
if timeout 60 $mpirun -np 2 ./realarg input=i8.txt scale=-inf >realarg.log 2>&1; then echo "ok (a Real argument -inf)"
else echo "FAIL (a Real argument -inf):"; cat realarg.log; bad=1; fi
# An error of the coordinator while tasks run (a missing argument read after two executes): the
# tasks end first, then every rank exits 1 with the message; finalizing MPI under running tasks
# crashed (segmentation fault) two runs in three.
ct=$(dirname "$work")/concurrent_tasks-cluster/prog-cluster
"$ref/make_input" -o cl.txt --type double --shape 3000 --seed 5 >/dev/null
for attempt in 1 2 3; do
  expect "coordinator error while tasks run ($attempt)" "missing command-line argument \`left_out=" \
    timeout 60 $mpirun -np 2 "$ct" left_file=cl.txt right_file=cl.txt rounds=100000 loops=2 p=4 right_out=cr.txt \
    summary_file=cs.txt loop_out=cp.txt
  if grep -q -i "signal\|segmentation" <<<"$out" || [[ $rc != 1 ]]; then
    echo "FAIL (coordinator error while tasks run): exit $rc"; echo "$out"; bad=1
  fi
done
# Inputs no task has read yet, written by the coordinator (probe AC: zeros, or "never produced"):
# `load` then `store` of the item; an item bound to a file that the task links but no stage uses;
# `load` into a view makes the item an array of its own (the viewed item keeps its cells).
cat - inc_task.it >unread.it <<'IT'
Program (args) {
    a = new TaskEnvironment(name: "Inc")
    load(a.v, args.input)
    store(a.v, args.same)
    b = new TaskEnvironment(name: "Inc")
    b.v = a.v[1...3]
    load(b.v, args.other)
    execute(task: "Inc"; environment: b)
    store(b.v, args.b_out)
    store(a.v, args.a_out)
    t = new TaskEnvironment(name: "Two")
    bind_input(t, "w", args.other)
    bind_input(t, "v", args.input)
    execute(task: "Two"; environment: t)
    store(t.w, args.w_out)
}

Task "Two":
    Define:
        v, w: 1d Array of Integer
    Environment:
        v, w: link
    Stages:
        inc(x) {
            do { x[i] = x[i] + 1 } for i in x
        }
    Computation:
        Space A { inc(v) }
    Partition:
        Space A <1d> { v: block_count(2) }

IT
printf '"Inc" { Space A: 1 }\n"Two" { Space A: 1 }\n' >unread.map
printf 'Array\n70 80 90\n3\n' >i3.txt
printf 'Array\n71 81 91\n3\n' >i3_plus.txt
compile unread.it unread.map unread
for np in 1 2; do
  check "load, then store" $np i8.txt ur_same.txt ./unread input=i8.txt other=i3.txt same=ur_same.txt b_out=ur_b.txt \
    a_out=ur_a.txt w_out=ur_w.txt
  check_also "load into a view, the view" i3_plus.txt ur_b.txt
  check_also "load into a view, the viewed item" i8.txt ur_a.txt
  check_also "bound input no stage uses" i3.txt ur_w.txt
done
# a task that creates an item whose bound file no task has read; a linked scalar never assigned;
# an element outside an item, written by the coordinator: each names what and where (a task's
# messages the `execute` line that runs it)
cat - inc_task.it >misuse.it <<'IT'
Program (args) {
    e = new TaskEnvironment(name: "Inc")
    load(e.v, args.input)
    e.v[args.k] = 1
    c = new TaskEnvironment(name: "Make")
    bind_input(c, "m", args.input)
    if (args.mode == 1) {
        execute(task: "Make"; environment: c)
    }
    s = new TaskEnvironment(name: "Scaled")
    s.x = e.v
    execute(task: "Scaled"; environment: s)
}

Task "Make":
    Define:
        m: 1d Array of Integer
    Environment:
        m: create
    Initialize:
        m.dimension1.range.min = 0
        m.dimension1.range.max = 3
    Stages:
        inc(x) {
            do { x[i] = x[i] + 1 } for i in x
        }
    Computation:
        Space A { inc(m) }
    Partition:
        Space A <1d> { m: block_count(2) }

Task "Scaled":
    Define:
        x: 1d Array of Integer
        f: Integer
    Environment:
        x, f: link
    Stages:
        scale(a, f) {
            do { a[i] = a[i] * f } for i in a
        }
    Computation:
        Space A { scale(x, f) }
    Partition:
        Space A <1d> { x: block_count(2) }
IT
printf '"Inc" { Space A: 1 }\n"Make" { Space A: 1 }\n"Scaled" { Space A: 1 }\n' >misuse.map
compile misuse.it misuse.map misuse
expect "coordinator element outside an item" "misuse.it:4: writing an element of \`v\` of task \`Inc\` in the coordinator: index 9 of dimension 1 is outside" \
  timeout 60 $mpirun -np 2 ./misuse input=i8.txt k=9 mode=0
expect "creating a bound item" "misuse.it:8: task \`Make\` creates environment item \`m\`, but the file \`i8.txt\` bound or loaded into it has not been read" \
  timeout 60 $mpirun -np 2 ./misuse input=i8.txt k=1 mode=1
expect "linked scalar never assigned" "misuse.it:12: task \`Scaled\` links \`f\`, but no value has been assigned to it" \
  timeout 60 $mpirun -np 2 ./misuse input=i8.txt k=1 mode=0
# The coordinator reading a Reduction result made per LPU of Space A (probe AH: it read the first
# LPU's partial sum, 16 of 39): an error naming the line when Space A has several LPUs; with one
# LPU, that LPU's result is the one value (3 + 9 + 4 + 20 + 1 + 7 - 5 = 39).
cat >per_lpu.it <<'IT'
Program (args) {
    e = new TaskEnvironment(name: "Part Sums")
    bind_input(e, "x", args.input)
    execute(task: "Part Sums"; environment: e; partition: args.p, args.q)
    res = new 1d Array of Integer
    res.dimension1.range.min = 0
    res.dimension1.range.max = 0
    res[0] = e.part
    store(res, args.output)
}

Task "Part Sums":
    Define:
        x: 1d Array of Integer
        part: Integer Reduction
    Environment:
        x: link
        part: create
    Stages:
        add(v, t) { do { reduce(t, "sum", v[i]) } for i in v }
    Computation:
        Space A {
            Space B { add(x, Space A: part) }
        }
    Partition (p, q):
        Space A <1d> { x: block_count(p) }
        Space B <1d> divides Space A partitions { x: block_count(q) }
IT
printf '"Part Sums" { Space A: 2 Space B: 1 }\n' >per_lpu.map
printf 'Array\n3 9 4 20 1 7 -5\n7\n' >x7.txt
compile per_lpu.it per_lpu.map per_lpu
expect "coordinator reading a per-LPU Reduction" "per_lpu.it:8: environment item \`part\` of task \`Part Sums\` is a Reduction result made per LPU of Space A, which had several LPUs" \
  timeout 60 $mpirun -np 2 ./per_lpu input=x7.txt p=2 q=2 output=per_lpu.txt
printf 'Array\n39\n1\n' >per_lpu_want.txt
timeout 60 $mpirun -np 2 ./per_lpu input=x7.txt p=1 q=2 output=per_lpu.txt >/dev/null 2>&1 &&
  "$ref/ref_check" equal per_lpu.txt per_lpu_want.txt 0 >/dev/null || { echo "FAIL: per-LPU Reduction with one LPU"; bad=1; }
# A view of a view outside the outer view names the line that makes it (probe AH: no line).
cat - inc_task.it >viewview.it <<'IT'
Program (args) {
    a = new TaskEnvironment(name: "Inc")
    bind_input(a, "v", args.input)
    b = new TaskEnvironment(name: "Inc")
    b.v = a.v[2...5]
    c = new TaskEnvironment(name: "Inc")
    c.v = b.v[1...3]
    execute(task: "Inc"; environment: c)
}

IT
compile viewview.it loadview.map viewview
expect "view of a view outside it" "viewview.it:7: environment item \`v\` of task \`Inc\`: index 1 of dimension 1 is outside the view \`v\`" \
  timeout 60 $mpirun -np 2 ./viewview input=i8.txt
# Two different arrays bound to one output file: a warning (the file keeps the one bound last;
# probe AH: silent), once for the file.
cat - inc_task.it >twoout.it <<'IT'
Program (args) {
    a = new TaskEnvironment(name: "Inc")
    bind_input(a, "v", args.input)
    execute(task: "Inc"; environment: a)
    b = new TaskEnvironment(name: "Inc")
    bind_input(b, "v", args.input)
    execute(task: "Inc"; environment: b)
    bind_output(a, "v", args.output)
    bind_output(b, "v", args.output)
    bind_output(b, "v", args.output)
}

IT
compile twoout.it loadview.map twoout
out=$(timeout 60 $mpirun -np 2 ./twoout input=i8.txt output=twoout.txt 2>&1)
if [[ $(grep -c "warning: \`twoout.txt\` is bound as the output of two different arrays" <<<"$out") != 1 ]]; then
  echo "FAIL (one output file for two arrays): want one warning, got:"; echo "$out"; bad=1
else
  echo "ok (one output file for two arrays)"
fi
# A file written by `store` and also bound as an output: a warning (the output, written at the
# end, replaces the stored data; probe AR: silent), once, also with the store coming first.
cat - inc_task.it >storeout.it <<'IT'
Program (args) {
    a = new TaskEnvironment(name: "Inc")
    bind_input(a, "v", args.input)
    execute(task: "Inc"; environment: a)
    c = a.v
    store(c, args.output)
    bind_output(a, "v", args.output)
    store(c, args.output)
}

IT
compile storeout.it loadview.map storeout
out=$(timeout 60 $mpirun -np 2 ./storeout input=i8.txt output=storeout.txt 2>&1)
if [[ $(grep -c "warning: \`storeout.txt\` is written by \`store\` and is also bound as the output of" <<<"$out") != 1 ]]; then
  echo "FAIL (a stored file also bound as an output): want one warning, got:"; echo "$out"; bad=1
else
  echo "ok (a stored file also bound as an output)"
fi
# A list bound as an output and never stored: no warning (probe AY: the list's output went
# through `store`'s path and warned that `store` wrote the file).
cat >listout.it <<'IT'
Program (args) {
    env = new TaskEnvironment(name: "Fill")
    execute(task: "Fill"; environment: env)
    bind_output(env, "items", args.out)
}
Task "Fill":
    Define:
        items: List of Integer
    Environment:
        items: create
    Initialize:
        set_capacity(items, 3)
    Stages:
        fill(list) {
            insert_at(list, get_cursor(list), 7)
        }
    Computation:
        Space A { fill(items) }
    Partition:
        Space A <un-partitioned> { items }
IT
printf '"Fill" { Space A: 1 }\n' >listout.map
compile listout.it listout.map listout
printf 'List\n7\n1\n' >listout_want.txt
out=$(timeout 60 $mpirun -np 2 ./listout out=listout.txt 2>&1)
if grep -q "warning" <<<"$out" || ! "$ref/ref_check" equal listout.txt listout_want.txt 0 >/dev/null; then
  echo "FAIL (a list bound as an output): want the list and no warning, got:"; echo "$out"; cat listout.txt; bad=1
else
  echo "ok (a list bound as an output)"
fi
# An element passed to a stage must be in the calling LPU's part: one it does not hold stops the
# program naming the line (probe AN: read as 0, or written past the part: heap corruption). A
# guard on the holder works.
cat >elemarg.it <<'IT'
Program (args) {
    env = new TaskEnvironment(name: "Element")
    execute(task: "Element"; environment: env; partition: args.p)
    bind_output(env, "a", args.a)
}
Task "Element":
    Define:
        a: 1d Array of Integer
    Environment:
        a: create
    Initialize:
        a.dimension1.range.min = 0
        a.dimension1.range.max = 6
    Stages:
        put(x, v) { x = v }
    Computation:
        Space A {
            Where 2 in a.local.dimension1.range { put(a[2], 77) }
            put(a[5], 99)
        }
    Partition (p):
        Space A <1d> { a: block_count(p) }
IT
printf '"Element" { Space A: 1 }\n' >elemarg.map
compile elemarg.it elemarg.map elemarg
expect "an element argument the LPU does not hold" "elemarg.it:19 (an element passed to a stage, which the LPU must hold): index 5 of dimension 1 is not held by this LPU" \
  timeout 60 $mpirun -np 2 ./elemarg p=3 a=elemarg.txt
if timeout 60 $mpirun -np 2 ./elemarg p=1 a=elemarg.txt >/dev/null 2>&1 && [[ $(sed -n 2p elemarg.txt) == "0 0 77 0 0 99 0" ]]; then
  echo "ok (element arguments held by the one LPU)"
else
  echo "FAIL (element arguments held by the one LPU): $(cat elemarg.txt 2>&1)"; bad=1
fi
# Stage copies of sections: a section's end outside the array's range stops the program (probe
# AN: clipped silently), and a copy into a part names the element the LPU does not hold (it said
# the lengths did not match).
cat >seccopy.it <<'IT'
Program (args) {
    env = new TaskEnvironment(name: "Copies")
    execute(task: "Copies"; environment: env; initialize: args.h, args.which; partition: args.p)
    bind_output(env, "d", args.d)
}
Task "Copies":
    Define:
        s, d: 1d Array of Integer
        h, which: Integer
    Environment:
        d: create
    Initialize (h, which):
        s.dimension1.range.min = 0
        s.dimension1.range.max = 6
        d.dimension = s.dimension
    Stages:
        fill(s) { do { s[i] = i } for i in s }
        tail(s, d, h) {
            r = s[1...h]
            do { d[i] = r.dimension1.range.max } for i in d
        }
        whole(s, d) { d = s }
    Computation:
        Space A {
            fill(s)
            Where which == 0 { tail(s, d, h) }
            Where which == 1 { whole(s, d) }
        }
    Partition (p):
        Space A <1d> {
            s: block_count(p)
            d: block_count(p) padding(1)
        }
IT
printf '"Copies" { Space A: 1 }\n' >seccopy.map
compile seccopy.it seccopy.map seccopy
expect "a section's end outside the array" "seccopy.it:19: index 9 of dimension 1 of the section is outside the array's range 0...6" \
  timeout 60 $mpirun -np 2 ./seccopy h=9 which=0 p=1 d=seccopy.txt
# `d = s` copies by index: d's padding is not in s's part.
expect "a whole array copied into a wider part" "seccopy.it:22: copying a whole array into another gives each element of this LPU's part the source's element at the same indices, and this LPU does not hold index [23] of dimension 1 of the source" \
  timeout 60 $mpirun -np 2 ./seccopy h=3 which=1 p=2 d=seccopy.txt
# The coordinator assigns a section to an array whose dimensions it set, of other lengths: an
# error (probe AN: the array silently became the section, indices and all).
cat >secassign.it <<'IT'
Program (args) {
    a = new 1d Array of Integer
    a.dimension1.range.min = 0
    a.dimension1.range.max = 2
    c = new 1d Array of Integer
    c.dimension1.range.min = 5
    c.dimension1.range.max = 6
    c = a[0...args.hi]
    store(c, args.out)
}
IT
printf '// no tasks\n' >secassign.map
compile secassign.it secassign.map secassign
expect "a section assigned to an array of other lengths" "secassign.it:8: a section of 3 elements is assigned to an array of 2" \
  ./secassign hi=2 out=secassign.txt
if ./secassign hi=1 out=secassign.txt >/dev/null 2>&1 && [[ $(sed -n 2p secassign.txt) == "0 0" ]]; then
  echo "ok (a section of the same length, by position)"
else
  echo "FAIL (a section of the same length, by position): $(cat secassign.txt 2>&1)"; bad=1
fi
# A view whose indices leave the array it views, read or written by the coordinator: an error
# naming the view's line (probe AP: it read memory beyond the array).
cat - inc_task.it >viewout.it <<'IT'
Program (args) {
    a = new TaskEnvironment(name: "Inc")
    bind_input(a, "v", args.input)
    execute(task: "Inc"; environment: a)
    b = new TaskEnvironment(name: "Inc")
    b.v = a.v[3...9]
    c = new 1d Array of Integer
    c = b.v
    store(c, args.output)
}

IT
compile viewout.it loadview.map viewout
expect "a view outside the array it views" "viewout.it:6 has index 9 of dimension 1, outside the range 0...7" \
  timeout 60 $mpirun -np 2 ./viewout input=i8.txt output=viewout.txt
# A machine model with more cores per process than the system lets the program start threads
# for (64 worker threads of 8 MiB stacks under a 400 MB address-space limit): an error saying
# so, not std::terminate's abort (probe AR).
"$itc" compile "$root/examples/vector-add/vector-add.it" "$root/examples/vector-add/vector-add.map" \
  --machine "$root/pcubes-models/workstation-2socket.pcubes" -o va_64 || { echo "FAIL: compile va_64"; bad=1; }
"$ref/make_input" -o va64_a.txt --type double --shape 50 --seed 1 >/dev/null
"$ref/make_input" -o va64_b.txt --type double --shape 50 --seed 2 >/dev/null
expect "worker threads the system refuses" "cannot start worker thread .* of this process" \
  bash -c 'ulimit -s 8192 && ulimit -v 400000 && exec timeout 60 ./va_64 a_file=va64_a.txt b_file=va64_b.txt c_file=c64.txt p=64'
# A list read from a file longer than the capacity Initialize sets: an error of Initialize, which
# every rank runs alike, printed once and without MPI_ABORT (probe AQ: once per rank).
printf 'List\n1 2 3 4 5\n5\n' >l5.txt
cat >capinit.it <<'IT'
Program (args) {
    e = new TaskEnvironment(name: "Cap")
    bind_input(e, "lst", args.input)
    execute(task: "Cap"; environment: e)
}

Task "Cap":
    Define:
        lst: List of Integer
    Environment:
        lst: link
    Initialize:
        set_capacity(lst, 3)
    Stages:
        touch(lst) {
            c = get_cursor(lst)
        }
    Computation:
        touch(lst)
    Partition:
        Space A <un-partitioned> { }
IT
printf '"Cap" { Space A: 1 }\n' >capinit.map
compile capinit.it capinit.map capinit
out=$(timeout 60 $mpirun -np 2 ./capinit input=l5.txt 2>&1); rc=$?
if [[ $rc != 0 && $(grep -c "itrt: error: capinit.it:13: .set_capacity(3). below the list's length 5" <<<"$out") == 1 ]] &&
  ! grep -q MPI_ABORT <<<"$out"; then echo "ok (an Initialize error printed once at np 2)"
else echo "FAIL (an Initialize error printed once at np 2):"; echo "$out"; bad=1; fi
exit $bad
