#!/usr/bin/env python3
"""The synchronisations `itc plan` shows are the ones the compiled program performs.

Reads the plan of a program (itc plan PROGRAM MAP --machine MODEL) and the IT_STATS lines of one
or more runs of it, and checks both ways, per task:
  * every synchronisation IT_STATS reports (other than data reads, hand-overs between tasks and
    results for the coordinator) is one the plan shows;
  * every synchronisation the plan shows appears in IT_STATS, unless it sits in a construct the
    run may skip (the plan line is then listed, not failed, when --lenient is given).

  plan_stats.py --itc ITC --program P.it --map P.map --machine M.pcubes --stats stats.txt
"""
import argparse, re, subprocess, sys

SYNC = re.compile(r"==> (?P<where>.*?): S\d+ (?P<kind>[a-z ]+?): (?P<rest>.*)$")
TOKEN = re.compile(r"(?P<parent>Root|Space \w+) LPU (?P<dir>->|<-) its (?P<child>Space \w+) LPUs")
MOVE = re.compile(r"`(?P<var>\w+)`, (?P<from>Root|Space \w+) -> (?P<to>Root|Space \w+)")


def expected_names(plan_text):
    tasks, task = {}, None
    for line in plan_text.splitlines():
        m = re.match(r'Task "(.*)"', line)
        if m:
            task = m.group(1)
            tasks.setdefault(task, set())
            continue
        m = SYNC.search(line)
        if not m or task is None:
            continue
        kind, rest, where = m.group("kind"), m.group("rest"), m.group("where")
        var = re.match(r"`(\w+)`", rest)
        prefix = f"task {task}: "
        if kind == "token":
            t = TOKEN.search(rest)
            name = ("entry into " if t.group("dir") == "->" else "exit from ") + t.group("child")
        elif kind == "padding exchange":
            name = f"padding exchange of {var.group(1)} at exit of {where.replace('on exit of ', '')}"
        elif kind == "reduction":
            into = re.search(r"combined into each (Root|Space \w+) LPU", rest).group(1)
            name = f"reduction of {var.group(1)} into {into}"
        elif kind == "replica broadcast":
            space = re.search(r"from the writing (Root|Space \w+) LPU", rest).group(1)
            name = f"replica broadcast of {var.group(1)} in {space}"
        else:
            mv = MOVE.search(rest)
            name = f"{kind} of {mv.group('var')} from {mv.group('from')} to {mv.group('to')}"
        tasks[task].add(prefix + name)
    return tasks


# Traffic that is not a synchronisation inside a task's flow.
NOT_FLOW = re.compile(r": (input |input of |hand-over of |results to the coordinator|write-back of )|\(all\)$")


def reported_names(stats_text):
    names = set()
    for line in stats_text.splitlines():
        m = re.match(r"IT_STATS (task .*?)\s{2,}\d", line)
        if m and not NOT_FLOW.search(m.group(1)):
            names.add(m.group(1).strip())
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--itc", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--map", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--stats", required=True)
    ap.add_argument("--lenient", action="store_true", help="plan syncs missing from the run only noted")
    o = ap.parse_args()
    plan = subprocess.run([o.itc, "plan", o.program, o.map, "--machine", o.machine],
                          capture_output=True, text=True, check=True).stdout
    expected = expected_names(plan)
    everything = set().union(*expected.values()) if expected else set()
    reported = reported_names(open(o.stats, errors="replace").read())
    bad = 0
    for name in sorted(reported - everything):
        print(f"plan_stats: the run performed `{name}`, which itc plan does not show")
        bad = 1
    ran_tasks = {n.split(":")[0] for n in reported}
    for name in sorted(everything - reported):
        if name.split(":")[0] not in ran_tasks:
            continue  # a task this run did not execute, or that moved nothing at all
        print(f"plan_stats: itc plan shows `{name}`, which the run did not perform")
        bad = bad or not o.lenient
    print(f"plan_stats: {len(reported)} synchronisations in the run, {len(everything)} in the plan"
          + (" (agree)" if not bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
