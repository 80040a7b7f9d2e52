#!/usr/bin/env bash
# Co-change benchmarks and the exactness check, side by side in one run.
#
#   bench/cochange/run.sh REPO [RUNS]
#
# REPO is a repository replayed with ../shared/tools/replay-history (or any
# repository). RUNS (default 5) is how many times each timed command runs;
# commands alternate, and the minimum and median wall times are reported.
# Needs: go, git, python3, /usr/bin/time (GNU).
set -euo pipefail

repo=$(cd "${1:?usage: run.sh REPO [RUNS]}" && pwd)
runs=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/cochange-bench
(cd "$root" && go build -o "$bin" ./bench/cochange)

echo "## machine"
echo "date: $(date -u +%FT%TZ)"
echo "cpus: $(nproc), memory: $(free -g | awk '/^Mem:/ {print $2}') GiB, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$(go version), $(git --version)"
echo "repo: $repo, $(git -C "$repo" rev-list --count HEAD) commits, HEAD $(git -C "$repo" rev-parse --short HEAD)"
echo

# timeit NAME CMD...: one run, wall seconds and max RSS appended to $work/NAME
timeit() {
	local name=$1
	shift
	/usr/bin/time -f "%e %M %U %S" -o "$work/t" "$@" >/dev/null 2>"$work/err" || {
		cat "$work/err" >&2
		exit 1
	}
	cat "$work/t" >>"$work/$name"
	# cochange-bench reports its phases: keep the store-less part.
	sed -n 's/.*store open \([0-9.]*\)\(m\?s\), Analyze \([0-9.]*\)\(m\?s\), store close \([0-9.]*\)\(m\?s\).*/\1\2 \3\4 \5\6/p' "$work/err" >>"$work/$name.phases"
}

# phases NAME: min and median of store open, Analyze and store close, in ms
phases() {
	[[ -s "$work/$1.phases" ]] || return 0
	awk -v name="$1" '
		function ms(v) { if (v ~ /ms$/) return v + 0; return v * 1000 }
		{ o[NR] = ms($1); a[NR] = ms($2); c[NR] = ms($3) }
		function med(x, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }; return x[int((n + 1) / 2)] }
		END { n = NR; printf "%-18s in-process: store open median %5.1f ms, Analyze median %6.1f ms, store close median %5.1f ms\n", name, med(o, n), med(a, n), med(c, n) }' "$work/$1.phases"
}

# report NAME: min and median wall, min CPU (user+sys), max RSS
report() {
	sort -n "$work/$1" | awk -v name="$1" '
		{ t[NR] = $1; if ($2 > rss) rss = $2; c = $3 + $4; if (NR == 1 || c < cpu) cpu = c }
		END { printf "%-18s wall min %6.3f s  median %6.3f s  cpu min %6.3f s  max RSS %4.0f MB  (%d runs)\n", name, t[1], t[int((NR + 1) / 2)], cpu, rss / 1024, NR }'
}

mincpu() { awk '{ c = $3 + $4; if (NR == 1 || c < m) m = c } END { print m }' "$work/$1"; }

min() { sort -n "$work/$1" | head -1 | cut -d' ' -f1; }

head_time=$(git -C "$repo" log -1 --format=%ct)
year_ago=$((head_time - 365 * 24 * 3600))
gitlog=(git -C "$repo" log --no-merges --no-renames --name-only --format=%x01%H)

echo "## full history and last 12 months (commands alternate)"
for ((i = 0; i < runs; i++)); do
	timeit git-log-full "${gitlog[@]}"
	timeit lore-full "$bin" -repo "$repo" -full
	rm -rf "$work/db"
	timeit lore-full+store "$bin" -repo "$repo" -full -db "$work/db"
	timeit git-log-12mo "${gitlog[@]}" --since="$year_ago"
	rm -rf "$work/db"
	timeit lore-12mo+store "$bin" -repo "$repo" -db "$work/db"
done
for n in git-log-full lore-full lore-full+store git-log-12mo lore-12mo+store; do report "$n"; done
phases lore-full+store
phases lore-12mo+store
for n in lore-full lore-full+store; do
	awk -v n="$n" -v a="$(min $n)" -v b="$(min git-log-full)" -v ca="$(mincpu $n)" -v cb="$(mincpu git-log-full)" \
		'BEGIN { printf "ratio %s / git-log-full: wall %.2fx, cpu %.2fx (minimums)\n", n, a / b, ca / cb }'
done
echo

echo "## incremental update after one new commit (whole process, on-disk store)"
clone=$work/clone
git clone -q --local "$repo" "$clone"
git -C "$clone" config user.name Bench
git -C "$clone" config user.email bench@example.invalid
for window in 12mo full; do
	flags=()
	[[ $window == full ]] && flags=(-full)
	rm -rf "$work/idb"
	"$bin" -repo "$clone" -db "$work/idb" "${flags[@]}" 2>/dev/null
	for ((i = 0; i < runs; i++)); do
		f=$(git -C "$clone" ls-files | sed -n "$((i * 7 + 1))p")
		echo "bench $i" >>"$clone/$f"
		git -C "$clone" commit -qam "bench $i"
		timeit "lore-update-$window" "$bin" -repo "$clone" -db "$work/idb" "${flags[@]}"
	done
	"$bin" -repo "$clone" -db "$work/idb" "${flags[@]}" 2>&1 >/dev/null | sed 's/^/last update: /'
	report "lore-update-$window"
	phases "lore-update-$window"
done
echo

echo "## exactness: renames off, full history, default filters"
"$bin" -repo "$repo" -full -no-renames -pairs text 2>/dev/null | LC_ALL=C sort >"$work/lore.txt"
git -C "$repo" -c core.quotePath=false log --no-merges --no-renames --name-only --format=%x01%H |
	python3 "$here/count_gitlog.py" | LC_ALL=C sort >"$work/gitlog.txt"
echo "lore:    $(wc -l <"$work/lore.txt") pairs; first: $(head -1 "$work/lore.txt")"
echo "git log: $(wc -l <"$work/gitlog.txt") pairs; first: $(head -1 "$work/gitlog.txt")"
if [[ ${VERBOSE:-} != "" ]]; then
	echo "--- lore"; cat "$work/lore.txt"
	echo "--- git log"; cat "$work/gitlog.txt"
fi
if diff -u "$work/gitlog.txt" "$work/lore.txt" >"$work/diff"; then
	echo "diff: empty"
else
	echo "diff (-git log +lore):"
	cat "$work/diff"
	exit 1
fi
