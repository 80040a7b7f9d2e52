// Package lspserver serves a lore workspace to editors over the Language
// Server Protocol (lore lsp): diagnostics where anchored code drifted or
// lost its learning, hover with the learnings about a line, code lenses
// above anchored code, code actions (accept a drift, take a relocation,
// add a learning anchored here), and links from the anchor specs of a
// learning file to the code.
//
// It is a driver over package lore, like cmd/lore, and answers from one
// warm view of the workspace (internal/warm): the store stays open
// between requests, changed files are followed, and another lore command
// that must write the store gets it within a moment.
//
// Diagnostics are computed by verifying the anchors into a document
// against the working tree with the editor's unsaved buffers laid over it
// (lore.VerifyOptions.Overlay), on open, on change and on save; such runs
// record no status history. A drifted anchor is a warning at the code's
// current location, an anchor whose code is gone an error where it was,
// each with the learning's title, the change and what to do. In
// .lore/learnings/*.md the anchors that do not resolve are reported at
// their line of the front matter.
//
// # Library
//
// The protocol's types come from go.lsp.dev/protocol v0.12.0 with its
// JSON-RPC layer go.lsp.dev/jsonrpc2 v0.10.0 (the version it is built
// against): plain structs for every message of LSP 3.16, a Content-Length
// framed stream and a handler function per connection, nothing that owns
// the process. github.com/tliron/glsp was the alternative; it brings a
// logging framework and a server loop of its own and covers the same
// messages. typefox.dev/lsp is not reachable from this build's module
// proxy. The server implements only the requests it announces and answers
// others with MethodNotFound.
package lspserver
