// Package lore is the porcelain of lore: a Workspace over a repository's
// .lore/ directory. It owns the learning files (Markdown with YAML front
// matter, one learning per file, the source of truth), keeps the derived
// store in .lore/db/ in step with them (sync), and wires the engines —
// analyzer, anchors, co-change and graph — into the operations that the
// command line, the MCP and HTTP servers and Go programs call.
//
// Every operation takes a context and, where it has choices, one options
// value. Findings (a malformed learning file, a drifted anchor) are data in
// the results; an error means the operation could not run.
package lore
