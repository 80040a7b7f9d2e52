#!/usr/bin/env python3
"""Runs commands in turn, round after round, and compares them: a shared,
noisy machine slows every command of a round alike, so ratios taken round
by round hold where single timings do not.

usage: bench/alternate.py ROUNDS [--before CMD] [--warmup N] [--rotate] COMMAND...

  COMMAND  one command line, split as a shell splits words but run without
           a shell (posix_spawn, so that no fork of this interpreter is
           timed); "@DIR command ..." runs it in DIR, and "NAME=..." names
           it in the report.
  --before CMD   an untimed shell command run before each timed one, in
           its directory (e.g. 'rm -rf .lore/db' for a cold index, or
           'echo "// x" >> fmt/print.go' for a one-file edit).
  --warmup N     untimed rounds first (default 1).
  --rotate       start each round with the next command, so that no command
           always follows the same one.

Each round runs every COMMAND once, in the order given. Prints, per
command, wall time min / p50 / p95, CPU (user + sys) p50 and peak RSS (p50
and the largest of its runs, from wait4; it cannot read below this
interpreter's own, about 14 MB, which the spawned child starts from), and for each pair
of commands the median of their per-round ratio of wall times and of CPU
times (and the spread as p25..p75). A command that exits non-zero is reported, not fatal (lore
verify exits 1 on findings).
"""
import os
import re
import shlex
import statistics
import subprocess
import sys
import time


def parse(argv):
    rounds, before, warmup, rotate, cmds = int(argv[0]), None, 1, False, []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--before":
            before, i = argv[i + 1], i + 2
        elif a == "--warmup":
            warmup, i = int(argv[i + 1]), i + 2
        elif a == "--rotate":
            rotate, i = True, i + 1
        else:
            label, cwd = argv[i], None
            if m := re.match(r"([\w.+-]+)=(.*)", a, re.S):
                label, a = m.group(1), m.group(2)
            if a.startswith("@"):
                cwd, _, a = a[1:].partition(" ")
            cmds.append((label, cwd, shlex.split(a)))
            i += 1
    if not cmds:
        sys.exit(__doc__)
    return rounds, before, warmup, rotate, cmds


def which(prog):
    if os.sep in prog:
        return os.path.abspath(prog)
    for d in os.environ.get("PATH", "").split(os.pathsep):
        p = os.path.join(d, prog)
        if os.access(p, os.X_OK):
            return p
    sys.exit(f"{prog}: not found on PATH")


def run(cwd, args, devnull):
    old = os.getcwd()
    if cwd:
        os.chdir(cwd)
    try:
        start = time.perf_counter()
        pid = os.posix_spawn(which(args[0]), args, os.environ,
                             file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, status, ru = os.wait4(pid, 0)
        wall = time.perf_counter() - start
    finally:
        os.chdir(old)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    rounds, before, warmup, rotate, cmds = parse(sys.argv[1:])
    devnull = os.open(os.devnull, os.O_WRONLY)
    res = {label: [] for label, _, _ in cmds}
    codes = {label: set() for label, _, _ in cmds}
    for r in range(warmup + rounds):
        k = r % len(cmds) if rotate else 0
        for label, cwd, args in cmds[k:] + cmds[:k]:
            if before:
                subprocess.run(before, shell=True, cwd=cwd, check=True)
            wall, cpu, rss, code = run(cwd, args, devnull)
            codes[label].add(code)
            if r >= warmup:
                res[label].append((wall, cpu, rss))
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"]
    print(f"{rounds} rounds on {os.cpu_count()} cores, load {' '.join(load)} at the end")
    for label, _, _ in cmds:
        w = [x[0] for x in res[label]]
        print(f"{label}\n    wall min {min(w):.3f} p50 {statistics.median(w):.3f} p95 {pct(w, .95):.3f} s"
              f" | CPU p50 {statistics.median(x[1] for x in res[label]):.3f} s"
              f" | peak RSS p50 {statistics.median(x[2] for x in res[label]):.0f} max {max(x[2] for x in res[label]):.0f} MB"
              f" | exit {sorted(codes[label])}")
    labels = [label for label, _, _ in cmds]
    for j, label in enumerate(labels):
        for base in labels[:j]:
            for i, what in ((0, "wall"), (1, "CPU")):
                ratios = [a[i] / b[i] for a, b in zip(res[label], res[base])]
                print(f"{what} ratio {label!r} / {base!r}: p50 {statistics.median(ratios):.3f}"
                      f" (p25 {pct(ratios, .25):.3f}, p75 {pct(ratios, .75):.3f})")


if __name__ == "__main__":
    main()
