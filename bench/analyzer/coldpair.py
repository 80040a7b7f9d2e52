#!/usr/bin/env python3
"""Alternates cold indexes of one tree by ctags and by analyzer builds, in
the same minutes, so that their ratio survives a noisy machine: each round
runs every command once, in the order given, each lore build into a fresh
index directory.

usage: bench/analyzer/coldpair.py ROUNDS DIR CMD...
  CMD is `ctags` (universal-ctags: ctags -R -f $WORK/tags DIR) or an
  axbench binary (go build -o BIN ./bench/analyzer).
env:   WORK (default /tmp/lore-bench) holds the tags file and the indexes.
Prints wall p50/min, CPU (user+sys) p50 and peak RSS per command, and each
command's wall p50 over the first command's.
"""
import os
import shutil
import statistics
import sys
import time

rounds, tree, cmds = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
work = os.environ.get("WORK", "/tmp/lore-bench")
os.makedirs(work, exist_ok=True)
ctags = shutil.which("ctags")
devnull = os.open(os.devnull, os.O_WRONLY)
res = {c: [] for c in cmds}


def run(argv):
    start = time.perf_counter()
    # posix_spawn: a fork of this Python process would add milliseconds.
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"{argv[0]} failed: status {status}")
    return time.perf_counter() - start, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


for _ in range(rounds):
    for c in cmds:
        if c == "ctags":
            argv = [ctags, "-R", "-f", os.path.join(work, "tags"), tree]
        else:
            db = os.path.join(work, "db-coldpair")
            shutil.rmtree(db, ignore_errors=True)
            argv = [os.path.abspath(c), "-q", "-repo", tree, "-db", db]
        res[c].append(run(argv))

for c in cmds:
    wall = sorted(r[0] for r in res[c])
    cpu = statistics.median(r[1] for r in res[c])
    rss = max(r[2] for r in res[c]) / 1024
    print(f"{c}: wall p50 {statistics.median(wall):.3f} min {wall[0]:.3f} s | CPU p50 {cpu:.3f} s | RSS max {rss:.0f} MB ({rounds} runs)")
base = statistics.median(r[0] for r in res[cmds[0]])
for c in cmds[1:]:
    print(f"{c} / {cmds[0]}: {statistics.median(r[0] for r in res[c]) / base:.3f}")
