// Package lore is lore's library: a Workspace over a repository's .lore/
// directory, with the operations that the command line, the MCP and HTTP
// servers and Go programs call — add, list, edit and relate learnings,
// anchor them to code, verify which still hold, and ask what matters for
// the code at hand.
//
// The package is a façade over the parts that do the work:
//
//   - learnfile: the learning file format (one learning per file in
//     .lore/learnings/, the source of truth);
//   - anchors: anchor specs, fingerprints, the verifier and relocation;
//   - analyzer: the index of the repository's code;
//   - cochange: files that change together, from git history;
//   - rank: context ranking, relation trees and similarity;
//   - graph: the store in .lore/db/, derived and rebuildable;
//   - source: reading the working tree, git's index and commits.
//
// A Workspace holds the store only for the length of one operation: it
// opens it, brings it in step with the learning files, runs the operation
// and closes it, so that hooks, editors and agents on the same repository
// take turns. Every operation takes a context and, where it has choices,
// one options value. Findings (a malformed learning file, a drifted anchor)
// are data in the results; an error means the operation could not run.
package lore
