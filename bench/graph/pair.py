#!/usr/bin/env python3
"""Alternates one lore command between two workspaces, each with its own
binary, with the same arguments on both sides: for comparing store layouts
(two workspaces built by `KEEP=1 WORK=DIR LORE=BIN bench/graph/cli.sh`
with different builds) on the same machine in the same minutes.

usage: bench/graph/pair.py neighbors|relate RUNS DIR_A BIN_A DIR_B BIN_B
  DIR is a workspace's repository (WORK/repo); NODES as in cli.sh (100000).
Prints min/p50/p95/max wall time per side.
"""
import os
import random
import sys
import time

what, runs = sys.argv[1], int(sys.argv[2])
sides = [(sys.argv[3], os.path.abspath(sys.argv[4])), (sys.argv[5], os.path.abspath(sys.argv[6]))]
nodes = int(os.environ.get("NODES", "100000"))
rng = random.Random(11)
ids = sorted(f[:-3] for f in os.listdir(os.path.join(sides[0][0], ".lore/learnings")) if f.endswith(".md"))


def args():
    if what == "relate":
        a, b = rng.sample(ids, 2)
        return ["relate", a, b, "--type", "x"]
    while True:
        i = rng.randrange(nodes)
        if i % 10 >= 2:
            seed = f"file:src/module{i % 97:03d}/pkg{i % 13:02d}/file{i:06d}.go"
            return ["graph", "neighbors", seed, "--depth", "2", "--limit", "100", "--json"]


devnull = os.open(os.devnull, os.O_WRONLY)
times = [[] for _ in sides]
for _ in range(runs):
    a = args()
    for k, (d, b) in enumerate(sides):
        os.chdir(d)
        # posix_spawn, not fork: forking this interpreter costs 4-8 ms a
        # run on this machine, which is the harness's time, not lore's.
        t0 = time.perf_counter()
        pid = os.posix_spawn(b, [b] + a, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status = os.waitpid(pid, 0)
        if status != 0:
            sys.exit(f"{d}: {' '.join(a)}: exit status {status >> 8}")
        times[k].append((time.perf_counter() - t0) * 1000)
for (d, b), v in zip(sides, times):
    v.sort()
    n = len(v)
    print(f"{d} ({os.path.basename(b)}): {what} min {v[0]:.1f} p50 {v[n // 2]:.1f} p95 {v[int(n * 0.95)]:.1f} max {v[-1]:.1f} ms ({n} runs)")
