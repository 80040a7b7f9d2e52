#!/usr/bin/env bash
# Benchmarks the analyzer end to end (real on-disk Badger, via main.go)
# against universal-ctags in the same run, on three corpora: the Go
# toolchain's src tree, the Python standard library and a TypeScript
# corpus from npm (rxjs sources + @types/node).
#
#   bench/analyzer/run.sh            # all corpora
#   bench/analyzer/run.sh go         # one corpus: go | python | ts
#   REPEAT=3 bench/analyzer/run.sh   # each corpus three times
#
# For each corpus: wall time and peak RSS (/usr/bin/time -v) of
#   ctags -R (cold), lore cold index, lore re-index with nothing changed,
#   lore re-index after appending a line to one file, twice (the first
#   two writes after a cold index pay once for it, see below), then the
#   median and maximum of ten more such edits (the steady state).
# Corpora are copied to $WORK so that files can be touched.
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=${WORK:-/tmp/lore-bench}
mkdir -p "$WORK"
go build -o "$WORK/axbench" ./bench/analyzer

corpus() {
  case "$1" in
    go) echo "$(go env GOROOT)/src" ;;
    python) python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])' ;;
    ts)
      local d=${LORE_TS_ORACLE_DIR:-/tmp/lore-ts-oracle}
      if [ ! -d "$d/node_modules/@types/node" ]; then
        npm install --silent --no-audit --no-fund --prefix "$d" typescript@5.9 rxjs@7.8.2 @types/node@22 >/dev/null
      fi
      mkdir -p "$WORK/ts-src"
      rm -rf "$WORK/ts-src"/*
      cp -r "$d/node_modules/rxjs/src" "$WORK/ts-src/rxjs"
      cp -r "$d/node_modules/@types/node" "$WORK/ts-src/types-node"
      echo "$WORK/ts-src" ;;
  esac
}

touchfile() {
  case "$1" in
    go) echo fmt/print.go ;;
    python) echo json/decoder.py ;;
    ts) echo rxjs/internal/Observable.ts ;;
  esac
}

# measure LABEL CMD... → prints "LABEL wall_s rss_MB"
measure() {
  local label=$1; shift
  /usr/bin/time -v "$@" >"$WORK/out.txt" 2>"$WORK/time.txt" || { cat "$WORK/time.txt"; return 1; }
  local wall rss cpu
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{print $2}' "$WORK/time.txt" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(awk -F': ' '/Maximum resident set size/{printf "%.0f", $2/1024}' "$WORK/time.txt")
  cpu=$(awk -F': ' '/User time|System time/{s+=$2} END{printf "%.2f", s}' "$WORK/time.txt")
  printf "%-28s %8.2f s wall %8.2f s cpu %7s MB\n" "$label" "$wall" "$cpu" "$rss"
  echo "$wall" >"$WORK/last_wall"
}

run() {
  local name=$1 src dir
  src=$(corpus "$name")
  dir="$WORK/$name"
  if [ "$name" != ts ]; then
    rm -rf "$dir"; cp -r "$src" "$dir"
    # the standard library only: no installed packages, no bytecode caches
    [ "$name" = python ] && { rm -rf "$dir/site-packages"; find "$dir" -name __pycache__ -type d -prune -exec rm -rf {} +; }
  else
    dir=$src
  fi
  # Write the copy back first: lore's store syncs its files as it closes,
  # and on ext4 that can wait for the copy's dirty pages too (a cold index
  # of the TypeScript corpus once took 0.55 s instead of 0.25 s).
  sync
  sleep 3 # let copied files age past the index's racy-mtime window
  local files bytes
  files=$(find "$dir" -type f | wc -l); bytes=$(du -sm "$dir" | cut -f1)
  echo "== $name: $dir ($files files, $bytes MB) — $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  cat "$dir"/**/*.nothing >/dev/null 2>&1 || true
  find "$dir" -type f -exec cat {} + >/dev/null # warm the page cache for both tools
  measure "ctags -R" ctags -R -f "$WORK/tags" "$dir"; local ct; ct=$(cat "$WORK/last_wall")
  rm -rf "$WORK/db-$name"
  measure "lore cold index" "$WORK/axbench" -q -repo "$dir" -db "$WORK/db-$name"; local lc; lc=$(cat "$WORK/last_wall")
  tail -3 "$WORK/out.txt" | head -1 | cut -c1-200
  "$WORK/axbench" -q -repo "$dir" -db "$WORK/db-$name" >/dev/null # settle racy files
  measure "lore re-index, no change" "$WORK/axbench" -q -repo "$dir" -db "$WORK/db-$name"
  edit "$name" "$dir" ""
  # The first write after a cold index reads through the cold index's
  # whole value-log file as Badger opens it for writing; the second finds
  # the cold index's level-0 tables and compacts them as it closes
  # (graph.compactL0At). Both happen once per store.
  measure "lore re-index, 1 file edited" "$WORK/axbench" -q -repo "$dir" -db "$WORK/db-$name"
  grep -o '"parsed":[0-9]*' "$WORK/out.txt" | head -1
  edit "$name" "$dir" again
  measure "lore re-index, edited again" "$WORK/axbench" -q -repo "$dir" -db "$WORK/db-$name"
  # The steady state a pre-commit hook sees: ten more one-file edits (the
  # small compaction a writer runs every few closes among them).
  local walls=()
  for i in $(seq 10); do
    edit "$name" "$dir" "$i"
    measure "edit $i" "$WORK/axbench" -q -repo "$dir" -db "$WORK/db-$name" >/dev/null
    walls+=("$(cat "$WORK/last_wall")")
  done
  printf '%s\n' "${walls[@]}" | sort -n | awk '{w[NR]=$1} END {printf "%-28s %8.2f s median, %.2f s max (of %d)\n", "lore re-index, later edits", (w[5]+w[6])/2, w[NR], NR}'
  awk -v l="$lc" -v c="$ct" 'BEGIN{printf "ratio cold lore/ctags: %.2fx\n\n", l/c}'
}

# edit NAME DIR TAG appends a comment line to the corpus's touch file.
edit() {
  local f; f="$2/$(touchfile "$1")"
  if [ "$1" = python ]; then echo "# lore bench $3" >>"$f"; else echo "// lore bench $3" >>"$f"; fi
}

if [ $# -eq 0 ]; then set -- go python ts; fi
for c in "$@"; do
  for _ in $(seq "${REPEAT:-1}"); do run "$c"; done
done
