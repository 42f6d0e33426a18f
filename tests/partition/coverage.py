#!/usr/bin/env python3
"""Fails when some diagnostic kind of partition.def is triggered by no golden test.

usage: coverage.py PARTITION_DEF TESTDATA_DIR
A kind counts as covered when `[Kind]` appears in some `*.expected` file of the folder.
"""
import os
import re
import sys


def main():
    kinds = re.findall(r"^DIAG\((\w+),", open(sys.argv[1], encoding="utf-8").read(), re.M)
    seen = set()
    for name in os.listdir(sys.argv[2]):
        if name.endswith(".expected"):
            seen.update(re.findall(r"\[(\w+)\]", open(os.path.join(sys.argv[2], name),
                                                      encoding="utf-8").read()))
    missing = [k for k in kinds if k not in seen]
    for k in missing:
        print(f"partition diagnostic kind `{k}` has no golden test in {sys.argv[2]}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
