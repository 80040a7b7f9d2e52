#!/usr/bin/env bash
# The analyzer against universal-ctags and git, whole process, alternated
# round by round (bench/alternate.py), on three corpora:
#   go      the Go toolchain's src tree ($(go env GOROOT)/src)
#   python  the Python standard library of python3 (no site-packages)
#   ts      rxjs 7.8.2 sources + @types/node 22, from npm
# For each: cold `lore index` (no .lore/db) against `ctags -R`; `lore index`
# after a one-line edit of one file, and with nothing changed, against
# `git status` (which also stats every file of the tree).
#
#   bench/analyzer/run.sh [go|python|ts]...     (default: all three)
# env: ROUNDS (default 8); LORE=path/to/lore (default: built from here);
#      WORK=DIR keeps the corpora there between runs (default: a new
#      temporary directory, removed after).
# Needs: go, git, python3, universal-ctags, and npm for ts.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ROUNDS=${ROUNDS:-8}
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

# corpus NAME: a git repository with a lore workspace in $work/NAME.
corpus() {
	local dir=$work/$1
	[[ -d $dir/.lore ]] && return
	rm -rf "$dir"
	case $1 in
	go) cp -r "$(go env GOROOT)/src" "$dir" ;;
	python)
		cp -r "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')" "$dir"
		rm -rf "$dir/site-packages"
		find "$dir" -name __pycache__ -type d -prune -exec rm -rf {} +
		;;
	ts)
		npm install --silent --no-audit --no-fund --prefix "$work/npm" typescript@5.9 rxjs@7.8.2 @types/node@22 >/dev/null
		mkdir -p "$dir"
		cp -r "$work/npm/node_modules/rxjs/src" "$dir/rxjs"
		cp -r "$work/npm/node_modules/@types/node" "$dir/types-node"
		;;
	esac
	(cd "$dir" && git init -q && git add -A && git -c user.name=b -c user.email=b@b.invalid commit -qm corpus && "$lore" init >/dev/null)
}

# the file each corpus's edits append a comment line to
touchfile() {
	case $1 in
	go) echo fmt/print.go ;;
	python) echo json/decoder.py ;;
	ts) echo rxjs/internal/Observable.ts ;;
	esac
}

echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, $(go version | cut -d' ' -f3), $(ctags --version | head -1 | cut -d, -f1), $(git --version)"
for name in "${@:-go python ts}"; do
	for c in $name; do
		corpus "$c"
		dir=$work/$c
		f=$(touchfile "$c")
		comment="//"
		[[ $c == python ]] && comment="#"
		echo
		echo "== $c: $(git -C "$dir" ls-files | wc -l) files, $(du -sm --exclude=.git --exclude=.lore "$dir" | cut -f1) MB"
		cat $(git -C "$dir" ls-files | sed "s|^|$dir/|") >/dev/null 2>&1 || true # warm the page cache
		echo "-- cold index"
		"$alternate" "$ROUNDS" --rotate --before 'rm -rf .lore/db' "ctags=@$dir ctags -R -f $work/tags ." "lore=@$dir $lore index"
		echo "-- index after a one-line edit of $f"
		"$lore" -C "$dir" index >/dev/null
		"$alternate" "$ROUNDS" --rotate --before "echo '$comment lore bench' >> $f" "git-status=@$dir git status --porcelain" "lore=@$dir $lore index"
		echo "-- index with nothing changed"
		sleep 3 # past the index's window for files written in the same moment
		"$lore" -C "$dir" index >/dev/null
		"$alternate" "$ROUNDS" --rotate "git-status=@$dir git status --porcelain" "lore=@$dir $lore index"
		git -C "$dir" checkout -q -- "$f"
	done
done
