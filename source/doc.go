// Package source owns how lore reads source files and git. Every place lore
// reads code from — the working tree, git's staged index, a commit's tree,
// or unsaved editor buffers layered over any of those — is an io/fs.FS
// whose paths are slash-separated and relative to the repository root, so
// the analyzer and the verifier run the same code whatever they read.
//
// It is lore's one git reader. Repo finds a repository from any directory
// of its work tree (linked worktrees and bare repositories included) and
// reads its objects: packed objects through go-git's pack index and delta
// code from packfiles mapped into memory, with a cache of delta bases, the
// rest (loose objects, alternates) through go-git's storage. Commits,
// trees and git's index are parsed here, once for every caller: GitIndex
// and GitTree give the staged content and a commit's tree as file
// systems, and History serves a walk of history — commits (from the
// commit-graph file when there is one), the files that differ between two
// trees, blobs — to co-change analysis. A Repo and every file system it
// returns are safe for concurrent use: readers of the object store take
// turns (go-git's storage is not safe to share), so verify workers may
// read staged or committed blobs at once.
//
// What must mean exactly what it means to git — revision syntax, merge
// bases, diffs with rename detection — and the writes that belong to git
// (blobs and index entries for the pre-commit hook's fixes) go through git
// processes, all of them started in gitcmd.go. ReadDir lists a directory
// with each entry's stat taken relative to it.
//
// txtar archives (golang.org/x/tools/txtar.FS) are sources too and serve
// as fixtures in tests.
package source
