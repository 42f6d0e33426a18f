#!/usr/bin/env bash
# run_trace.sh <work-dir>: IT_TRACE end to end. Runs the stencil and the dot product (two spaces
# each; compiled for test-cluster-4 by the e2e compile fixtures) under `mpirun -np 2` with
# IT_TRACE, checks each trace with trace_check.py (structure, tracks, nesting, stage spans with
# their IT line and the number of stage calls computed here from the partition, one send and one
# receive per message, bytes equal to IT_STATS), then draws it with `itc trace -o` and checks the
# SVG and the printed summary. Also: an unwritable IT_TRACE file is a clear error, and a run
# without IT_TRACE writes nothing.
set -euo pipefail
work=${1:?work dir}
root=${ROOT:?}; itc=${ITC:?}
here=$(cd "$(dirname "$0")" && pwd)
e2e=$(dirname "$work")
mpirun=${MPIRUN:-mpirun --oversubscribe}
[[ $(id -u) == 0 ]] && mpirun="$mpirun --allow-run-as-root"
mkdir -p "$work"
cd "$work"
rm -f ./*.json ./*.svg

# The line of a stage call in the Computation section (the call alone on its line).
call_line() { grep -n -E "^[[:space:]]*$2[[:space:]]*\$" "$1" | tail -1 | cut -d: -f1; }

# -- stencil: r x c plate, A tiles k x l padded by p1, B tiles m x n of each padded A tile --------
r=32 c=32 it=2 p1=2 p2=1 k=8 l=8 m=6 n=6
"$itc" data make -o plate.txt --type float --shape ${r}x${c} --seed 9 --lo 0 --hi 100 >/dev/null
# B LPUs: per dimension, the sum over A tiles of ceil(padded tile length / B block); the stage
# runs iterations x p1 times per B LPU (p1/p2 rounds of p2 epochs, p2 divides p1).
calls=$(python3 - "$r" "$c" "$k" "$l" "$m" "$n" "$p1" "$it" <<'EOF'
import math, sys
r, c, k, l, m, n, p1, it = map(int, sys.argv[1:])
def b_lpus(size, tile, pad, block):
    total = 0
    for lo in range(0, size, tile):
        hi = min(size, lo + tile) - 1
        total += math.ceil((min(size - 1, hi + pad) - max(0, lo - pad) + 1) / block)
    return total
print(b_lpus(r, k, p1, m) * b_lpus(c, l, p1, n) * it * p1)
EOF
)
line=$(call_line "$root/examples/stencil/stencil.it" 'refineEstimates\(plate\)')
prog=$e2e/stencil-cluster/prog-cluster
[[ -x $prog ]] || { echo "run_trace.sh: $prog missing (the e2e_stencil_cluster_compile fixture makes it)"; exit 1; }
echo "+ IT_TRACE=stencil.json mpirun -np 2 stencil (expecting $calls refineEstimates spans, line $line)"
IT_TRACE=stencil.json $mpirun -np 2 "$prog" input_file=plate.txt output_file=out.txt iterations=$it \
  p1=$p1 p2=$p2 k=$k l=$l m=$m n=$n
"$itc" trace stencil.json -o stencil.svg | tee stencil-summary.txt
python3 "$here/trace_check.py" stencil.json --ranks 2 --stage "refineEstimates=$calls:$line" \
  --svg stencil.svg --summary stencil-summary.txt

# -- dot product: Space B cuts both vectors into p blocks, one stage call each -------------------
len=1000 p=8
"$itc" data make -o u.txt --type double --shape $len --seed 3 >/dev/null
"$itc" data make -o v.txt --type double --shape $len --seed 4 >/dev/null
line=$(call_line "$root/examples/dot-product/dot-product.it" 'multiplyAndSum\(u, v, Space A: result\)')
prog=$e2e/dot-product-cluster/prog-cluster
[[ -x $prog ]] || { echo "run_trace.sh: $prog missing (the e2e_dot-product_cluster_compile fixture makes it)"; exit 1; }
echo "+ IT_TRACE=dot.json mpirun -np 2 dot-product (expecting $p multiplyAndSum spans, line $line)"
IT_TRACE=dot.json $mpirun -np 2 "$prog" u_file=u.txt v_file=v.txt p=$p output_file=dot.txt
"$itc" trace dot.json -o dot.svg | tee dot-summary.txt
python3 "$here/trace_check.py" dot.json --ranks 2 --stage "multiplyAndSum=$p:$line" --svg dot.svg \
  --summary dot-summary.txt

# -- errors ----------------------------------------------------------------------------------
rc=0
IT_TRACE=/nonexistent/dir/t.json $mpirun -np 2 "$prog" u_file=u.txt v_file=v.txt p=$p output_file=dot2.txt \
  >/dev/null 2>err.txt || rc=$?
if ((rc == 0)) || ! grep -q "IT_TRACE=/nonexistent/dir/t.json: cannot write the trace file" err.txt; then
  echo "run_trace.sh: FAIL: an unwritable IT_TRACE file should stop the run with a clear error"; cat err.txt; exit 1
fi
[[ -e dot2.txt ]] && { echo "run_trace.sh: FAIL: the run went on despite the bad IT_TRACE"; exit 1; }
rm -f ./*.json
$mpirun -np 2 "$prog" u_file=u.txt v_file=v.txt p=$p output_file=dot3.txt
if compgen -G "*.json" >/dev/null; then echo "run_trace.sh: FAIL: a run without IT_TRACE wrote a trace"; exit 1; fi
rc=0
"$itc" trace out.txt >/dev/null 2>err.txt || rc=$?
if ((rc != 1)) || ! grep -q "^out.txt:1:1: error:" err.txt; then
  echo "run_trace.sh: FAIL: \`itc trace\` on a non-JSON file should say where it is not JSON"; cat err.txt; exit 1
fi
echo '{"a": [1, 2]}' >other.json
rc=0
"$itc" trace other.json >/dev/null 2>err.txt || rc=$?
if ((rc != 1)) || ! grep -q "^other.json: error: not a run trace: no \`traceEvents\` array" err.txt; then
  echo "run_trace.sh: FAIL: \`itc trace\` on JSON that is not a trace should say so"; cat err.txt; exit 1
fi
rc=0
"$itc" trace missing.json >/dev/null 2>err.txt || rc=$?
if ((rc != 1)) || ! grep -q "^missing.json: error: cannot read the trace file" err.txt; then
  echo "run_trace.sh: FAIL: \`itc trace\` on a missing file should say so"; cat err.txt; exit 1
fi
# an edited trace with a span of negative duration (probe AR: summed into negative totals)
echo '{"traceEvents": [{"ph": "X", "pid": 0, "tid": 1, "name": "w", "cat": "wait", "ts": 10, "dur": -5}]}' >neg.json
rc=0
"$itc" trace neg.json >/dev/null 2>err.txt || rc=$?
if ((rc != 1)) || ! grep -q "^neg.json: error: event \`w\` has a negative duration (-5)" err.txt; then
  echo "run_trace.sh: FAIL: \`itc trace\` should refuse a negative duration"; cat err.txt; exit 1
fi
rm -f other.json neg.json
echo "run_trace.sh: ok"
