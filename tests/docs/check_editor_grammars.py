#!/usr/bin/env python3
"""The editor grammars in tools/editors parse and highlight our files.

* every TextMate grammar (VS Code) is valid JSON with a scopeName and patterns whose regular
  expressions compile, and the package.json points at grammars that exist;
* the IT grammar marks the section keywords of every example program;
* Vim loads each syntax file for its file type (ftdetect) without an error, on real files.

  check_editor_grammars.py ROOT
"""
import json, os, re, subprocess, sys

root = sys.argv[1]
ed = os.path.join(root, "tools", "editors")
bad = []


def regexes(patterns):
    for p in patterns:
        for k in ("match", "begin", "end"):
            if k in p:
                yield p[k]
        yield from regexes(p.get("patterns", []))


grammars = {}
for f in sorted(os.listdir(os.path.join(ed, "vscode", "syntaxes"))):
    path = os.path.join(ed, "vscode", "syntaxes", f)
    try:
        g = json.load(open(path))
    except ValueError as e:
        bad.append(f"{path}: not JSON: {e}")
        continue
    if not g.get("scopeName") or not g.get("patterns"):
        bad.append(f"{path}: no scopeName or patterns")
    for rx in regexes(g.get("patterns", [])):
        try:
            re.compile(rx)
        except re.error as e:
            bad.append(f"{path}: pattern {rx!r}: {e}")
    grammars[g.get("scopeName")] = g
pkg = json.load(open(os.path.join(ed, "vscode", "package.json")))
for gr in pkg["contributes"]["grammars"]:
    if not os.path.exists(os.path.join(ed, "vscode", gr["path"])) or gr["scopeName"] not in grammars:
        bad.append(f"package.json: grammar {gr['path']} ({gr['scopeName']}) missing")

# The section keywords of every example are recognised by the IT grammar.
it = grammars.get("source.it", {"patterns": []})
sections = next((p["match"] for p in it["patterns"] if p.get("name") == "keyword.other.section.it"), None)
examples = os.path.join(root, "examples")
for d in sorted(os.listdir(examples)):
    prog = os.path.join(examples, d, d + ".it")
    if not os.path.exists(prog):
        continue
    text = open(prog, encoding="latin-1").read()
    found = set(re.findall(sections, text)) if sections else set()
    for must in ("Program", "Task", "Stages", "Computation", "Partition"):
        if must not in found:
            bad.append(f"{prog}: the IT grammar does not mark `{must}`")

# Vim: file type detection and syntax files load cleanly.
vim = "/usr/bin/vim" if os.path.exists("/usr/bin/vim") else None
if vim:
    cases = [(os.path.join(examples, "stencil", "stencil.it"), "it"),
             (os.path.join(examples, "stencil", "stencil.map"), "itmap"),
             (os.path.join(root, "pcubes-models", "test-cluster-4.pcubes"), "pcubes")]
    for f, ft in cases:
        cmd = [vim, "-Nu", "NONE", "-i", "NONE", "-es", "-c", f"set rtp^={os.path.join(ed, 'vim')}",
               "-c", "filetype on", "-c", "syntax on", "-c", f"edit {f}",
               "-c", f"if &filetype !=# '{ft}' || !exists('b:current_syntax') | cquit | endif", "-c", "qall!"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if r.returncode != 0 or "E" in r.stderr[:2]:
            bad.append(f"vim: {f} is not highlighted as `{ft}` ({r.returncode}: {r.stderr.strip()[:200]})")
else:
    print("check_editor_grammars: vim not installed; the Vim files were not loaded")

for b in bad:
    print("FAIL:", b)
print(f"check_editor_grammars: {len(grammars)} TextMate grammars, Vim syntax files; "
      + ("all ok" if not bad else f"{len(bad)} problems"))
sys.exit(1 if bad else 0)
