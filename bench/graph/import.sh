#!/usr/bin/env bash
# `lore graph import` of a 1M-edge graph against SQLite loading the same
# edges with the sqlite3 shell's .import (into a table of the edge's
# columns, then an index per direction, as a graph's queries need),
# whole process, alternated round by round (bench/alternate.py): wall and
# CPU time, peak RSS.
#
#   bench/graph/import.sh DIR [EDGES]   (default 1,000,000)
# DIR receives the generated graph (imp.json, imp.csv: bench/graph/importgen.py,
# kept for the next run), a workspace and SQLite's database.
# env: ROUNDS (default 5), LORE=path/to/lore (default: built from here).
# Needs: go, git, python3, sqlite3.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 DIR [EDGES]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mkdir -p "$1" && cd "$1" && pwd)
edges=${2:-1000000}
ROUNDS=${ROUNDS:-5}
if [[ -n ${LORE:-} ]]; then
	lore=$(cd "$(dirname "$LORE")" && pwd)/$(basename "$LORE")
else
	(cd "$root" && go build -o "$dir/lore" ./cmd/lore)
	lore=$dir/lore
fi
if [[ ! -f $dir/imp-$edges.json ]]; then
	"$root/bench/graph/importgen.py" "$dir/imp-$edges.json" "$dir/imp-$edges.csv" "$edges"
fi
if [[ ! -d $dir/ws/.lore ]]; then
	mkdir -p "$dir/ws"
	(cd "$dir/ws" && git init -q && "$lore" init >/dev/null)
fi
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), $(sqlite3 --version | cut -d' ' -f1), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "graph: $(du -m "$dir/imp-$edges.json" | cut -f1) MB of JSON, $edges edges; the same as $(du -m "$dir/imp-$edges.csv" | cut -f1) MB of CSV"
"$root/bench/alternate.py" "$ROUNDS" --rotate --before 'rm -rf .lore/db e.db' \
	"sqlite=@$dir sqlite3 e.db 'CREATE TABLE edges(type TEXT, src TEXT, dst TEXT, relation TEXT, weight REAL)' '.import --csv --skip 1 imp-$edges.csv edges' 'CREATE INDEX edges_out ON edges(src, type)' 'CREATE INDEX edges_in ON edges(dst, type)'" \
	"lore=@$dir/ws $lore graph import ../imp-$edges.json"
