#!/usr/bin/env python3
"""Count co-change pairs from `git log --no-merges --no-renames --name-only --format=%x01%H`
on stdin, independently of lore's Go code, with code-maat's filters.

usage: count_gitlog.py [MAX_CHANGESET MIN_REVS MIN_SHARED MIN_COUPLING]

Prints one pair a line, in the format of `cochange-bench -pairs text`:
    A B shared=N revs=RA/RB score=S.SSS
"""
import collections
import sys


def main():
    args = sys.argv[1:]
    max_cs, min_revs, min_shared, min_coupling = 30, 5, 5, 0.30
    if args:
        max_cs, min_revs, min_shared = int(args[0]), int(args[1]), int(args[2])
        min_coupling = float(args[3])
    data = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
    revs = collections.Counter()
    shared = collections.Counter()
    commits = 0
    for block in data.split("\x01")[1:]:
        commits += 1
        files = sorted({l for l in block.split("\n")[1:] if l})
        if len(files) > max_cs:
            continue
        for f in files:
            revs[f] += 1
        for i, a in enumerate(files):
            for b in files[i + 1:]:
                shared[(a, b)] += 1
    out = sys.stdout.buffer
    for (a, b), n in shared.items():
        ra, rb = revs[a], revs[b]
        score = n / ((ra + rb) / 2)
        if n >= min_shared and ra >= min_revs and rb >= min_revs and score >= min_coupling:
            line = f"{a} {b} shared={n} revs={ra}/{rb} score={score:.3f}\n"
            out.write(line.encode("utf-8", "surrogateescape"))
    print(f"{commits} commits", file=sys.stderr)


main()
