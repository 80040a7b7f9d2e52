#!/usr/bin/env python3
"""Alternates two analyzer builds on the re-index after a one-file edit:
before each run a line is appended to one file of the corpus, then one
build re-indexes (the order of the two flips every round). Each build may
have its own index directory (BIN@DB), so that state one build leaves (a
layout, files it does or does not collect) is measured as that build would
live with it.

usage: bench/analyzer/pair.py RUNS REPO DB BIN_A[@DB_A] BIN_B[@DB_B]
  BIN is an axbench binary (go build -o BIN ./bench/analyzer); DB the
  index both use unless given per build; index each DB cold first.
env:   TOUCH=path/in/repo (default fmt/print.go, for the Go src tree).
Prints wall p50/p95 and CPU (user+sys) per build.
"""
import os
import sys
import time

runs, repo, db = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sides = []
for arg in sys.argv[4:6]:
    b, _, d = arg.partition("@")
    sides.append((os.path.abspath(b), d or db, arg))
touch = os.path.join(repo, os.environ.get("TOUCH", "fmt/print.go"))
devnull = os.open(os.devnull, os.O_WRONLY)
res = {label: ([], []) for _, _, label in sides}
for i in range(runs):
    for b, d, label in (sides if i % 2 == 0 else sides[::-1]):
        with open(touch, "a") as f:
            f.write("// edited\n")
        t0 = time.perf_counter()
        # posix_spawn: fork would copy this interpreter's page tables, 4-8
        # ms of the harness's own time on this machine.
        pid = os.posix_spawn(b, [b, "-q", "-repo", repo, "-db", d], os.environ,
                             file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, status, ru = os.wait4(pid, 0)
        if status != 0:
            sys.exit(f"{label}: exit status {status >> 8}")
        res[label][0].append((time.perf_counter() - t0) * 1000)
        res[label][1].append((ru.ru_utime + ru.ru_stime) * 1000)


def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))]


for _, _, label in sides:
    w, c = res[label]
    print(f"{label}: wall min {min(w):.0f} p50 {q(w, .5):.0f} p95 {q(w, .95):.0f} ms | "
          f"CPU p50 {q(c, .5):.0f} mean {sum(c) / len(c):.0f} ms ({runs} runs)")
