#!/usr/bin/env python3
# stencil_ghost_sim.py: checks the claim behind ref_stencil. It simulates the flow of
# examples/stencil (Appendix A.3) LPU by LPU, with private copies of padded cells, under the
# rules of docs/it-language.md §9.5, §9.6 and §10.4 (Space B splits the *padded* Space A part; a
# refresh copies owner values into padded copies when the flow exits the Space block), and compares
# the owned cells with plain Jacobi (iterations * p1 sweeps, boundary fixed). It also shows the one
# implementation choice that matters: when the flow exits Space A, the refreshed A-level padding must
# reach *every* Space B copy of those cells, not only their Space B owners; otherwise the result is
# wrong. Pure Python, doubles (the question is structural, not rounding). Exit code 1 on mismatch.
import random
import sys
def parts(lo, hi, size, pad):   # parent part [lo,hi] (contiguous, increasing); returns list of (own_lo, own_hi, held_lo, held_hi)
    n = hi - lo + 1; P = -(-n // size); out = []
    for c in range(P):
        a = c*size; b = min(n, (c+1)*size) - 1
        out.append((lo+a, lo+b, lo+max(0, a-pad), lo+min(n-1, b+pad)))
    return out
class Grid:
    def __init__(s, rows): s.rows=[list(r) for r in rows]
    @property
    def shape(s): return (len(s.rows), len(s.rows[0]))
    def copy(s): return Grid(s.rows)
    def __getitem__(s, ij): return s.rows[ij[0]][ij[1]]
    def __setitem__(s, ij, v): s.rows[ij[0]][ij[1]] = v
    def window(s, r0, r1, c0, c1): return Grid([row[c0:c1+1] for row in s.rows[r0:r1+1]])
def step(x):
    R, C = x.shape; y = x.copy()
    for i in range(1, R-1):
        for j in range(1, C-1):
            y[i, j] = 0.25*(x[i-1, j]+x[i+1, j]+x[i, j-1]+x[i, j+1])
    return y
def jacobi(x, steps):
    for _ in range(steps): x = step(x)
    return x
def simulate(plate, iters, p1, p2, k, l, m, n, refresh_b_copies_at_a_exit=True):
    R, C = plate.shape
    A = [(ri, ci) for ri in parts(0, R-1, k, p1) for ci in parts(0, C-1, l, p1)]
    # B LPUs per A LPU: each holds a private copy of its held window
    B = []  # list per A LPU of list of dicts
    for (ri, ci) in A:
        lst = []
        for rb in parts(ri[2], ri[3], m, p2):
            for cb in parts(ci[2], ci[3], n, p2):
                lst.append(dict(r=rb, c=cb, data=plate.window(rb[2], rb[3], cb[2], cb[3])))
        B.append(lst)
    def val_from_b_owner(bl, i, j):
        for b in bl:
            if b['r'][0] <= i <= b['r'][1] and b['c'][0] <= j <= b['c'][1]:
                return b['data'][i-b['r'][2], j-b['c'][2]]
        raise Exception
    def global_owner_val(i, j):
        for a, (ri, ci) in enumerate(A):
            if ri[0] <= i <= ri[1] and ci[0] <= j <= ci[1]:
                return val_from_b_owner(B[a], i, j)
    rounds2 = len(range(1, p1+1, p2))
    for _ in range(iters):
        for a in range(len(A)):
            for _ in range(rounds2):
                for _ in range(p2):
                    for b in B[a]:
                        b['data'] = step(b['data'])
                # exit Space B: refresh B ghosts from B owners within this A LPU
                snap = [bb['data'].copy() for bb in B[a]]
                def owner_snap(i, j):
                    for bb, s in zip(B[a], snap):
                        if bb['r'][0] <= i <= bb['r'][1] and bb['c'][0] <= j <= bb['c'][1]:
                            return s[i-bb['r'][2], j-bb['c'][2]]
                for b in B[a]:
                    for i in range(b['r'][2], b['r'][3]+1):
                        for j in range(b['c'][2], b['c'][3]+1):
                            b['data'][i-b['r'][2], j-b['c'][2]] = owner_snap(i, j)
        # exit Space A: refresh A ghosts from A owners (all LPUs finished: flow order)
        snapA = {}
        for a, (ri, ci) in enumerate(A):
            for i in range(ri[0], ri[1]+1):
                for j in range(ci[0], ci[1]+1):
                    snapA[(i, j)] = val_from_b_owner(B[a], i, j)
        for a, (ri, ci) in enumerate(A):
            for b in B[a]:
                for i in range(b['r'][2], b['r'][3]+1):
                    for j in range(b['c'][2], b['c'][3]+1):
                        a_owned = ri[0] <= i <= ri[1] and ci[0] <= j <= ci[1]
                        b_owned = b['r'][0] <= i <= b['r'][1] and b['c'][0] <= j <= b['c'][1]
                        if not a_owned and (b_owned or refresh_b_copies_at_a_exit):
                            b['data'][i-b['r'][2], j-b['c'][2]] = snapA[(i, j)]
    out = plate.copy()
    for i in range(R):
        for j in range(C):
            out[i, j] = global_owner_val(i, j)
    return out
random.seed(1)
failed = False
for (R, C, iters, p1, p2, k, l, m, n) in [(20, 18, 3, 4, 2, 6, 7, 4, 5), (16, 16, 2, 2, 1, 5, 4, 3, 3),
                                          (15, 15, 2, 3, 1, 4, 4, 2, 3)]:
    plate = Grid([[random.random()*100 for _ in range(C)] for _ in range(R)])
    ref = jacobi(plate, iters*p1)
    for mode in (True, False):
        out = simulate(plate, iters, p1, p2, k, l, m, n, mode)
        diff = max(abs(out[i, j]-ref[i, j]) for i in range(R) for j in range(C))
        what = 'refresh every copy at A exit' if mode else 'refresh only B owners at A exit'
        print((R, C, iters, p1, p2, k, l, m, n), what, 'max |IT - Jacobi| =', diff)
        if mode and diff > 1e-9:
            failed = True
        if not mode and diff < 1e-9:
            print('  (expected the partial refresh to differ)')
            failed = True
sys.exit(1 if failed else 0)
