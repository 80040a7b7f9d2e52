#!/usr/bin/env bash
# Whole-process verification timings (issue 5) on the Go toolchain's src
# tree: 10,000 symbol anchors over 5,000 files.
#   - full `lore verify` with the index up to date;
#   - `lore verify --staged` with 5 staged files (the pre-commit hook), p50;
#   - cold `lore verify` (no .lore/db) next to cold `lore index`.
# usage: bench/verify/run.sh [SRC_TREE]   (default: $(go env GOROOT)/src)
# env:   RUNS (default 15); WORK=DIR KEEP=1 keeps the workspace in DIR and
#        reuses it on the next run (setup takes minutes).
set -euo pipefail
src=${1:-$(go env GOROOT)/src}
RUNS=${RUNS:-15}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-$(mktemp -d)}
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
go build -o "$work/lore" "$root/cmd/lore"
lore="$work/lore"
repo="$work/repo"
if [[ -f "$work/cold_index" ]]; then
cd "$repo"
git reset -q --hard
"$lore" index >/dev/null
cold_index=$(cat "$work/cold_index")
else
rm -rf "$repo"
cp -r "$src" "$repo"
cd "$repo"
git init -q && git add -A && git -c user.name=b -c user.email=b@b.invalid commit -qm base
"$lore" init >/dev/null
t0=$(date +%s%N); "$lore" index >/dev/null; t1=$(date +%s%N)
cold_index=$(((t1 - t0) / 1000000))

# 10,000 learnings anchored to symbols of 5,000 files, baselines from the index.
cat > "$work/gen.py" <<'PY'
import json, random, sys
random.seed(7)
by_file = {}
for line in sys.stdin:
    s = json.loads(line)
    if s["kind"] in ("function", "method") and "_test.go" not in s["path"] and "testdata/" not in s["path"]:
        by_file.setdefault(s["path"], []).append(s)
files = sorted(by_file)
random.shuffle(files)
files = files[:5000]
alpha = "0123456789abcdefghjkmnpqrstvwxyz"
n = 0
while n < 10000:
    f = files[n % len(files)]
    s = by_file[f][(n // len(files)) % len(by_file[f])]
    lid = random.choice(alpha[10:]) + "".join(random.choice(alpha) for _ in range(9))
    with open(".lore/learnings/%s.md" % lid, "w") as out:
        out.write("---\nid: %s\ntitle: learning %d about %s\nanchors:\n  - symbol: %s\n    kind: %s\n"
                  "    lines: %d-%d\n    hash: %s\n    shape: %s\n    sig: %s\n"
                  "created: 2026-11-21T10:00:00Z\nupdated: 2026-11-21T10:00:00Z\n---\nBody %d.\n"
                  % (lid, n, s["name"], s["fqname"], s["kind"], s["start_line"], s["end_line"], s["hash"], s["shape"], s["sig"], n))
    n += 1
print("%d learnings over %d files" % (n, len(files)), file=sys.stderr)
PY
"$lore" symbols --json | python3 "$work/gen.py"
git add .lore && git -c user.name=b -c user.email=b@b.invalid commit -qm learnings
"$lore" verify >/dev/null # first sync of 10,000 learning files
echo "$cold_index" > "$work/cold_index"
fi

. "$root/bench/timing.sh"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(go version | cut -d' ' -f3)"
echo "cold lore index ($(git ls-files | wc -l) files):       ${cold_index} ms"
echo "full lore verify, index up to date:     $(measure "$lore" verify)"
summary=$("$lore" verify | tail -n 1)
echo "  result: $summary"
# Five staged files: a comment added to each of five anchored files.
for f in $(git ls-files '*.go' | grep -v _test.go | sed -n '396,400p'); do echo "// staged change" >> "$f"; git add "$f"; done
echo "lore verify --staged (5 staged files):  $(measure "$lore" verify --staged)"
git reset -q --hard
# Cold runs, alternated: lore index and lore verify on the same fresh clone
# (no .lore/db; both sync the 10,000 learning files first).
for round in 1 2; do
	rm -rf .lore/db
	t0=$(date +%s%N); "$lore" index >/dev/null; t1=$(date +%s%N)
	rm -rf .lore/db
	"$lore" verify >/dev/null || true; t2=$(date +%s%N)
	ci=$(((t1 - t0) / 1000000)); cv=$(((t2 - t1) / 1000000))
	echo "cold lore verify (no .lore/db), round $round: ${cv} ms; cold lore index of the same clone ${ci} ms (+$((cv - ci)) ms); load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "(cold index of the code alone, before the learnings existed: ${cold_index} ms)"
