#!/usr/bin/env python3
"""Sets lore's whole-process times beside the floor under them: what an
empty Go program, a program that only links Badger, and Badger's own open
and close of the same store cost on this machine, all alternated in the
same minutes (the machine's level moves by 2x within an hour here).

usage: bench/graph/floor.py RUNS REPO LORE
  REPO  a workspace's repository, as left by
        `KEEP=1 WORK=DIR bench/graph/cli.sh` (DIR/repo)
  LORE  the lore binary to measure

Each round runs, in an order that alternates between rounds:
  empty              bench/graph/floor/empty: start and exit of Go
  badger link        bench/graph/floor/badger, exits at once
  lore --help        lore's start: cobra, tree-sitter (cgo), Badger, ...
  badger read        Badger opens REPO's store read-only and closes it
  lore neighbors     lore graph neighbors NODE --depth 2 --limit 100 --json
  badger write       Badger opens a copy of the store, sets a key, closes
  lore relate        lore relate A B --type x (writes REPO's learnings)
and prints min, p50 and p90 of each, in milliseconds.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

runs, repo, lore = int(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
nodes = int(os.environ.get("NODES", "100000"))
tmp = tempfile.mkdtemp(prefix="lore-floor-")
try:
    for prog in ("empty", "badger"):
        subprocess.run(["go", "build", "-o", os.path.join(tmp, prog), "./bench/graph/floor/" + prog],
                       cwd=root, check=True)
    copy = os.path.join(tmp, "db")
    shutil.copytree(os.path.join(repo, ".lore", "db"), copy)
    empty, badger = os.path.join(tmp, "empty"), os.path.join(tmp, "badger")
    rng = random.Random(13)
    ids = sorted(f[:-3] for f in os.listdir(os.path.join(repo, ".lore", "learnings")) if f.endswith(".md"))

    def seed():
        while True:
            i = rng.randrange(nodes)
            if i % 10 >= 2:
                return f"file:src/module{i % 97:03d}/pkg{i % 13:02d}/file{i:06d}.go"

    cases = [
        ("empty", lambda: [empty]),
        ("badger link", lambda: [badger, "link"]),
        ("lore --help", lambda: [lore, "--help"]),
        ("badger read", lambda: [badger, "read", os.path.join(repo, ".lore", "db")]),
        ("lore neighbors", lambda: [lore, "graph", "neighbors", seed(), "--depth", "2", "--limit", "100", "--json"]),
        ("badger write", lambda: [badger, "write", copy]),
        ("lore relate", lambda: [lore, "relate", *rng.sample(ids, 2), "--type", "x"]),
    ]
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.chdir(repo)
    times = [[] for _ in cases]
    for r in range(runs):
        order = list(range(len(cases)))
        if r % 2:
            order.reverse()
        for k in order:
            argv = cases[k][1]()
            # posix_spawn, not fork: forking this interpreter copies its
            # page tables, the harness's time rather than the program's.
            t0 = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
            _, status, _ = os.wait4(pid, 0)
            if status != 0:
                sys.exit(f"{' '.join(argv)}: exit status {status >> 8}")
            times[k].append((time.perf_counter() - t0) * 1000)
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"{runs} rounds, {os.cpu_count()} cores, load average {load}")
    for (name, _), v in zip(cases, times):
        v.sort()
        print(f"{name:16s} min {v[0]:6.1f}  p50 {v[len(v) // 2]:6.1f}  p90 {v[int(len(v) * .9)]:6.1f} ms")
finally:
    shutil.rmtree(tmp)
