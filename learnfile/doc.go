// Package learnfile is the learning file format, lore's committed contract:
// one learning per file in .lore/learnings/<id>.md, Markdown with a YAML
// front matter block (id, title, tags, anchors with their baselines, links
// to other learnings, provenance, created and updated times) and the
// learning's text as the body.
//
// Parse reads a file and Marshal writes one. A learning read from a file
// is rewritten minimally: only the top-level keys whose values changed are
// re-encoded, so comments, unknown keys, key order, line endings and the
// body stay byte for byte and a rewrite by lore is a small diff. Merge
// joins an edit with changes made to the file meanwhile. Ids are short,
// random and collision-safe across branches (NewID, ValidID); the limits
// of one learning (MaxBytes, MaxAnchors, ...) are checked when a file is
// read and when it is written.
//
// The package is pure: it reads and writes bytes, never files, so the same
// code serves the working tree, git's index and a commit's tree, and it is
// fuzzed (FuzzParse).
package learnfile
