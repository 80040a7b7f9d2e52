#!/usr/bin/env bash
# Whole-process timings of the graph commands (issue 4) on a workspace that
# holds the generated power-law graph of `go run ./bench/graph` (imported
# through `lore graph import`) and LEARNINGS learning files:
#   lore relate A B --type x                               (a writer run)
#   lore graph neighbors NODE --depth 2 --limit 100 --json (a reader run)
#   lore learn list                                        (a reader run)
# Each is reported as wall-clock and CPU time (user+sys of the process),
# min/p50/p95 over RUNS runs with different arguments.
#
# usage: bench/graph/cli.sh [NODES]     (run from the repository root;
#                                        default 100000 nodes, ~10 edges each)
# env:   RUNS (default 30); LEARNINGS (default 1000);
#        LORE=path/to/lore to measure a binary built elsewhere (default: build
#        ./cmd/lore); BASE=path/to/other/lore to alternate each run with a
#        second binary on the same workspace, for before/after comparisons;
#        WORK=DIR KEEP=1 keeps the workspace in DIR (for profiling).
set -euo pipefail
NODES=${1:-100000}
RUNS=${RUNS:-30}
LEARNINGS=${LEARNINGS:-1000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-$(mktemp -d)}
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
if [[ -n ${LORE:-} ]]; then
	lore=$(abs "$LORE")
else
	(cd "$root" && go build -o "$work/lore" ./cmd/lore)
	lore="$work/lore"
fi
base=""
if [[ -n ${BASE:-} ]]; then base=$(abs "$BASE"); fi

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(go version | cut -d' ' -f3); load average $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$root" && go run ./bench/graph -nodes "$NODES" -json "$work/graph.json")
repo="$work/repo"
mkdir -p "$repo" && cd "$repo" && git init -q && "$lore" init >/dev/null
python3 "$root/bench/learnings.py" "$LEARNINGS" graph
"$lore" learn list >/dev/null # first sync
t0=${EPOCHREALTIME/./}
"$lore" graph import "$work/graph.json" >/dev/null
t1=${EPOCHREALTIME/./}
echo "lore graph import of the generated graph: $(((t1 - t0) / 1000)) ms; db/ $(du -sh .lore/db | cut -f1), $(ls .lore/db | wc -l) files"
"$lore" graph stats | head -1
"$lore" graph stats | grep -E '^edges'

# The measurements: each run gets its own arguments (seeded), alternating
# with BASE when given.
python3 - "$RUNS" "$NODES" "$lore" "$base" <<'PY'
import os, random, sys, time
runs, nodes, lore, base = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
bins = [lore] + ([base] if base else [])
rng = random.Random(7)
ids = sorted(f[:-3] for f in os.listdir(".lore/learnings") if f.endswith(".md"))
def seed():
    while True:
        i = rng.randrange(nodes)
        if i % 10 >= 2:
            return f"file:src/module{i % 97:03d}/pkg{i % 13:02d}/file{i:06d}.go"
def relate():
    a, b = rng.sample(ids, 2)
    return ["relate", a, b, "--type", "x"]
def neighbors():
    return ["graph", "neighbors", seed(), "--depth", "2", "--limit", "100", "--json"]
def learnlist():
    return ["learn", "list"]
devnull = os.open(os.devnull, os.O_WRONLY)
def run(argv):
    # posix_spawn starts the child without copying this interpreter's
    # page tables, which fork does: the time measured is the command's.
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"{' '.join(argv)}: exit status {status >> 8}")
    return (time.perf_counter() - t0) * 1000, (ru.ru_utime + ru.ru_stime) * 1000
def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))]
for name, make, target in [("lore relate A B --type x", relate, "p50 <= 50 ms"),
                           ("lore graph neighbors NODE --depth 2 --limit 100 --json", neighbors, "p50 <= 30 ms"),
                           ("lore learn list", learnlist, "p50 <= 30 ms")]:
    res = {b: ([], []) for b in bins}
    for _ in range(runs):
        args = make()
        for b in bins:
            w, c = run([b] + args)
            res[b][0].append(w)
            res[b][1].append(c)
    for b in bins:
        w, c = res[b]
        label = name + ("" if len(bins) == 1 else f" [{os.path.basename(b)}]")
        print(f"{label}: wall min {min(w):.1f} p50 {q(w, .5):.1f} p95 {q(w, .95):.1f} ms | "
              f"CPU min {min(c):.1f} p50 {q(c, .5):.1f} ms  (target {target}; load average {' '.join(open('/proc/loadavg').read().split()[:3])})")
PY
echo "db/ after: $(du -sh .lore/db | cut -f1), $(ls .lore/db | wc -l) files"
