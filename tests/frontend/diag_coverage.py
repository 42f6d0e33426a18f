#!/usr/bin/env python3
"""Diagnostic-kind coverage: every kind declared in a .def file must be triggered by a test.

Reads the `DIAG(KindName, ...)` lines of one diagnostics .def file and searches the golden
expectations (`*.expected`) under the given folders for the tag `[KindName]`. Fails, naming
them, if some kind never appears. Usable by any area for its own .def file:
    diag_coverage.py --def frontend/diagnostics/syntax.def tests/frontend/testdata
"""
import argparse
import os
import re
import sys


def declared_kinds(def_path):
    kinds = []
    with open(def_path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*DIAG\(\s*([A-Za-z0-9_]+)\s*,", line)
            if m:
                kinds.append(m.group(1))
    return kinds


def triggered_kinds(folders):
    found = set()
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in files:
                if name.endswith(".expected"):
                    with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                        found.update(re.findall(r"\[([A-Za-z0-9_]+)\]", f.read()))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--def", dest="def_path", required=True, help="the .def file of the area")
    parser.add_argument("folders", nargs="+", help="folders holding the golden .expected files")
    args = parser.parse_args()
    kinds = declared_kinds(args.def_path)
    if not kinds:
        print(f"FAIL {args.def_path}: no DIAG(...) lines")
        return 1
    found = triggered_kinds(args.folders)
    missing = [k for k in kinds if k not in found]
    for k in missing:
        print(f"FAIL kind {k} of {os.path.basename(args.def_path)} has no golden test that triggers it")
    print(f"{len(kinds) - len(missing)}/{len(kinds)} kinds of {os.path.basename(args.def_path)} covered")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
