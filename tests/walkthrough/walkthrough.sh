#!/usr/bin/env bash
# walkthrough.sh ROOT ITC_DIR WORK_DIR: the acceptance test of the language guide. A new user with
# only the README and docs/language/tutorial.md
#   1. runs the tutorial's first program exactly as written there (scale.it and scale.map are
#      cut out of the tutorial, the commands are the tutorial's) and gets the output the
#      tutorial shows;
#   2. writes a small program of their own, makes a typo and follows itc's hint, then checks,
#      plans, describes the machine, maps, compiles, makes input with `itc data make`, runs
#      it with one process and, on a two-node description, with two, and compares the results
#      with `itc data compare` against values computed independently by python3.
# ITC_DIR holds the itc binary (the tutorial puts build/tools on the PATH).
set -euo pipefail
root=${1:?usage: walkthrough.sh ROOT ITC_DIR WORK_DIR}
itc_dir=${2:?usage: walkthrough.sh ROOT ITC_DIR WORK_DIR}
work=${3:?usage: walkthrough.sh ROOT ITC_DIR WORK_DIR}
tutorial=$root/docs/language/tutorial.md
export PATH="$itc_dir:$PATH"
# The tutorial: "If you run as root (in a container, say), Open MPI wants ... in the environment".
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work"
mkdir -p "$work"
cd "$work"
step() { echo; echo "== $*"; }

# The N-th fenced block of language LANG in the tutorial (1-based).
block() {
  awk -v lang="$1" -v want="$2" '
    /^```/ { if (inside) { inside = 0; if (n == want) exit; next }
             if ($0 == "```" lang) { n++; inside = 1; next } }
    inside && n == want { print }' "$tutorial"
}

# -- 1. The tutorial's first program, as written ------------------------------------------------
step "tutorial section 2: scale.it"
block it 1 >scale.it
block it-map 1 >scale.map
grep -q 'Task "Scale"' scale.it && grep -q '"Scale"' scale.map ||
  { echo "FAIL: the tutorial's first it/it-map blocks are not scale.it and scale.map"; exit 1; }
itc check scale.it                                   # "silent, exit status 0"
[[ -z $(itc check scale.it 2>&1) ]] || { echo "FAIL: itc check scale.it is not silent"; exit 1; }
itc plan scale.it >plan.txt
itc machine -o here.pcubes
grep -Eq '^Space 1<core>' here.pcubes ||
  { echo "FAIL: level 1 of here.pcubes is not the cores, as the tutorial says"; cat here.pcubes; exit 1; }
itc check scale.it scale.map --machine here.pcubes
itc plan  scale.it scale.map --machine here.pcubes >plan-mapped.txt
itc plan  scale.it scale.map --machine here.pcubes --suggest x=1000000,y=1000000 >suggest.txt
grep -q "suggested partition arguments: blocks=" suggest.txt ||
  { echo "FAIL: --suggest as the tutorial shows it proposes no \`blocks\`"; cat suggest.txt; exit 1; }
itc compile scale.it scale.map --machine here.pcubes -o scale
printf 'Array\n1 2 3 4 5 6 7 8 9 10\n10\n' > x.txt
mpirun -np 1 ./scale input=x.txt output=y.txt factor=2.5 blocks=2
cat y.txt
# The output the tutorial shows after `cat y.txt`: its first ```text block.
block text 1 >y_tutorial.txt
diff y_tutorial.txt y.txt || { echo "FAIL: y.txt is not what the tutorial shows"; exit 1; }
step "tutorial: several processes"
itc machine --nodes 2 -o two.pcubes
itc compile scale.it scale.map --machine two.pcubes -o scale2
mpirun --oversubscribe -np 2 ./scale2 input=x.txt output=y.txt factor=3 blocks=4
printf 'Array\n3 6 9 12 15 18 21 24 27 30\n10\n' >y3.txt
itc data compare y.txt y3.txt --type double
step "tutorial: a larger input with itc data make"
itc data make -o x.bin --type double --shape 1000000 --seed 1
mpirun -np 1 ./scale input=x.bin output=y.bin factor=2 blocks=8
itc data show y.bin --type double

# -- 2. A program of one's own ------------------------------------------------------------------
step "my own program: squares.it, first with a typo"
write_squares() { # $1: the precision word of y, to make the typo with
cat >squares.it <<IT
// squares.it: y[i] = x[i] * x[i] and the sum of all y, over blocks of x
Program (args) {
    env = new TaskEnvironment(name: "Squares")
    bind_input(env, "x", args.input)
    bind_output(env, "y", args.output)
    execute(task: "Squares"; environment: env; partition: args.blocks)

    total = new 1d Array of Real double-precision
    total.dimension1.range.min = 0
    total.dimension1.range.max = 0
    total[0] = env.sum_of_squares
    store(total, args.total)
}

Task "Squares":
    Define:
        x, y: 1d Array of Real $1
        sum_of_squares: Real double-precision Reduction
    Environment:
        x: link
        y, sum_of_squares: create
    Initialize:
        y.dimension = x.dimension
    Stages:
        square(result, values) {
            do { result[i] = values[i] * values[i] } for i in result
        }
        addUp(values, total) {
            do { reduce(total, "sum", values[i]) } for i in values
        }
    Computation:
        Space A {
            square(y, x)
            addUp(y, Space Root: sum_of_squares)
        }
    Partition (blocks):
        Space A <1d> { x, y: block_count(blocks) }
IT
}
write_squares double-precisoin
status=0
itc check squares.it 2>typo.txt || status=$?
cat typo.txt
[[ $status == 1 ]] || { echo "FAIL: itc check accepted the typo (exit $status)"; exit 1; }
grep -q 'squares.it:17:32:.*did you mean the reserved word `double-precision`' typo.txt ||
  { echo "FAIL: no file:line and \"did you mean\" for the typo"; exit 1; }
step "my own program: fixed as itc suggests"
write_squares double-precision
itc check squares.it
itc plan squares.it >squares-plan.txt
# "Levels are numbered from the top ... down to 1 (here the cores)": map Space A to the cores.
core=$(sed -nE 's/^Space ([0-9]+)[^:]*<core>.*/\1/p' here.pcubes | head -1)
[[ -n $core ]] || { echo "FAIL: here.pcubes has no <core> level"; exit 1; }
printf '"Squares" {\n    Space A: %s\n}\n' "$core" >squares.map
itc check squares.it squares.map --machine here.pcubes
itc compile squares.it squares.map --machine here.pcubes -o squares
itc data make -o x.txt --type double --shape 997 --seed 7 --lo -3 --hi 3
mpirun -np 1 ./squares input=x.txt output=y.txt total=total.txt blocks=4

step "the expected results, computed independently"
python3 - <<'PY'
def read(name):
    lines = open(name).read().strip().split("\n")
    assert lines[0] == "Array", name
    return [float(w) for line in lines[1:-1] for w in line.split()]
x = read("x.txt")
assert len(x) == 997
y = [v * v for v in x]
with open("y_ref.txt", "w") as f:
    f.write("Array\n" + " ".join(repr(v) for v in y) + "\n%d\n" % len(y))
with open("total_ref.txt", "w") as f:
    f.write("Array\n%r\n1\n" % sum(y))
PY
itc data compare y.txt y_ref.txt --type double
itc data compare total.txt total_ref.txt --type double --tolerance 1e-12

step "my own program on two nodes, two processes"
itc compile squares.it squares.map --machine two.pcubes -o squares2
rm -f y.txt total.txt
mpirun --oversubscribe -np 2 ./squares2 input=x.txt output=y.txt total=total.txt blocks=6
itc data compare y.txt y_ref.txt --type double
itc data compare total.txt total_ref.txt --type double --tolerance 1e-12
echo
echo "walkthrough: the tutorial's program and a program of my own were checked, compiled, run and verified"
