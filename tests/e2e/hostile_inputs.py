#!/usr/bin/env python3
"""Hostile input files for a compiled IT program (bind_input): each is refused with one precise
message that names the file, on every rank, before any large allocation, and no output is written.

usage: hostile_inputs.py PROGRAM WORKDIR cases
       hostile_inputs.py PROGRAM WORKDIR property [--seed N] [--seconds S]

PROGRAM is examples/vector-add compiled for the test cluster (c = a + b, 1d Arrays of Real
double-precision; the e2e fixture builds it). Every run is `mpirun -np 2` under a 2 GiB address
space limit (so a 10^12-element allocation would fail with bad_alloc, not with our message), a
60 s timeout, with the output in an empty folder that must stay empty when the run fails.

cases:    a fixed list: a header claiming 10^12 elements (text and binary), lengths that do not
          fit in 64 bits, another dimensionality, another collection type, another element type
          (text and binary), NaN, Inf and overflowing numbers in text, a truncated binary body, a
          file cut short, an empty file, a directory, a FIFO, a missing file.
property: seeded random files built from independent choices (header, element tokens or bytes,
          element count, trailer, truncation), each choice valid or not; the file is valid exactly
          when every choice is. A valid file must run and give c = a + b (checked here from the
          numbers written); an invalid one must fail cleanly as above. Stops after S seconds.
The expected outcome comes from the format (docs/runtime-data.md) and this script's own
arithmetic, never from an earlier run of the program.
"""
import argparse
import os
import random
import resource
import shutil
import stat
import struct
import subprocess
import sys
import time

MEMORY_LIMIT = 2 << 30
TIMEOUT = 60
NP = 2


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def mpirun():
    cmd = ["mpirun", "--oversubscribe", "-np", str(NP)]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def text_file(values, lengths=None, header="Array"):
    body = " ".join(values)
    return ("%s\n%s\n%s\n" % (header, body, lengths if lengths is not None else len(values))).encode()


def binary_file(data, lengths, header="Array"):
    return ("%s\n" % header).encode() + data + ("\n%s\n" % lengths).encode()


def doubles(xs):
    return struct.pack("<%dd" % len(xs), *xs)


class Runner:
    def __init__(self, program, work):
        self.program, self.work = program, work
        self.failures = 0
        self.runs = 0

    def run(self, a_name, make_a, b_values, ext):
        """Runs c = a + b with `a` made by make_a(path); returns (rc, output, out folder, seconds)."""
        case = os.path.join(self.work, "case%d" % self.runs)
        self.runs += 1
        shutil.rmtree(case, ignore_errors=True)
        out = os.path.join(case, "out")
        os.makedirs(out)
        a = os.path.join(case, a_name)
        make_a(a)
        b = os.path.join(case, "b.bin")
        with open(b, "wb") as f:
            f.write(binary_file(doubles(b_values), len(b_values)))
        c = os.path.join(out, "c" + ext)
        start = time.monotonic()
        try:
            p = subprocess.run(mpirun() + [self.program, "a_file=" + a, "b_file=" + b, "c_file=" + c,
                                           "p=2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=TIMEOUT, preexec_fn=limit_memory, cwd=case)
            rc, output = p.returncode, p.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired as e:
            rc, output = None, (e.stdout or b"").decode(errors="replace")
        return rc, output, out, time.monotonic() - start, a

    def fail(self, what, detail):
        self.failures += 1
        print("FAIL (%s): %s" % (what, detail))

    def expect_refused(self, what, a_name, make_a, phrase, ext=".bin"):
        rc, output, out, seconds, a = self.run(a_name, make_a, [1.0, 2.0, 3.0], ext)
        if rc is None:
            return self.fail(what, "no end within %d s (hang?)\n%s" % (TIMEOUT, output))
        if rc == 0:
            return self.fail(what, "exit status 0\n" + output)
        errors = [l for l in output.splitlines() if "error:" in l]
        if len(errors) != 1:
            return self.fail(what, "expected one error line, found %d:\n%s" % (len(errors), output))
        line = errors[0]
        if a not in line or phrase not in line:
            return self.fail(what, "the message does not name `%s` and say `%s`:\n%s" % (a, phrase, output))
        for noise in ("bad_alloc", "Aborted", "signal", "terminate called", "internal"):
            if noise in output:
                return self.fail(what, "`%s` in the output:\n%s" % (noise, output))
        left = os.listdir(out)
        if left:
            return self.fail(what, "output written after the error: %s" % left)
        print("ok (%s, %.1f s): %s" % (what, seconds, line.strip()))

    def expect_sum(self, what, make_a, a_values, b_values, ext):
        rc, output, out, seconds, a = self.run("a" + ext, make_a, b_values, ".txt")
        if rc != 0:
            return self.fail(what, "a valid file was refused (exit %s):\n%s" % (rc, output))
        with open(os.path.join(out, "c.txt")) as f:
            lines = f.read().split("\n")
        got = [float(t) for t in " ".join(lines[1:-2]).split()]
        want = [x + y for x, y in zip(a_values, b_values)]
        if got != want or lines[-2] != str(len(want)):
            return self.fail(what, "c is %s (shape %s), expected %s" % (got, lines[-2], want))
        print("ok (%s, %.1f s): c = a + b for %d elements" % (what, seconds, len(want)))


def writer(content):
    def make(path):
        with open(path, "wb") as f:
            f.write(content)
    return make


def cases(r):
    three = doubles([1.0, 2.0, 3.0])
    r.expect_refused("binary header claiming 10^12 elements", "a.bin",
                     writer(binary_file(three, 10**12)), "claims more elements than the 24 content bytes")
    r.expect_refused("text header claiming 10^12 elements", "a.txt",
                     writer(text_file(["1", "2", "3"], 10**12)),
                     "line 3: expected 1000000000000 elements for a 1000000000000-element Array, found 3")
    r.expect_refused("lengths beyond 64 bits", "a.bin", writer(binary_file(three, "9" * 20)),
                     "expected dimension lengths like `2*3`, found `99999999999999999999`")
    r.expect_refused("2d file for a 1d Array", "a.bin", writer(binary_file(three * 2, "2*3")),
                     "expected 1-dimensional Array, found 2 dimensions `2*3`")
    r.expect_refused("a List, not an Array", "a.txt", writer(text_file(["1", "2", "3"], 3, "List")),
                     "line 1: expected header `Array`, found `List`")
    r.expect_refused("Real single-precision bytes for Real double-precision", "a.bin",
                     writer(binary_file(struct.pack("<3f", 1, 2, 3), 3)),
                     "expected 24 content bytes for a 3-element Array of Real double-precision (3 elements of 8 bytes), found 12")
    r.expect_refused("Strings for Real double-precision", "a.txt",
                     writer(text_file(['"x"', '"y"', '"z"'])),
                     'line 2: expected a Real double-precision, found `"x"`')
    r.expect_refused("`1e999` in text", "a.txt", writer(text_file(["1", "1e999", "3"])),
                     "found `1e999`, which is out of range")
    r.expect_refused("truncated binary body", "a.bin", writer(binary_file(three[:16], 3)),
                     "expected 24 content bytes for a 3-element Array of Real double-precision (3 elements of 8 bytes), found 16")
    r.expect_refused("file cut short", "a.bin", writer(binary_file(three, 3)[:-1]),
                     "the file does not end with LF")
    r.expect_refused("empty file", "a.txt", writer(b""), "found an empty file")
    r.expect_refused("a directory", "a.bin", lambda p: os.mkdir(p), "is a directory, expected a data file")
    r.expect_refused("a FIFO", "a.txt", lambda p: os.mkfifo(p),
                     "is a FIFO (named pipe), expected a regular data file")
    r.expect_refused("a missing file", "a.bin", lambda p: None,
                     "cannot open for reading: No such file or directory")
    # The same program reads valid files of both encodings.
    vals = [0.5, -2.25, 8.0]
    r.expect_sum("valid text file", writer(text_file([repr(v) for v in vals])), vals, [1.0, 2.0, 3.0], ".txt")
    r.expect_sum("valid binary file", writer(binary_file(doubles(vals), 3)), vals, [1.0, 2.0, 3.0], ".bin")


def random_case(rng):
    """One file from independent choices; returns (bytes, extension, valid, a values)."""
    n = rng.randint(1, 12)
    values = [rng.randint(-1000, 1000) / 8 for _ in range(n)]
    binary = rng.random() < 0.5
    valid = True
    header = "Array"
    if rng.random() < 0.15:
        header, valid = rng.choice(["List", "Array of Lists", "Arry", "", "Array Array"]), False
    count = n
    if rng.random() < 0.15:
        count, valid = rng.choice([n - 1, n + 1, 0, 10**12, 2**63, 10**30]), False
    lengths = str(count)
    if rng.random() < 0.1:
        lengths, valid = rng.choice(["%d*1" % n, "-%d" % n, "%d " % n + "x", "", "1*%d*1" % n]), False
    if binary:
        body = doubles(values)
        if rng.random() < 0.1:
            body, valid = struct.pack("<%df" % n, *values), False
        content = binary_file(body, lengths, header)
    else:
        tokens = [repr(v) for v in values]
        if rng.random() < 0.15:
            i = rng.randrange(n)
            tokens[i], valid = rng.choice(["1e400", '"s"', "1.5.2", "0x10", "--1"]), False
        content = text_file(tokens, lengths, header)
    if rng.random() < 0.1:
        content, valid = content[:rng.randrange(len(content))], False
    return content, ".bin" if binary else ".txt", valid, values


def prop(r, seed, seconds):
    rng = random.Random(seed)
    print("property: seed %d, %d s" % (seed, seconds))
    start, k, valid_runs = time.monotonic(), 0, 0
    while time.monotonic() - start < seconds:
        content, ext, valid, values = random_case(rng)
        what = "random file %d (%s, %s)" % (k, ext, "valid" if valid else "invalid")
        if valid:
            valid_runs += 1
            b = [float(i) for i in range(len(values))]
            r.expect_sum(what, writer(content), values, b, ext)
        else:
            # Which message depends on the first broken choice; any precise one naming the file.
            r.expect_refused(what, "a" + ext, writer(content), "a" + ext + ":")
        k += 1
    print("property: %d files (%d valid)" % (k, valid_runs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("work")
    ap.add_argument("mode", choices=["cases", "property"])
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--seconds", type=float, default=20)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    r = Runner(os.path.abspath(args.program), os.path.abspath(args.work))
    if args.mode == "cases":
        cases(r)
    else:
        prop(r, args.seed, args.seconds)
    if r.failures:
        print("%d of %d runs FAILED" % (r.failures, r.runs))
        sys.exit(1)
    print("all %d runs ok" % r.runs)


if __name__ == "__main__":
    main()
