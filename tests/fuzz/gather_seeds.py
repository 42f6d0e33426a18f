#!/usr/bin/env python3
"""Seed corpus of one fuzz target, gathered from the tree at run time (tools/fuzz.sh).

usage: gather_seeds.py TARGET OUTDIR [LIMIT]
  program  every .it file under examples/ and tests/
  machine  every .pcubes/.ml file under pcubes-models/ and tests/
  mapping  every .map file under examples/ and tests/
  data     small valid data files of every collection type, encoding and element type, written
           here from the format of docs/runtime-data.md (not by itc), and the data files under
           tests/; each prefixed with the two selector bytes fuzz_data.cpp reads
The committed regression inputs of tests/fuzz/regressions/TARGET/ are added as they are.
LIMIT caps the seeds taken from the tree (every k-th of them, the same ones each time; the
regression inputs always come): libFuzzer runs the whole corpus before it counts time, so a
brief run needs a small corpus.
Files are named by the hash of their content, so gathering twice into one folder is harmless.
"""
import hashlib
import pathlib
import struct
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
KINDS = ["Array", "List", "Array of Lists", "List of Arrays"]

# Element types in the order of fuzz_data.cpp's codec_for(): text tokens and binary bytes of
# the element number k.
ELEMENTS = [
    (lambda k: str(k - 3), lambda k: struct.pack("<i", k - 3)),                       # Integer
    (lambda k: repr(k / 4), lambda k: struct.pack("<f", k / 4)),                      # float
    (lambda k: repr(k * 1.5e-3), lambda k: struct.pack("<d", k * 1.5e-3)),            # double
    (lambda k: str(65 + k), lambda k: bytes([65 + k])),                               # Character
    (lambda k: str(k % 2), lambda k: bytes([k % 2])),                                 # Boolean
    (lambda k: '"s%d x"' % k, lambda k: (b"s%d x" % k).ljust(256, b"\0")),           # String
    (lambda k: "%d %d" % (k, k + 2), lambda k: struct.pack("<ii", k, k + 2)),         # Range
    (lambda k: "%d %r %r %d" % (k, k / 2, -k / 8, 97 + k),                            # Point
     lambda k: struct.pack("<iddB", k, k / 2, -k / 8, 97 + k)),
]


def product(lengths):
    p = 1
    for n in lengths:
        p *= n
    return p


def lengths_text(lengths):
    return "*".join(str(n) for n in lengths)


def data_file(kind, binary, codec, shape, items):
    """`items`: the lengths of each collection in content order (one for Array and List)."""
    text_of, bytes_of = ELEMENTS[codec]
    out = (KINDS[kind] + "\n").encode()
    k = 0
    content = b""
    for lengths in items:
        n = product(lengths)
        row = lengths[-1] if lengths and kind in (0, 3) else max(n, 1)
        if binary:
            for _ in range(n):
                content += bytes_of(k)
                k += 1
        elif n == 0:
            content += b"\n"
        else:
            for i in range(n):
                content += text_of(k).encode() + (b"\n" if (i + 1) % row == 0 else b" ")
                k += 1
    if binary:
        out += content + b"\n"
    else:
        out += content if content else b"\n"
    if kind in (2, 3):
        offsets, at = [], 0
        for lengths in items:
            offsets.append("%d:%s" % (at, lengths_text(lengths)))
            at += product(lengths)
        out += (" ".join(offsets) + "\n").encode()
    out += (lengths_text(shape) + "\n").encode()
    return out


def data_seeds():
    shapes = [
        (0, [[2, 3]], [2, 3]), (0, [[4]], [4]), (0, [[1, 2, 2]], [1, 2, 2]),
        (1, [[3]], [3]), (1, [[0]], [0]),
        (2, [[2], [0], [1]], [1, 3]), (2, [[1], [2]], [2]),
        (3, [[2, 2], [1, 3]], [2]), (3, [[3]], [1]),
    ]
    for kind, items, shape in shapes:
        rank = len(shape) if kind in (0, 2) else len(items[0])
        for binary in (0, 1):
            for codec in range(len(ELEMENTS)):
                pick = kind | binary << 2 | codec << 3
                yield bytes([pick, rank + 1]) + data_file(kind, binary, codec, shape, items)
    # The data files of the tests, for every element type (their type is not in the file).
    for path in sorted((ROOT / "tests").rglob("*")):
        if path.suffix not in (".txt", ".bin") or path.name == "CMakeLists.txt":
            continue
        body = path.read_bytes()
        header = body.split(b"\n", 1)[0].decode("latin-1").strip()
        kind = KINDS.index(header) if header in KINDS else 0
        binary = path.suffix == ".bin"
        for codec in range(len(ELEMENTS)):
            yield bytes([kind | binary << 2 | codec << 3, 0]) + body


def tree_files(patterns, folders):
    for folder in folders:
        for pattern in patterns:
            for path in sorted((ROOT / folder).rglob(pattern)):
                if "build" not in path.relative_to(ROOT).parts[0]:
                    yield path.read_bytes()


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in ("program", "machine", "mapping", "data"):
        sys.exit(__doc__)
    if len(sys.argv) == 4 and not (sys.argv[3].isdigit() and int(sys.argv[3]) > 0):
        sys.exit(__doc__)
    target, out = sys.argv[1], pathlib.Path(sys.argv[2])
    limit = int(sys.argv[3]) if len(sys.argv) == 4 else None
    out.mkdir(parents=True, exist_ok=True)
    if target == "program":
        seeds = tree_files(["*.it"], ["examples", "tests"])
    elif target == "machine":
        seeds = tree_files(["*.pcubes", "*.ml"], ["pcubes-models", "tests"])
    elif target == "mapping":
        seeds = tree_files(["*.map"], ["examples", "tests"])
    else:
        seeds = data_seeds()
    regressions = ROOT / "tests" / "fuzz" / "regressions" / target
    extra = [p.read_bytes() for p in sorted(regressions.glob("*"))] if regressions.is_dir() else []
    seeds = list(seeds)
    if limit is not None and len(seeds) > limit:
        step = len(seeds) / limit
        seeds = [seeds[int(k * step)] for k in range(limit)]
    count = 0
    for seed in seeds + extra:
        (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
        count += 1
    print("gather_seeds.py: %d %s seeds in %s" % (count, target, out))


if __name__ == "__main__":
    main()
