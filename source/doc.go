// Package source owns how lore reads source files. Every place lore reads
// code from — the working tree, git's staged index, a commit's tree, or
// unsaved editor buffers layered over any of those — is an io/fs.FS whose
// paths are slash-separated and relative to the repository root, so the
// analyzer and the verifier run the same code whatever they read.
//
// Git is read through go-git's storage layer (loose objects, packs, refs)
// with commits, trees and the index parsed here: Repo finds a repository
// from any directory of its work tree (linked worktrees included), GitIndex
// and GitTree give its staged content and a commit's tree, and ReadDir
// lists a directory with each entry's stat taken relative to it. A Repo
// and every file system it returns are safe for concurrent use: readers of
// git's object store take turns (go-git's storage is not safe to share),
// so verify workers may read staged or committed blobs, loose or packed,
// at once. fs.Sub of a git source keeps its direct ReadFile and Stat.
//
// txtar archives (golang.org/x/tools/txtar.FS) are sources too and serve
// as fixtures in tests.
package source
