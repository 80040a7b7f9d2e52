#!/usr/bin/env bash
# Scale (issue 34): lore against universal-ctags and git on a large
# repository and on a tree several times its size, whole process,
# alternated round by round (bench/alternate.py):
#   cold     cold `lore index` against `ctags -R`, on REPO and on COPIES
#            copies of its files in one repository (peak RSS per 1,000
#            files, CPU against ctags's at both sizes);
#   checkout `lore index` right after `git checkout` between OLD and NEW
#            (each round goes the other way) against a full `ctags -R`;
#   nothing  `lore index` with nothing changed against `git status`.
#
#   bench/scale/run.sh REPO OLD NEW [COPIES]   (COPIES default 4)
# REPO is a git repository (not modified: the script clones it); OLD and
# NEW are revisions of it whose trees differ by about a thousand files.
# env: ROUNDS (default 5), ROUNDS_BIG (default 3), LORE=path/to/lore
# (default: built from here), WORK=DIR keeps the copies there between runs
# (default: a temporary directory, removed after), ONLY="cold checkout
# nothing" runs a part.
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 REPO OLD NEW [COPIES]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
repo=$(cd "$1" && pwd) copies=${4:-4}
old=$(git -C "$repo" rev-parse "$2^{commit}") new=$(git -C "$repo" rev-parse "$3^{commit}")
ROUNDS=${ROUNDS:-5}
ROUNDS_BIG=${ROUNDS_BIG:-3}
ONLY=${ONLY:-cold checkout nothing}
if [[ -n ${WORK:-} ]]; then
	work=$(mkdir -p "$WORK" && cd "$WORK" && pwd)
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
if [[ -n ${LORE:-} ]]; then
	lore=$(cd "$(dirname "$LORE")" && pwd)/$(basename "$LORE")
else
	(cd "$root" && go build -o "$work/lore" ./cmd/lore)
	lore=$work/lore
fi
alternate=$root/bench/alternate.py
commit() { git -c user.name=b -c user.email=b@b.invalid commit -qm "$1"; }

# the repository at NEW, with a workspace that git leaves out (so that it
# stays through checkouts); ctags reads a copy without one
if [[ ! -d $work/repo ]]; then
	git clone -q "$repo" "$work/repo"
	(cd "$work/repo" && git checkout -q "$new" && rm -rf .lore && echo /.lore/ >>.git/info/exclude && "$lore" init >/dev/null)
fi
if [[ ! -d $work/ctags ]]; then
	git clone -q "$repo" "$work/ctags"
	git -C "$work/ctags" checkout -q "$new"
fi
# COPIES copies of the tree's files under one repository
if [[ ! -d $work/big ]] && [[ $ONLY == *cold* ]]; then
	mkdir -p "$work/big"
	for i in $(seq 1 "$copies"); do
		git -C "$work/ctags" archive --prefix="copy$i/" HEAD | tar -x -C "$work/big"
	done
	(cd "$work/big" && git init -q && git add -A && commit copies && echo /.lore/ >>.git/info/exclude && "$lore" init >/dev/null)
fi
files() { "$lore" -C "$1" index --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"])'; }

echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, $(go version | cut -d' ' -f3), $(ctags --version | head -1 | cut -d, -f1), $(git --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ $ONLY == *cold* ]]; then
	for c in repo big; do
		dir=$work/$c
		rounds=$ROUNDS
		[[ $c == big ]] && rounds=$ROUNDS_BIG
		echo
		echo "== cold index, $c: $(git -C "$dir" ls-files | wc -l) files in git, $(files "$dir") indexed"
		"$alternate" "$rounds" --rotate --before 'rm -rf .lore/db' "ctags=@$dir ctags -R -f $work/tags ." "lore=@$dir $lore index"
	done
fi
if [[ $ONLY == *checkout* ]]; then
	echo
	echo "== index after git checkout $old <-> $new: $(git -C "$work/repo" diff --name-only "$old" "$new" | wc -l) files differ"
	"$lore" -C "$work/repo" index >/dev/null
	# before lore's run only (ctags's directory has no workspace): go to
	# the other revision, so each round's index follows a checkout
	flip="if [ -d .lore ]; then if [ \"\$(git rev-parse HEAD)\" = \"\$(git rev-parse $new)\" ]; then git checkout -q $old; else git checkout -q $new; fi; fi"
	"$alternate" "$ROUNDS" --rotate --before "$flip" "ctags=@$work/ctags ctags -R -f $work/tags ." "lore=@$work/repo $lore index"
	git -C "$work/repo" checkout -q "$new"
fi
if [[ $ONLY == *nothing* ]]; then
	echo
	echo "== index with nothing changed"
	"$lore" -C "$work/repo" index >/dev/null
	"$alternate" $((ROUNDS * 4)) --rotate "git-status=@$work/repo git status --porcelain" "lore=@$work/repo $lore index"
fi
