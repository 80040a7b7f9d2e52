#!/usr/bin/env python3
"""Alternates one-file re-indexes by analyzer builds, in the same minutes,
so that the steady state of a pre-commit hook can be compared across
builds on a noisy machine. Each build gets a store of its own: a cold
index and two settling edits first (the first two writes after a cold
index pay for it once), then each round appends a comment line to FILE
and runs every build once, in alternating order. The file is restored at
the end.

usage: bench/analyzer/editpair.py ROUNDS DIR FILE BIN [BIN...]
  DIR is the tree (a copy you may edit), FILE a path in it (e.g.
  fmt/print.go of the Go tree), BIN an axbench binary (go build -o BIN
  ./bench/analyzer). A BIN may carry environment settings after it,
  quoted as one argument: "BIN GOGC=400".
env:   WORK (default /tmp/lore-bench) holds the stores.
Prints wall p50/p25/p75/max and CPU p50 of the edit runs per build, and
the p50 of five runs with nothing changed after them (once the last edit
has aged past the index's racy-mtime window and been settled).
"""
import os
import shutil
import statistics
import sys
import time

rounds, tree, rel, builds = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
work = os.environ.get("WORK", "/tmp/lore-bench")
os.makedirs(work, exist_ok=True)
path = os.path.join(tree, rel)
comment = b"# " if rel.endswith(".py") else b"// "
devnull = os.open(os.devnull, os.O_WRONLY)


def spec(i, b):
    parts = b.split()
    env = dict(os.environ)
    for kv in parts[1:]:
        k, v = kv.split("=", 1)
        env[k] = v
    db = os.path.join(work, f"db-editpair{i}")
    return [os.path.abspath(parts[0]), "-q", "-repo", tree, "-db", db], env, db


def run(argv, env):
    start = time.perf_counter()
    # posix_spawn: a fork of this Python process would add milliseconds.
    pid = os.posix_spawn(argv[0], argv, env,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"{argv[0]} failed: status {status}")
    return time.perf_counter() - start, ru.ru_utime + ru.ru_stime


specs = [spec(i, b) for i, b in enumerate(builds)]
with open(path, "rb") as f:
    original = f.read()
edits = 0


def edit():
    global edits
    edits += 1
    with open(path, "ab") as f:
        f.write(comment + b"editpair %d\n" % edits)


edit_runs = [[] for _ in builds]
still_runs = [[] for _ in builds]
try:
    for argv, env, db in specs:
        shutil.rmtree(db, ignore_errors=True)
        run(argv, env)
    for _ in range(2):
        edit()
        for argv, env, _ in specs:
            run(argv, env)
    for r in range(rounds):
        edit()
        order = range(len(specs)) if r % 2 == 0 else reversed(range(len(specs)))
        for i in order:
            edit_runs[i].append(run(*specs[i][:2]))
    # Past the index's racy-mtime window, one run settles the last edit:
    # the runs after it find nothing to do.
    time.sleep(2.5)
    for argv, env, _ in specs:
        run(argv, env)
    for i in range(len(specs)):
        for _ in range(5):
            still_runs[i].append(run(*specs[i][:2]))
finally:
    with open(path, "wb") as f:
        f.write(original)

for i, b in enumerate(builds):
    w = sorted(x[0] * 1000 for x in edit_runs[i])
    cpu = statistics.median(x[1] for x in edit_runs[i]) * 1000
    still = statistics.median(x[0] for x in still_runs[i]) * 1000
    print(f"{b}: edit p50 {statistics.median(w):.1f} ms p25 {w[len(w) // 4]:.1f} p75 {w[3 * len(w) // 4]:.1f} "
          f"max {w[-1]:.0f} | CPU p50 {cpu:.1f} ms | nothing changed p50 {still:.1f} ms ({rounds} rounds)")
