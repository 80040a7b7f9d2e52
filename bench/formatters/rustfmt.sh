#!/usr/bin/env bash
# rustfmt each FILE with its crate's edition (from the nearest Cargo.toml,
# 2015 when it names none): rustfmt's own default edition cannot parse
# every crate.
# usage: bench/formatters/rustfmt.sh [RUSTFMT_ARGS...] -- FILE...
set -uo pipefail
args=()
while (($#)) && [[ $1 != -- ]]; do args+=("$1"); shift; done
shift
status=0
for f in "$@"; do
	d=$(dirname "$f") edition=2015
	while [[ $d != . && $d != / && ! -f $d/Cargo.toml ]]; do d=$(dirname "$d"); done
	if [[ -f $d/Cargo.toml ]]; then
		e=$(sed -n 's/^edition *= *"\([0-9]*\)".*/\1/p' "$d/Cargo.toml" | head -1)
		[[ -n $e ]] && edition=$e
	fi
	rustfmt --edition "$edition" "${args[@]}" "$f" || status=1
done
exit $status
