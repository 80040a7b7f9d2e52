// Package anchorsbench measures lore's anchor verification on real code:
// the relocation benchmark (precision and recall of following renamed and
// moved symbols, accuracy of statuses, drift reported for formatting-only
// changes) and the speed of verifying many anchors with the index up to
// date. Both need LORE_BENCH=1; see BENCHMARKS.md for numbers and commands.
package anchorsbench
