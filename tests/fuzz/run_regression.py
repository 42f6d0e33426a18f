#!/usr/bin/env python3
"""Replays fuzz inputs outside libFuzzer (ctest, label fuzz; see tests/fuzz/CMakeLists.txt).

usage: run_regression.py --replay BIN --itc ITC --work DIR TARGET FILE
       run_regression.py --replay BIN --work DIR --seeds TARGET

TARGET FILE: a regression input of tests/fuzz/regressions/TARGET/. First the fuzz target's own
  checks (BIN, the target linked with replay_main.cpp) must pass on it; then the itc command a
  user would run on such a file must end cleanly: exit 0, or exit 1 with an error message that
  names the file (file:line:col for programs), never a crash, an internal compiler error or an
  exception's text.
    program  itc check FILE.it
    machine  itc machine --check FILE.pcubes
    mapping  itc check EXAMPLE.it FILE.map --machine pcubes-models/test-cluster-4.pcubes, EXAMPLE
             being the example that has a task the mapping names (vector-add if none)
    data     itc data show FILE.txt|.bin --type T (the selector bytes give encoding and type)
--seeds TARGET: the target's checks on its whole seed corpus (tests/fuzz/gather_seeds.py).
"""
import argparse
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BAD_OUTPUT = ("internal compiler error", "terminate called", "Assertion", "Sanitizer", "std::",
              "Segmentation", "Aborted")
DATA_TYPES = ["int", "float", "double", "char", "bool", "int", "range", "int"]  # by codec index


def run(cmd, timeout=50):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace")


def example_for(mapping_text):
    names = set(re.findall(r'"([^"\n]*)"\s*\{', mapping_text))
    for it in sorted((ROOT / "examples").glob("*/*.it")):
        text = it.read_text(errors="replace")
        if any('Task "%s"' % n in text for n in names):
            return it
    return ROOT / "examples" / "vector-add" / "vector-add.it"


def itc_command(itc, target, data, work):
    """The itc command for the input, the file it reads, and the text naming it in messages."""
    if target == "program":
        f = work / "input.it"
        f.write_bytes(data)
        return [itc, "check", str(f)], "input.it:"
    if target == "machine":
        f = work / "input.pcubes"
        f.write_bytes(data)
        return [itc, "machine", "--check", str(f)], "input.pcubes"
    if target == "mapping":
        f = work / "input.map"
        f.write_bytes(data)
        example = example_for(data.decode("latin-1"))
        return [itc, "check", str(example), str(f), "--machine",
                str(ROOT / "pcubes-models" / "test-cluster-4.pcubes")], "error"
    pick = data[0] if data else 0
    f = work / ("input.bin" if pick & 4 else "input.txt")
    f.write_bytes(data[2:])
    return [itc, "data", "show", str(f), "--type", DATA_TYPES[pick >> 3 & 7]], f.name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--replay", required=True)
    ap.add_argument("--itc")
    ap.add_argument("--work", required=True)
    ap.add_argument("--seeds")
    ap.add_argument("target", nargs="?")
    ap.add_argument("file", nargs="?")
    args = ap.parse_args()

    if args.seeds:
        corpus = pathlib.Path(args.work) / ("seeds-" + args.seeds)
        subprocess.run([sys.executable, str(HERE / "gather_seeds.py"), args.seeds, str(corpus)], check=True)
        files = sorted(str(p) for p in corpus.iterdir())
        rc, out = run([args.replay] + files, timeout=280)
        print(out.strip())
        sys.exit(0 if rc == 0 else 1)

    if not (args.itc and args.target and args.file):
        sys.exit(__doc__)
    rc, out = run([args.replay, args.file])
    if rc != 0:
        print("FAIL: the fuzz target's checks fail on %s (exit %d):\n%s" % (args.file, rc, out))
        sys.exit(1)
    work = pathlib.Path(args.work) / (args.target + "-" + pathlib.Path(args.file).name)
    work.mkdir(parents=True, exist_ok=True)
    data = pathlib.Path(args.file).read_bytes()
    cmd, names = itc_command(args.itc, args.target, data, work)
    rc, out = run(cmd)
    print("$ %s\n%s(exit %d)" % (" ".join(cmd), out, rc))
    bad = [b for b in BAD_OUTPUT if b in out]
    if rc not in (0, 1) or bad or (rc == 1 and names not in out):
        print("FAIL: expected exit 0, or exit 1 with a message naming the input; exit %d%s" %
              (rc, ", output has " + ", ".join(bad) if bad else ""))
        sys.exit(1)
    print("ok: %s" % ("accepted" if rc == 0 else "refused with a diagnostic"))


if __name__ == "__main__":
    main()
