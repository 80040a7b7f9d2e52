# Sourced by the bench scripts. measure CMD...: runs CMD $RUNS times with
# its output discarded (a non-zero exit, such as lore verify's findings, is
# not an error) and prints min, p50 and p95 wall time. Timed with
# $EPOCHREALTIME, so the timer forks nothing.
measure() {
	local t0 t1 i
	for ((i = 0; i < RUNS; i++)); do
		t0=${EPOCHREALTIME/./}
		"$@" >/dev/null || true
		t1=${EPOCHREALTIME/./}
		echo $((t1 - t0))
	done | sort -n | awk '{a[NR]=$1} END {printf "min %.1f ms  p50 %.1f ms  p95 %.1f ms", a[1]/1000, a[int(NR*0.5)+1]/1000, a[int(NR*0.95)]/1000}'
}
