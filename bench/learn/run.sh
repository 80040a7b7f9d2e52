#!/usr/bin/env bash
# Whole-process timings of the learning commands (issue 2):
#  1. `lore learn list` on a workspace with N learnings (default 1000), p50/p95;
#  2. read latency after W consecutive short writer runs (`lore learn add`,
#     default 500) against the same store freshly rebuilt (db/ deleted,
#     one run rebuilds it).
# usage: bench/learn/run.sh [N] [W]      (run from the repository root)
set -euo pipefail
N=${1:-1000}
W=${2:-500}
RUNS=${RUNS:-40}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/lore" "$root/cmd/lore"
lore="$work/lore"
repo="$work/repo"
mkdir -p "$repo" && cd "$repo" && git init -q && "$lore" init >/dev/null

# p50/p95 in milliseconds of RUNS runs of a command.
measure() {
	local t0 t1 i
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
	done | sort -n | awk '{a[NR]=$1} END {printf "p50 %.1f ms  p95 %.1f ms", a[int(NR*0.5)+1]/1000, a[int(NR*0.95)]/1000}'
}

# N learnings written as files, as a git pull would bring them.
python3 - "$N" <<'PY'
import random, sys
random.seed(1)
alpha = "0123456789abcdefghjkmnpqrstvwxyz"
for i in range(int(sys.argv[1])):
    lid = random.choice(alpha[10:]) + "".join(random.choice(alpha) for _ in range(9))
    with open(f".lore/learnings/{lid}.md", "w") as f:
        f.write(f"""---
id: {lid}
title: learning {i} about the retry budget of package {i % 50}
tags: [t{i % 7}, area{i % 13}]
anchors:
  - symbol: src/pkg{i % 50}/file{i % 20}.go::Type{i}::Method
    kind: method
    lines: {i + 1}-{i + 21}
    hash: sha256:{'a' * 64}
    shape: sha256:{'b' * 64}
  - file: README.md
    hash: sha256:{'c' * 64}
created: 2026-11-21T10:00:00Z
updated: 2026-11-21T10:00:00Z
---
Body of learning {i}: what we learned and why it matters.
""")
PY
"$lore" learn list >/dev/null # first sync
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(go version | cut -d' ' -f3)"
echo "lore learn list, $N learnings ($RUNS runs):        $(measure "$lore" learn list)"
echo "lore learn list --json, $N learnings:            $(measure "$lore" learn list --json)"

rm -rf .lore/db && "$lore" learn list >/dev/null
fresh=$(measure "$lore" learn list)
t0=$(date +%s%N)
for ((i = 0; i < W; i++)); do "$lore" learn add --title "short writer $i" >/dev/null; done
t1=$(date +%s%N)
after=$(measure "$lore" learn list)
echo "lore learn add, mean of $W consecutive runs:     $(((t1 - t0) / W / 1000)) us"
echo "read (learn list) on a fresh store:              $fresh"
echo "read (learn list) after $W short writers:        $after"
echo "db/ after writers: $(du -sh .lore/db | cut -f1), $(ls .lore/db | wc -l) files"
