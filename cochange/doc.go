// Package cochange finds files that change together.
//
// It owns the change-set of every commit in the analysis window, co-change
// counting and scoring in the manner of code-maat's coupling analysis, rename
// propagation, and the incremental upkeep of all of that in lore's store.
// It reads no git itself: commits, tree diffs and blobs come from
// source.History, lore's one git reader, so no git binary is needed.
//
// # History walk
//
// Analyze follows HEAD's first-parent chain and diffs every non-merge commit
// against its parent (source.History.Diff: subtrees whose hashes are equal
// are skipped without being read, and decoded trees are cached, so a walk
// reads each changed tree about once). Merge commits are not change-sets,
// and commits reachable only through a merge's other parents are not walked:
// the commits are those of git log --first-parent --no-merges. Where work
// arrives through merge commits, Options.Merges counts each merge as one
// change-set (its diff against its first parent), and the result carries a
// note when most of the chain is merges and the option is off. A shallow
// clone is walked down to its boundary; the result then carries a note, and
// a later Analyze walks what a deepening fetched. A repository without
// commits gives an empty result. Linked worktrees and bare repositories work
// like any other.
//
// # Counting
//
// Within the window (see Options), a commit that changed more than
// MaxChangeset files is skipped. Every remaining commit adds one revision to
// each file it changed and one shared revision to each unordered pair of those
// files. The degree of coupling of a pair is shared / average(revs_a, revs_b).
// A pair is kept when both files have at least MinRevs revisions, the pair at
// least MinShared shared revisions and a degree of at least MinCoupling.
//
// The default window is the year before the HEAD commit's committer date:
// coupling that has not been exercised for a year says little about the code
// as it is, and anchoring the window to HEAD rather than to the clock keeps
// results reproducible and useful on dormant repositories. Since, MaxCommits
// and FullHistory override it.
//
// With rename propagation (the default), a file's history before a rename
// counts under its current name. Renames are found per commit: exact ones by
// equal blob hashes, similar ones by content similarity, the latter only in
// commits that both add and delete files.
//
// # Storage
//
// Change-sets are stored per commit in the "cc" namespace of a graph.Store,
// with paths interned to small integers, so a later Analyze only walks the
// commits that are new since the stored tip and forgets the ones that left
// the window. When the stored tip is no longer a first-parent ancestor of
// HEAD (history was rewritten) everything is recomputed. CheckStatus tells
// callers when the analysis is older than StaleAge or more than StaleCommits
// behind HEAD. Kept pairs become CO_CHANGES_WITH
// edges between file:<a> and file:<b>, a < b.
package cochange
