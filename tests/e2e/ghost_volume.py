#!/usr/bin/env python3
"""Checks the stencil's IT_STATS line for the Space A padding exchange against the analytical
ghost-exchange volume: k-by-l tiles of a rows-by-cols plate, padded by p1, placed block-wise on
the 4 nodes of test-cluster-4 (node = i*4/n for tile i of n), nodes block-wise on np ranks.
Every exit of Space A moves, between tiles P and Q on different ranks, the cells P holds (its
tile widened by p1, clipped to the plate) that Q owns: 4 bytes each (Real single-precision).
Exits of Space A: `iterations` (one per outer Repeat)."""
import argparse, re, sys

ap = argparse.ArgumentParser()
for a in ("rows", "cols", "k", "l", "p1", "iterations", "np"):
    ap.add_argument("--" + a, type=int, required=True)
ap.add_argument("--stats", required=True)
o = ap.parse_args()

def blocks(n, s):
    return [(i * s, min(n, (i + 1) * s) - 1) for i in range((n + s - 1) // s)]

rb, cb = blocks(o.rows, o.k), blocks(o.cols, o.l)
tiles = [(r, c) for r in rb for c in cb]
n = len(tiles)
rank = [((i * 4) // n) * o.np // 4 for i in range(n)]

def held(t):
    (r0, r1), (c0, c1) = t
    return ((max(0, r0 - o.p1), min(o.rows - 1, r1 + o.p1)), (max(0, c0 - o.p1), min(o.cols - 1, c1 + o.p1)))

def inter(a, b):
    return max(0, min(a[1], b[1]) - max(a[0], b[0]) + 1)

volume = 0
for p in range(n):
    hp = held(tiles[p])
    for q in range(n):
        if p != q and rank[p] != rank[q]:
            volume += inter(hp[0], tiles[q][0]) * inter(hp[1], tiles[q][1])
expected = volume * 4 * o.iterations
found = None
for line in open(o.stats):
    m = re.match(r"IT_STATS .*padding exchange of plate at exit of Space A\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", line)
    if m:
        found = int(m.group(3))
print(f"stencil inter-rank ghost bytes: IT_STATS {found}, analytical {expected} "
      f"({n} tiles, np={o.np}, {o.iterations} exits of Space A)")
sys.exit(0 if found == expected or (found is None and expected == 0) else 1)
