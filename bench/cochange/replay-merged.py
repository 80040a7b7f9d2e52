#!/usr/bin/env python3
"""Rebuild a replayable history (see ../shared/tools/replay-history) as a merge-based git repository.

usage: replay-merged.py HISTORY.jsonl.gz DEST [--limit N] [--seed S]

The commits keep their order, times and changed paths, but most of them land on topic branches
merged into main with merge commits, the way projects that merge pull requests grow: runs of 1-6
consecutive commits form a branch forked from main's tip; now and then two runs are worked on at
the same time (their commits alternate) and merged one after the other, and a fifth of the commits
go to main directly. A merge is dated one second after its branch's last commit; its tree is main's
with the branch's changes applied (the branch wins). File contents are synthetic, as in
replay-history. Prints how many commits, merges and branches it made.
"""
import gzip, json, os, random, subprocess, sys


def main():
    args = sys.argv[1:]
    opts = {"--limit": None, "--seed": "1"}
    for k in list(opts):
        if k in args:
            i = args.index(k); opts[k] = args[i + 1]; del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    src, dest = args
    limit = int(opts["--limit"]) if opts["--limit"] else None
    rng = random.Random(int(opts["--seed"]))
    if os.path.exists(dest) and os.listdir(dest):
        sys.exit(f"replay-merged: {dest} exists and is not empty")
    commits = []
    with gzip.open(src, "rt", encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                commits.append(json.loads(line))
                if limit and len(commits) >= limit:
                    break
    subprocess.run(["git", "init", "-q", "-b", "main", dest], check=True)
    fi = subprocess.Popen(["git", "fast-import", "--quiet", "--done"], cwd=dest, stdin=subprocess.PIPE)
    w = fi.stdin.write
    mark = 0
    main_tip = None  # mark of main's tip
    stats = {"commits": 0, "merges": 0, "branches": 0}

    def ops(changes, n):
        out = []
        for status, path in changes:
            p = path.encode("utf-8", "surrogateescape")
            if b"\n" in p or p.startswith(b'"'):
                continue
            if status == "D":
                out.append(b"D " + p + b"\n")
            else:
                body = f"{n} {path}\n".encode("utf-8", "surrogateescape")
                out.append(b"M 100644 inline " + p + b"\n" + b"data %d\n" % len(body) + body)
        return out

    def commit(ref, parents, when, msg, fileops):
        nonlocal mark
        mark += 1
        msg = msg.encode()
        w(f"commit {ref}\nmark :{mark}\n".encode())
        w(f"committer Replay <replay@example.invalid> {when} +0000\n".encode())
        w(b"data %d\n" % len(msg) + msg)
        if parents:
            w(f"from :{parents[0]}\n".encode())
            for p in parents[1:]:
                w(f"merge :{p}\n".encode())
        else:
            w(b"deleteall\n")
        for op in fileops:
            w(op)
        w(b"\n")
        return mark

    i = 0
    while i < len(commits):
        if main_tip is None or rng.random() < 0.2:
            c = commits[i]
            main_tip = commit("refs/heads/main", [main_tip] if main_tip else [], c["time"], f"replayed {c['commit']}\n", ops(c["changes"], i + 1))
            stats["commits"] += 1
            i += 1
            continue
        nb = 2 if rng.random() < 0.3 else 1
        size = sum(rng.randint(1, 6) for _ in range(nb))
        run = list(range(i, min(i + size, len(commits))))
        i = run[-1] + 1
        fork = main_tip
        tips = [fork] * nb
        final = [dict() for _ in range(nb)]  # path -> op bytes, the branch's end state
        last = [0] * nb
        for k in run:
            b = rng.randrange(nb)
            c = commits[k]
            fo = ops(c["changes"], k + 1)
            tips[b] = commit(f"refs/heads/topic{stats['branches'] + b}", [tips[b]], c["time"], f"replayed {c['commit']}\n", fo)
            for (status, path), op in zip([x for x in c["changes"] if "\n" not in x[1] and not x[1].startswith('"')], fo):
                final[b][path] = op
            last[b] = c["time"]
            stats["commits"] += 1
        for b in range(nb):
            if tips[b] == fork:
                continue
            main_tip = commit("refs/heads/main", [main_tip, tips[b]], last[b] + 1, f"Merge topic{stats['branches'] + b}\n", list(final[b].values()))
            stats["merges"] += 1
        stats["branches"] += nb
    w(b"done\n")
    fi.stdin.close()
    if fi.wait() != 0:
        sys.exit("replay-merged: git fast-import failed")
    # Topic branches stay reachable through main only.
    refs = subprocess.run(["git", "for-each-ref", "--format=%(refname)", "refs/heads/topic*"], cwd=dest, check=True, capture_output=True, text=True).stdout.split()
    if refs:
        subprocess.run(["git", "update-ref", "--stdin"], cwd=dest, check=True, input="".join(f"delete {r}\n" for r in refs), text=True)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=dest, check=True)
    print(f"{stats['commits']} commits, {stats['merges']} merges, {stats['branches']} branches replayed into {dest}")


main()
