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
// Analyze walks every commit reachable from HEAD, newest first by committer
// date (a queue ordered by date, ties in the order commits were queued, over
// all parents), and diffs every non-merge commit against its parent
// (source.History.Diff: subtrees whose hashes are equal are skipped without
// being read, and decoded trees are cached, so a walk reads each changed
// tree about once). Merges are walked through but are not change-sets: the
// commits counted are those of git log --no-merges, so the work of branches
// merged with merge commits counts commit by commit (Result.Mode
// ModeNoMerges). Options.Merges is the other mode (ModeFirstParent): the
// walk follows HEAD's first-parent chain only and counts every commit on
// it, each merge as one change-set, its diff against its first parent — a
// merged pull request counts once, its own commits not.
//
// Windows follow git log too: Since leaves out a commit older than it and
// does not walk on through that commit, as git log --since does; with
// clock skew (a parent dated after its child) that is what decides, so a
// commit inside the window by date but reached only through an older one is
// left out, as git leaves it out. MaxCommits keeps the first commits in the
// walk's order, as git log -n does.
//
// A shallow clone is walked down to its boundary (the boundary commit,
// whose parents are missing, is left out); the result then carries a note,
// and a later Analyze walks what a deepening fetched. A repository without
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
// counts under its current name. Renames are found per non-merge commit
// against its first parent: exact ones by equal blob hashes, similar ones by
// content similarity, the latter only in commits that both add and delete
// files. A rename applies to the commits the walk reaches after it (older
// by date); on branches that ran beside the one that renamed, that is an
// approximation, like git log --follow's.
//
// # Symbols
//
// With Options.Symbols (a parser the caller supplies; lore's is
// lore.NewSymbolParser over the analyzer), the same walk also gives
// co-change of symbols: in the counted commits that were not skipped, for
// the files of the kept pairs only (that bounds the parsing), each symbol
// whose text differs from the first parent's version, or that is new or
// gone, is changed; a commit's changed symbols are a change-set counted
// with the files' filters. File renames are not followed at this level.
// The pass runs over the whole window on every Analyze that asks for it.
//
// # Storage
//
// Change-sets are stored per commit in the "cc" namespace of a graph.Store,
// with their parents and with paths interned to small integers. A later
// Analyze walks the same way, but takes the stored commits from the store
// instead of git: only commits it has not seen are read and diffed (an
// update after one new commit reads one; a window that grew reads the
// commits below it; commits a rewrite of history left unreachable, or that
// left the window, are dropped). Merges stored without a diff are diffed
// when the first-parent mode needs them. CheckStatus tells callers when the
// analysis is older than StaleAge or more than StaleCommits behind HEAD.
// Kept pairs become CO_CHANGES_WITH edges between file:<a> and file:<b>,
// a < b.
package cochange
