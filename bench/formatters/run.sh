#!/usr/bin/env bash
# False drift under real formatters (issue 29): anchor N functions, methods
# and classes of a real corpus with a lore binary, commit, run a formatter
# over the files, and count the anchors `lore verify` no longer finds valid.
#
# usage: bench/formatters/run.sh LORE LANG CORPUS_DIR SAMPLE FORMATTER...
#   LORE       the lore binary to measure (build one per commit compared)
#   LANG       go | python | ts | rust: which files of CORPUS_DIR are read
#   SAMPLE     0 or 1: files at even or odd positions of the sorted list, so
#              that a normalisation developed on one half is measured on
#              the other
#   FORMATTER  the command run in the copy's root; file names are appended
# env: N (default 400) anchors; FILES (default 80) files; WORK=DIR keeps
#      the copy in DIR.
# Prints one line: valid/drifted/invalid counts and the changes reported.
set -euo pipefail
lore=$(realpath "$1") lang=$2 corpus=$(realpath "$3") sample=$4
shift 4
N=${N:-400}
FILES=${FILES:-80}
work=${WORK:-$(mktemp -d)}
[[ -n "${WORK:-}" ]] || trap 'rm -rf "$work"' EXIT
repo="$work/repo"
rm -rf "$repo"
mkdir -p "$repo"

case $lang in
go) pat='.*\.go$' ;;
python) pat='.*\.py$' ;;
ts) pat='.*\.tsx?$' ;;
rust) pat='.*\.rs$' ;;
*) echo "unknown language $lang" >&2; exit 2 ;;
esac
# Tests, test data, vendored code and declaration files are left out.
mapfile -t all < <(cd "$corpus" && find . -type f -regex "$pat" \
	! -path '*/test*' ! -path '*/testdata/*' ! -path '*/vendor/*' ! -path '*/node_modules/*' \
	! -name '*.d.ts' ! -name '*_test.go' ! -name '*.test.ts' ! -name '*.spec.ts' \
	! -path '*/tests/*' ! -path '*/idle_test/*' ! -path '*/lib2to3/*' | LC_ALL=C sort)
picked=()
for ((i = sample; i < ${#all[@]}; i += 2)); do picked+=("${all[i]}"); done
step=$(((${#picked[@]} + FILES - 1) / FILES))
((step > 0)) || { echo "no $lang files in $corpus" >&2; exit 2; }
files=()
for ((i = 0; i < ${#picked[@]}; i += step)); do
	f=${picked[i]#./}
	mkdir -p "$repo/$(dirname "$f")"
	cp "$corpus/$f" "$repo/$f"
	files+=("$f")
done

if [[ $lang == rust ]]; then
	# rustfmt follows `mod` declarations: every module must be there.
	for f in "${all[@]}"; do
		mkdir -p "$repo/$(dirname "$f")"
		cp -n "$corpus/$f" "$repo/$f"
	done
	(cd "$corpus" && find . -name Cargo.toml ! -path '*/node_modules/*' -exec cp --parents {} "$repo" \;)
fi
cd "$repo"
git init -q
git add -A
git -c user.name=b -c user.email=b@b.invalid commit -qm corpus
"$lore" init >/dev/null
"$lore" index >/dev/null
# Functions, methods, constructors and classes whose name is unique in
# their file, N of them spread evenly over the files.
"$lore" symbols --json "${files[@]}" | python3 -c '
import json, sys
n = int(sys.argv[1])
syms, count = [], {}
for line in sys.stdin:
    s = json.loads(line)
    count[s["fqname"]] = count.get(s["fqname"], 0) + 1
    if s["kind"] in ("function", "method", "constructor", "class"):
        syms.append(s["fqname"])
syms = [s for s in syms if count[s] == 1]
step = max(1, len(syms) / n)
picked = [syms[int(i * step)] for i in range(min(n, len(syms)))]
for i in range(0, len(picked), 10):
    print("\n".join(picked[i:i + 10]))
    print()
' "$N" >"$work/anchors"
k=0
batch=()
add() {
	((${#batch[@]})) || return 0
	args=()
	for a in "${batch[@]}"; do args+=(--anchor "$a"); done
	"$lore" learn add --title "learning $k" --body "about ${batch[0]}" "${args[@]}" >/dev/null
	k=$((k + 1))
	batch=()
}
while IFS= read -r line; do
	if [[ -z $line ]]; then add; else batch+=("$line"); fi
done <"$work/anchors"
add
git add -A .lore
git -c user.name=b -c user.email=b@b.invalid commit -qm learnings

"$@" "${files[@]}" >"$work/formatter.log" 2>&1 || { echo "formatter failed:" >&2; tail -5 "$work/formatter.log" >&2; }
changed=$(git diff --name-only | grep -vc '^\.lore/' || true)
"$lore" verify --format json --fail-on never >"$work/verify.json"
python3 - "$work/verify.json" "$changed" "${#files[@]}" <<'PY'
import collections, json, sys
rep = json.load(open(sys.argv[1]))
rs = rep["results"]
changes = collections.Counter(r["change"] for r in rs)
s = rep["summary"]
print("anchors %d  files %s/%s reformatted  valid %d  drifted %d  invalid %d  changes %s" % (
    len(rs), sys.argv[2], sys.argv[3], s["valid"], s["drifted"], s["invalid"],
    " ".join("%s=%d" % kv for kv in sorted(changes.items()))))
PY
