// Package httpapi serves a lore workspace as an HTTP JSON API for editors
// and tools: graph neighbourhoods, ranked context for files and lines,
// learnings and verification.
//
// It is a driver, like cmd/lore: each request makes one call into package
// lore, and the store is held only while a request runs. By default it
// listens on loopback only (see Listen).
//
// A loopback server is still reachable from web pages in a browser on the
// same machine, so every request is checked before it runs: its Host must
// be one of the server's names (Options.Hosts; another is DNS rebinding:
// 421), an Origin header must name the server itself and a cross-site
// fetch is refused (403), and a POST body must be JSON (415), which a page
// cannot send without asking the server first. Connections, header reads,
// bodies and request times are bounded. Errors are JSON objects
// {"error": "..."} with a status code: 400 for a bad request, 404 for an
// unknown node or learning, 413 for a body over the limit, 503 when
// another process holds the store for too long.
package httpapi
