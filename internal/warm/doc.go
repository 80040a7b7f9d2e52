// Package warm keeps one warm view of a lore workspace for long-lived
// servers (lore lsp, lore serve, lore mcp): the store stays open between
// requests and the learnings synced, and the view follows the files on
// disk instead of re-reading everything per request.
//
// The API is three calls:
//
//	v, err := warm.Open(ctx, warm.Options{Dir: dir, OnChange: republish})
//	defer v.Close()
//	err = v.Do(ctx, func(ws *lore.Workspace) error { … one or more calls … })
//
// Do runs its function with the view's lore.Workspace, one call at a time.
// The workspace holds its store (lore.Workspace.Hold) across calls, so a
// call costs what the operation costs, not an open and a sync of every
// learning file.
//
// # Following the files
//
// The view watches the working tree and .lore/learnings with file-system
// notifications (fsnotify; every directory but .git and .lore/db). A
// change to a learning file makes the next call sync the learnings; a
// change to a source file re-indexes the tree (incrementally: only
// changed files are parsed) once changes have settled for a moment, and
// OnChange then tells the server, which may refresh what it showed.
// Where notifications are unavailable (no inotify, too many directories
// for the watch limit) the view polls: the learnings directory's listing
// every Options.Poll, and the tree is taken to have changed, so that the
// next verification brings the index up to date first.
//
// # Never locking out the command line
//
// Badger lets one process write, and a process that holds the store, even
// read-only, keeps writers out. A writer that has to wait leaves a marker
// in .lore/db (graph.Waiting); the view checks for one every few
// milliseconds while it holds the store and before each call, and lets
// go of the store at once, so a commit's hook or a lore learn add beside
// a running server waits about one call and one retry of its own. The
// view also lets go after Options.Idle without calls and right after any
// call that wrote (the store is then held for writing, which keeps every
// other process out). BENCHMARKS.md has the measured waits.
package warm
