#!/usr/bin/env python3
"""Golden-file test runner shared by every phase's tests.

A test file carries its command in a header comment line:
    // RUN: itc check %s
(`%s` is the test file's name; the command runs in the file's own folder, so paths in the
output are stable). Several RUN lines run in order and their outputs are concatenated.
The expected result lives beside it in `<file>.expected`:
    exit: 1
    --- stdout
    ...
    --- stderr
    ...
Usage:
    golden.py --itc PATH FILE...            compare; exit 1 on any difference
    golden.py --itc PATH --update FILE...   (re)write the .expected files
Expected files are regenerated with --update and then reviewed, never edited by hand to pass.
"""
import argparse
import difflib
import os
import shlex
import subprocess
import sys

RUN_PREFIXES = ("// RUN:", "# RUN:")


def run_lines(path):
    lines = []
    with open(path, encoding="utf-8-sig", errors="replace") as f:  # a test may start with a BOM
        for line in f:
            stripped = line.strip()
            for prefix in RUN_PREFIXES:
                if stripped.startswith(prefix):
                    lines.append(stripped[len(prefix):].strip())
    return lines


def run_test(itc, path, timeout):
    folder = os.path.dirname(os.path.abspath(path)) or "."
    name = os.path.basename(path)
    commands = run_lines(path)
    if not commands:
        return None, f"{path}: no `// RUN:` line"
    out, err, code = [], [], 0
    for command in commands:
        argv = [a.replace("%s", name) for a in shlex.split(command)]
        if argv[0] == "itc":
            argv[0] = itc
        try:
            proc = subprocess.run(argv, cwd=folder, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, f"{path}: `{command}` did not finish within {timeout}s (hang?)"
        out.append(proc.stdout.decode("utf-8", "replace"))
        err.append(proc.stderr.decode("utf-8", "replace"))
        code = proc.returncode
        if code < 0 or code > 3:
            err.append(f"[crashed: exit status {code}]\n")
    return f"exit: {code}\n--- stdout\n{''.join(out)}--- stderr\n{''.join(err)}", None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--itc", required=True, help="path of the itc executable")
    parser.add_argument("--update", action="store_true", help="rewrite the .expected files")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    itc = os.path.abspath(args.itc)
    failures = 0
    for path in args.files:
        actual, problem = run_test(itc, path, args.timeout)
        if problem:
            print(f"FAIL {problem}")
            failures += 1
            continue
        expected_path = path + ".expected"
        if args.update:
            with open(expected_path, "w", encoding="utf-8") as f:
                f.write(actual)
            print(f"updated {expected_path}")
            continue
        try:
            with open(expected_path, encoding="utf-8") as f:
                expected = f.read()
        except FileNotFoundError:
            print(f"FAIL {path}: missing {expected_path} (run with --update, then review it)")
            failures += 1
            continue
        if actual != expected:
            failures += 1
            print(f"FAIL {path}")
            sys.stdout.writelines(difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True),
                fromfile=expected_path, tofile="actual"))
        else:
            print(f"ok   {path}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
