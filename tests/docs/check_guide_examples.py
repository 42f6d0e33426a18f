#!/usr/bin/env python3
"""Check the examples of the IT language guide (docs/language/*.md).

Every fenced code block whose info string is `it` is a complete program: it is written to a
temporary file and must pass `itc check`. Blocks marked `it-fragment` (pieces of a program),
`it-map` (mapping files), `pcubes`, `sh`, `text` and so on are not checked. Every fenced block
must carry an info string, so that an unmarked program cannot slip past the check.

    check_guide_examples.py --itc PATH/TO/itc [--docs docs/language] [--min N]

Exits 1 naming file:line of every rejected block, 0 when all are accepted.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")


def blocks(path):
    """Yields (line of the opening fence, info string, text) for every fenced block of `path`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if close and close.group(2)[0] == fence[0] and len(close.group(2)) >= len(fence) \
                    and not close.group(3).strip():
                break
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            i += 1
        else:
            raise SystemExit(f"{path}:{start}: unterminated code block")
        i += 1
        yield start, info, "\n".join(body) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--itc", required=True, help="the itc executable")
    ap.add_argument("--docs", default=str(pathlib.Path(__file__).resolve().parents[2] / "docs" / "language"),
                    help="folder of the guide (default: docs/language of this repository)")
    ap.add_argument("--min", type=int, default=15,
                    help="fail if fewer complete programs are found (default 15)")
    args = ap.parse_args()

    files = sorted(pathlib.Path(args.docs).glob("*.md"))
    if not files:
        print(f"no .md files in {args.docs}", file=sys.stderr)
        return 1

    failures = []
    checked = 0
    skipped = 0
    with tempfile.TemporaryDirectory(prefix="itc-guide-") as tmp:
        for path in files:
            for line, info, text in blocks(path):
                kind = info.split()[0] if info else ""
                if not kind:
                    failures.append(f"{path}:{line}: code block without an info string "
                                    "(use it, it-fragment, it-map, sh, text, ...)")
                    continue
                if kind != "it":
                    skipped += 1
                    continue
                checked += 1
                source = pathlib.Path(tmp) / f"{path.stem}_{line}.it"
                source.write_text(text, encoding="utf-8")
                run = subprocess.run([args.itc, "check", str(source)], capture_output=True, text=True)
                if run.returncode != 0:
                    out = (run.stdout + run.stderr).replace(str(source), f"{path.name}:{line}+")
                    failures.append(f"{path}:{line}: itc check rejects this example "
                                    f"(exit {run.returncode}):\n{out.rstrip()}")

    for f in failures:
        print(f, file=sys.stderr)
    print(f"{checked} complete programs checked, {skipped} other blocks skipped, "
          f"{len(failures)} failures")
    if checked < args.min:
        print(f"expected at least {args.min} complete programs (```it blocks)", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
