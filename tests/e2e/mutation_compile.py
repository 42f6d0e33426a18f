#!/usr/bin/env python3
"""Property test: `itc compile` never fails with an internal compiler error.

For every example and test program, seeded mutations of the IT source and of its mapping are
made (numbers changed, operators swapped, partition functions exchanged, lines dropped or
doubled, names replaced by other names of the same program, subscripted arrays wrapped as an
older version, a section or a nested epoch, epochs nested in epochs, mapped levels changed). Each
mutation that `itc check` accepts must then be compiled (exit 0) or refused with a diagnostic
(exit 1) by `itc compile`: exit 3 (internal compiler error), a crash, a hang or ANTLR/C++
exception text fails the test. Compiles stop when the time budget is spent, so the test is
bounded; the seed fixes which mutations are tried.

  mutation_compile.py --itc ITC --root SRC [--seed N] [--budget SECONDS] [--work DIR]
"""
import argparse, os, random, re, subprocess, sys, tempfile, time

MUTATORS = []


def mutator(f):
    MUTATORS.append(f)
    return f


def replace_one(text, pattern, rng, replacement):
    """`text` with one match of `pattern`, chosen by `rng`, replaced by `replacement(match)`."""
    found = list(re.finditer(pattern, text))
    if not found:
        return None
    m = rng.choice(found)
    return text[:m.start()] + replacement(m) + text[m.end():]


@mutator
def change_number(text, lines, rng):
    return replace_one(text, r"(?<![\w.])\d+(?![\w.])", rng,
                       lambda m: str(rng.choice([0, 1, 2, 3, 7, 64, int(m.group()) + 1])))


@mutator
def swap_operator(text, lines, rng):
    return replace_one(text, r"(?<=\s)[-+*/<>](?=\s)", rng, lambda m: rng.choice("+-*/<>"))


@mutator
def swap_partition_function(text, lines, rng):
    return replace_one(text, r"\b(block_size|block_count|stride|block_stride)\(", rng,
                       lambda m: rng.choice(["block_size(", "block_count(", "stride(", "block_stride("]))


@mutator
def drop_line(text, lines, rng):
    if len(lines) < 3:
        return None
    i = rng.randrange(len(lines))
    return "\n".join(lines[:i] + lines[i + 1:])


@mutator
def double_line(text, lines, rng):
    i = rng.randrange(len(lines))
    return "\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:])


@mutator
def replace_name(text, lines, rng):
    names = sorted(set(re.findall(r"\b[a-z_][a-z_0-9]*\b", text)))
    uses = [m for m in re.finditer(r"\b[a-z_][a-z_0-9]*\b", text)]
    if len(names) < 2 or not uses:
        return None
    m = rng.choice(uses)
    return text[:m.start()] + rng.choice(names) + text[m.end():]


@mutator
def wrap_subscripted(text, lines, rng):
    """`x[` becomes a subscript of another array value of x: an older version, a section of
    it (`(x[...])[`, whose elements keep x's indices), or a nested epoch."""
    return replace_one(text, r"\b([a-z_][a-z_0-9]*)\[", rng, lambda m: rng.choice(
        [f"({m.group(1)} at (current - 1))[", f"({m.group(1)}[...])[",
         f"(({m.group(1)} at (current - 1)) at (current))[", f"({m.group(1)} at (current))["]))


@mutator
def nest_epoch(text, lines, rng):
    """`e at (current - k)` becomes `(e at (current - k)) at (current - j)`, the inner one applying."""
    return replace_one(text, r"at \(current( - \d+)?\)", rng,
                       lambda m: m.group() + rng.choice([" at (current - 1)", " at (current)"]))


def mutate_mapping(text, rng):
    levels = [m for m in re.finditer(r"(Space [A-Z]\s*:\s*)(\d+)", text)]
    if not levels:
        return text
    m = rng.choice(levels)
    return text[:m.start(2)] + str(rng.choice([1, 2, 3])) + text[m.end(2):]


def programs(root):
    for d in sorted(os.listdir(os.path.join(root, "examples"))):
        it = os.path.join(root, "examples", d, d + ".it")
        if os.path.exists(it):
            yield it, os.path.join(root, "examples", d, d + ".map")
    pdir = os.path.join(root, "tests", "e2e", "programs")
    for f in sorted(os.listdir(pdir)):
        if f.endswith(".it") and os.path.exists(os.path.join(pdir, f[:-3] + ".map")):
            yield os.path.join(pdir, f), os.path.join(pdir, f[:-3] + ".map")


BAD_TEXT = re.compile(r"antlr4::|terminate called|what\(\):|Assertion .* failed|Segmentation fault|internal compiler error")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--itc", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("MUTATION_SEED", "11")))
    ap.add_argument("--per-program", type=int, default=12)
    ap.add_argument("--budget", type=float, default=60.0, help="seconds of compiling at most")
    ap.add_argument("--work", default=None)
    o = ap.parse_args()
    machine = os.path.join(o.root, "pcubes-models", "test-cluster-4.pcubes")
    work = o.work or tempfile.mkdtemp(prefix="itc-mutation-")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(o.seed)
    candidates = []
    for it, mp in programs(o.root):
        text = open(it, encoding="latin-1").read()
        mapping = open(mp, encoding="latin-1").read()
        lines = text.split("\n")
        for k in range(o.per_program):
            f = rng.choice(MUTATORS)
            mutated = f(text, lines, rng)
            if mutated is None or mutated == text:
                continue
            mmap = mutate_mapping(mapping, rng) if rng.random() < 0.2 else mapping
            candidates.append((os.path.basename(it)[:-3], k, f.__name__, mutated, mmap))
    rng.shuffle(candidates)
    failures, accepted, compiled, refused, checked = [], 0, 0, 0, 0
    start = time.time()
    for name, k, how, text, mapping in candidates:
        base = os.path.join(work, f"{name}-{k}")
        open(base + ".it", "w", encoding="latin-1").write(text)
        open(base + ".map", "w", encoding="latin-1").write(mapping)
        checked += 1
        try:
            c = subprocess.run([o.itc, "check", base + ".it", base + ".map", "--machine", machine],
                               capture_output=True, text=True, errors="replace", timeout=60)
        except subprocess.TimeoutExpired:
            failures.append(f"{base}.it ({how}): itc check hung")
            continue
        if c.returncode not in (0, 1) or BAD_TEXT.search(c.stderr + c.stdout):
            failures.append(f"{base}.it ({how}): itc check exit {c.returncode}: {c.stderr.strip()[:300]}")
            continue
        if c.returncode != 0:
            continue
        accepted += 1
        if time.time() - start > o.budget:
            continue  # the compile budget is spent: keep checking, stop compiling
        try:
            r = subprocess.run([o.itc, "compile", base + ".it", base + ".map", "--machine", machine,
                                "-o", base + ".prog", "--debug"],
                               capture_output=True, text=True, errors="replace", timeout=300)
        except subprocess.TimeoutExpired:
            failures.append(f"{base}.it ({how}): itc compile hung")
            continue
        if r.returncode == 0:
            compiled += 1
        elif r.returncode == 1 and not BAD_TEXT.search(r.stderr):
            refused += 1
        else:
            failures.append(f"{base}.it ({how}): itc compile exit {r.returncode}: {r.stderr.strip()[:400]}")
    print(f"mutation_compile: seed {o.seed}: {checked} mutations checked, {accepted} accepted by itc check; "
          f"of those {compiled} compiled, {refused} refused with a diagnostic "
          f"({time.time() - start:.0f} s; work dir {work})")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
