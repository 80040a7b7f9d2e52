#!/usr/bin/env bash
# Context benchmarks (issue 7):
#   1. `lore context FILE --format json`, whole process, p50/p90;
#   2. MCP `lore_context` calls to one `lore mcp` process after start-up;
#   3. `lore learn list` with the 1,000 learnings (a sync that finds nothing changed).
# on a copy of a source tree (default: the Go distribution's src) made a git
# repository with a synthetic co-change history, indexed, analysed, with
# 1,000 learnings anchored to its functions and files.
#
# usage: bench/context/run.sh [SRC] [N]     (N learnings, default 1000; RUNS=30)
# Needs: go, git, python3. Takes a few minutes (1,000 lore learn adds).
set -euo pipefail
src=${1:-$(go env GOROOT)/src}
N=${2:-1000}
RUNS=${RUNS:-30}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-$(mktemp -d)}
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/lore" ./cmd/lore && go build -o "$work/context-bench" ./bench/context)
lore="$work/lore"
repo="$work/repo"

echo "## machine"
echo "date: $(date -u +%FT%TZ)"
echo "cpus: $(nproc), memory: $(free -g | awk '/^Mem:/ {print $2}') GiB, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$(go version), $(git --version)"
echo

if [[ ! -d "$repo/.lore" ]]; then
	mkdir -p "$repo"
	cp -r "$src/." "$repo/"
	cd "$repo"
	export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.invalid
	export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z
	git init -q -b main
	git add -A >/dev/null 2>&1
	git commit -qm "copy of $src" --no-verify
	# Synthetic history: 400 commits, each touching 2-4 Go files of one
	# package (sometimes two), with fixed dates, so that co-change finds
	# coupled files.
	python3 - <<'PY'
import os, random, subprocess
random.seed(7)
pkgs = {}
for d, _, fs in os.walk("."):
    if "/.git" in d or "testdata" in d:
        continue
    gos = sorted(f for f in fs if f.endswith(".go") and not f.endswith("_test.go"))
    if len(gos) >= 3:
        pkgs[d[2:]] = gos
names = sorted(pkgs)
hot = random.sample(names, 60)
for i in range(400):
    d = random.choice(hot)
    files = [f"{d}/{f}" for f in random.sample(pkgs[d][:6], min(len(pkgs[d][:6]), random.randint(2, 4)))]
    if i % 5 == 0:
        e = random.choice(hot)
        files.append(f"{e}/{pkgs[e][0]}")
    for f in files:
        with open(f, "a") as fh:
            fh.write(f"// bench change {i}\n")
    day = f"2026-02-{1 + i // 20:02d}T{i % 20:02d}:00:00Z"
    env = dict(os.environ, GIT_AUTHOR_DATE=day, GIT_COMMITTER_DATE=day)
    subprocess.run(["git", "add", *files], check=True, env=env)
    subprocess.run(["git", "commit", "-qm", f"change {i}", "--no-verify"], check=True, env=env)
PY
	"$lore" init >/dev/null
	t0=$(date +%s%N)
	"$lore" index --json >"$work/index.json"
	echo "lore index: $(( ($(date +%s%N) - t0) / 1000000 )) ms, $(jq -r '"\(.files) files, \(.symbols) symbols"' "$work/index.json")"
	t0=$(date +%s%N)
	"$lore" cochange analyze --json >"$work/cochange.json"
	echo "lore cochange analyze: $(( ($(date +%s%N) - t0) / 1000000 )) ms, $(jq -r '"\(.commits) commits, \(.pairs) pairs"' "$work/cochange.json")"
	t0=$(date +%s%N)
	"$work/context-bench" gen -repo "$repo" -n "$N" 2>"$work/gen.log"
	echo "$N learnings added through the library: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
	"$lore" verify --format json --fail-on never >/dev/null || echo "lore verify failed: learnings stay unverified"
fi
cd "$repo"
echo "graph: $("$lore" graph stats --json | jq -c '.edges_by_type')"
echo

# Targets: files anchored by learnings and coupled by co-change, and one
# file:line; the same for every run.
targets=$("$lore" learn list --json | jq -r '[.[].anchors[] | (.file // .symbol // "" | split("::")[0])] | map(select(. != "")) | unique | .[]' | awk 'NR % 97 == 1' | head -5)
line_target="$(echo "$targets" | head -1):20"
echo "## lore context FILE --format json (whole process, $RUNS runs per target)"
# shellcheck disable=SC2086
"$work/context-bench" cli -lore "$lore" -repo "$repo" -runs "$RUNS" $targets "$line_target"
echo
echo "## MCP lore_context after start-up ($RUNS calls per target)"
# shellcheck disable=SC2086
"$work/context-bench" mcp -lore "$lore" -repo "$repo" -runs "$RUNS" $targets "$line_target"
echo
echo "## lore learn list --json with $N learnings (nothing changed)"
for ((i = 0; i < RUNS; i++)); do
	t0=$(date +%s%N)
	"$lore" learn list --json >/dev/null
	echo $((($(date +%s%N) - t0) / 1000))
done | sort -n | awk '{a[NR]=$1} END {printf "whole process p50 %.1f ms  p90 %.1f ms\n", a[int(NR*0.5)+1]/1000, a[int(NR*0.9)]/1000}'
