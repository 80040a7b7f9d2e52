#!/bin/bash
# Line anchors through a real formatter: five-line ranges (every sixth
# line, blank ranges left out) over files of a repository, committed, then
# clang-format in STYLE, then `lore verify` of the working tree (HEAD is
# the history) by each lore binary given. Prints each binary's summary and
# verdicts by change.
#
#   bench/formatlines/run.sh REPO STYLE "LORE [LORE...]" FILE...
#
# REPO is a clone (bare or not) whose HEAD holds FILE...; the work
# directory is made under ${TMPDIR:-/tmp}.
set -euo pipefail
repo=$1 style=$2 lores=$3
shift 3
first=${lores%% *}
d=$(mktemp -d "${TMPDIR:-/tmp}/formatlines.XXXXXX")
trap 'rm -rf "$d"' EXIT
cd "$d"
git init -q
for f in "$@"; do
	mkdir -p "$(dirname "$f")"
	git -C "$repo" show "HEAD:$f" >"$f"
done
git add .
git -c user.email=b@example.invalid -c user.name=bench commit -qm src
"$first" init >/dev/null
for f in "$@"; do
	args=()
	n=$(wc -l <"$f")
	for ((s = 1; s + 4 <= n; s += 6)); do
		if [ -n "$(sed -n "${s},$((s + 4))p" "$f" | tr -d ' \t\n')" ]; then
			args+=(--anchor "$f#L$s-L$((s + 4))")
		fi
		if [ ${#args[@]} -ge 300 ]; then
			"$first" learn add --title "ranges of $f to $s" --body "line ranges" "${args[@]}" >/dev/null
			args=()
		fi
	done
	if [ ${#args[@]} -gt 0 ]; then
		"$first" learn add --title "ranges of $f" --body "line ranges" "${args[@]}" >/dev/null
	fi
done
git add -A
git -c user.email=b@example.invalid -c user.name=bench commit -qm learnings
clang-format -i --style="$style" "$@"
for lore in $lores; do
	"$lore" verify --format json >"$d/out.json" 2>/dev/null || true
	python3 - "$d/out.json" "$lore" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
c = collections.Counter((r["status"], r["change"]) for r in d["results"])
print(sys.argv[2], d["summary"], dict(sorted(c.items())))
PY
done
