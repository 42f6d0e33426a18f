#!/usr/bin/env python3
"""docs/README.md (the map of the project) stays true: every repository path it names in
backquotes or links (folders, files, `file.{h,cpp}` pairs) exists, its picture parses as SVG,
and it has a recipe for each family the project promises one for."""
import os
import re
import sys
import xml.etree.ElementTree as ET

root = sys.argv[1]
text = open(os.path.join(root, "docs/README.md"), encoding="utf-8").read()
bad = []
prefixes = ("grammar/", "frontend/", "semantic/", "pcubes/", "backend/", "runtime/", "tools/",
            "tests/", "examples/", "benchmarks/", "pcubes-models/")
candidates = set(re.findall(r"`([^`\s]+)`", text)) | set(re.findall(r"\]\(([^)\s]+)\)", text))
checked = 0
for c in sorted(candidates):
    path = c.split("#")[0]
    if any(ch in path for ch in "*<>"):
        continue  # a pattern, not a path
    if path.startswith(prefixes):
        base = root
    elif path.endswith((".md", ".svg")) and "/" not in path.split("images/")[-1]:
        base = os.path.join(root, "docs")
    else:
        continue
    m = re.match(r"^(.*)\.\{([^}]*)\}$", path)  # element_codec.{h,cpp}
    paths = [f"{m.group(1)}.{e}" for e in m.group(2).split(",")] if m else [path]
    for p in paths:
        checked += 1
        if not os.path.exists(os.path.join(base, p)):
            bad.append(p)
try:
    ET.parse(os.path.join(root, "docs/images/pipeline.svg"))
except ET.ParseError as e:
    bad.append(f"docs/images/pipeline.svg does not parse: {e}")
for recipe in ("partition function", "diagnostic", "synchronisation kind", "reduction operator",
               "data-file element type", "PCubeS property"):
    if f"### Add a {recipe}" not in text:
        bad.append(f"no recipe 'Add a {recipe}'")
if bad:
    print("docs/README.md names what does not exist:\n  " + "\n  ".join(bad))
    sys.exit(1)
print(f"docs/README.md: {checked} paths exist, picture parses, six recipes")
