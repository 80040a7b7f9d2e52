#!/usr/bin/env bash
# Cold `lore index` per language against universal-ctags on the same
# corpus, alternated round by round (bench/alternate.py). A corpus is any
# directory; each is copied into a git repository with a lore workspace.
#
#   bench/analyzer/langs.sh [NAME=DIR]...
#
# Without arguments: the code Debian packages install (.ci/run installs
# them): cpp=/usr/src/googletest ruby=<ruby's library> php=/usr/share/php
# bash=/usr/share/bash-completion lua=/usr/share/lua. C#, Kotlin, Swift
# and Scala have no Debian-packaged sources: pass clones, e.g.
# csharp=DIR/Newtonsoft.Json kotlin=DIR/okhttp swift=DIR/Alamofire
# scala=DIR/cats.
# env: ROUNDS (default 8); LORE=path/to/lore (default: built from here);
#      WORK=DIR keeps the copies there between runs.
# Needs: go, git, python3, universal-ctags.
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

corpora=("$@")
if [[ ${#corpora[@]} -eq 0 ]]; then
	corpora=(cpp=/usr/src/googletest "ruby=$(ruby -e 'print RbConfig::CONFIG["rubylibdir"]' 2>/dev/null || echo /usr/lib/ruby)"
		php=/usr/share/php bash=/usr/share/bash-completion lua=/usr/share/lua)
fi

echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, $(go version | cut -d' ' -f3), $(ctags --version | head -1 | cut -d, -f1)"
for c in "${corpora[@]}"; do
	name=${c%%=*}
	src=${c#*=}
	dir=$work/$name
	if [[ ! -d $dir/.lore ]]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		(cd "$src" && tar --exclude=.git -cf - .) | (cd "$dir" && tar -xf -)
		if [[ $name == bash ]]; then
			# completion scripts have no extension: name them as scripts
			find "$dir" -type f ! -name '*.*' -exec mv {} {}.bash \;
		fi
		(cd "$dir" && git init -q && git add -A && git -c user.name=b -c user.email=b@b.invalid commit -qm corpus && "$lore" init >/dev/null)
	fi
	echo
	echo "== $name ($src): $(git -C "$dir" ls-files | wc -l) files, $(du -sm --exclude=.git --exclude=.lore "$dir" | cut -f1) MB"
	cat $(git -C "$dir" ls-files | sed "s|^|$dir/|") >/dev/null 2>&1 || true # warm the page cache
	"$alternate" "$ROUNDS" --rotate --before 'rm -rf .lore/db' "ctags=@$dir ctags -R -f $work/tags ." "lore=@$dir $lore index"
	"$lore" -C "$dir" symbols --json | python3 -c '
import json, sys, collections
n = collections.Counter(json.loads(l)["kind"] for l in sys.stdin if l.strip())
print("lore symbols:", sum(n.values()), dict(n))'
done
