#!/usr/bin/env python3
"""The backend's limits, its tests and its documentation agree.

backend/limits.def lists every reason the capability check (backend/capability.cpp) refuses a
construct for. For each reason this checks that a golden program is refused with that reason
(tests/golden/backend/fail_<key>.it, `-` as `_`), and that docs/backend.md "Limits" and the user
reference's "Not yet compiled" name it; and that neither document names a reason that does not
exist, and that no other backend file decides refusals ("unsupported" appears only in the
capability check's files).
"""
import pathlib
import re
import sys


def section(text, title):
    start = text.index("\n## " + title)
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def main(root):
    root = pathlib.Path(root)
    definitions = [l for l in (root / "backend/limits.def").read_text().splitlines() if not l.startswith("//")]
    keys = re.findall(r'ITC_BACKEND_LIMIT\(\w+,\s*"([a-z-]+)"', "\n".join(definitions))
    problems = []
    # Every ITC_BACKEND_LIMIT line is counted: as many keys as lines, or the pattern missed some.
    if len(keys) != "\n".join(definitions).count("ITC_BACKEND_LIMIT("):
        problems.append(f"backend/limits.def: read {len(keys)} keys of its ITC_BACKEND_LIMIT lines")
    golden = root / "tests/golden/backend"
    docs = {
        "docs/backend.md (Limits)": section((root / "docs/backend.md").read_text(), "Limits"),
        "docs/language/reference.md (Not yet compiled)":
            section((root / "docs/language/reference.md").read_text(), "Not yet compiled"),
    }
    for key in keys:
        program = golden / ("fail_" + key.replace("-", "_") + ".it")
        expected = program.with_name(program.name + ".expected")
        if not program.exists() or not expected.exists():
            problems.append(f"{key}: no golden test {program.relative_to(root)} with its .expected")
        elif f"({key});" not in expected.read_text() or "[BackendUnsupported]" not in expected.read_text():
            problems.append(f"{key}: {expected.relative_to(root)} is not a refusal for this limit")
        for name, text in docs.items():
            if f"`{key}`" not in text:
                problems.append(f"{key}: not named in {name}")
    for name, text in docs.items():
        for listed in re.findall(r"^\|\s*`([a-z-]+)`", text, re.M):
            if listed not in keys:
                problems.append(f"{name} names `{listed}`, which backend/limits.def does not list")
    for f in sorted((root / "backend").glob("*.[ch]*")):
        if f.name.startswith("capability.") or f.name == "limits.def":
            continue
        if re.search("unsupported", f.read_text(), re.I):
            problems.append(f"{f.relative_to(root)} mentions `unsupported`: refusals belong to backend/capability.cpp")
    for p in problems:
        print("FAIL", p)
    print(f"{len(keys)} limits, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]))
