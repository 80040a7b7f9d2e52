#!/usr/bin/env bash
# Whole-process timings of the learning commands (issue 2):
#  1. `lore learn list` on a workspace with N learnings (default 1000), p50/p95;
#  2. read latency after W consecutive short writer runs (`lore learn add`,
#     default 500) against the same store freshly rebuilt (db/ deleted,
#     one run rebuilds it).
# usage: bench/learn/run.sh [N] [W]      (run from the repository root)
# env:   RUNS (default 40) runs per measurement; LORE=path/to/lore to measure
#        a binary built elsewhere (default: build ./cmd/lore).
# Times come from bash's $EPOCHREALTIME, which forks nothing: `date` would
# add two process starts to every run.
set -euo pipefail
N=${1:-1000}
W=${2:-500}
RUNS=${RUNS:-40}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n ${LORE:-} ]]; then
	lore=$(cd "$(dirname "$LORE")" && pwd)/$(basename "$LORE")
else
	go build -o "$work/lore" "$root/cmd/lore"
	lore="$work/lore"
fi
repo="$work/repo"
mkdir -p "$repo" && cd "$repo" && git init -q && "$lore" init >/dev/null

# min/p50/p95 in milliseconds of RUNS runs of a command.
. "$root/bench/timing.sh"

# N learnings written as files, as a git pull would bring them.
python3 "$root/bench/learnings.py" "$N" symbol
"$lore" learn list >/dev/null # first sync
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(go version | cut -d' ' -f3); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lore learn list, $N learnings ($RUNS runs):        $(measure "$lore" learn list)"
echo "lore learn list --json, $N learnings:            $(measure "$lore" learn list --json)"

rm -rf .lore/db && "$lore" learn list >/dev/null
fresh=$(measure "$lore" learn list)
t0=${EPOCHREALTIME/./}
for ((i = 0; i < W; i++)); do "$lore" learn add --title "short writer $i" >/dev/null; done
t1=${EPOCHREALTIME/./}
after=$(measure "$lore" learn list)
echo "lore learn add, mean of $W consecutive runs:     $(((t1 - t0) / W)) us"
echo "read (learn list) on a fresh store, $N learnings: $fresh"
echo "read (learn list) after $W short writers:        $after   ($((N + W)) learnings)"
echo "db/ after writers: $(du -sh .lore/db | cut -f1), $(ls .lore/db | wc -l) files"

# The same N+W learnings in a freshly rebuilt store, measured alternately
# with the store the writers left behind: the degradation figure of issue 2.
cp -r "$repo" "$work/fresh"
rm -rf "$work/fresh/.lore/db" && (cd "$work/fresh" && "$lore" learn list >/dev/null)
for ((i = 0; i < RUNS; i++)); do
	t0=${EPOCHREALTIME/./}
	"$lore" learn list >/dev/null
	t1=${EPOCHREALTIME/./}
	"$lore" -C "$work/fresh" learn list >/dev/null
	t2=${EPOCHREALTIME/./}
	echo "$((t1 - t0)) $((t2 - t1))"
done | python3 -c '
import sys
a, b = zip(*(map(int, l.split()) for l in sys.stdin))
a, b = sorted(a), sorted(b)
m = len(a) // 2
print("alternating, %s learnings: after writers min %.1f p50 %.1f ms | freshly rebuilt min %.1f p50 %.1f ms | ratio min %.2f p50 %.2f"
      % (sys.argv[1], a[0] / 1000, a[m] / 1000, b[0] / 1000, b[m] / 1000, a[0] / b[0], a[m] / b[m]))' "$((N + W))"
