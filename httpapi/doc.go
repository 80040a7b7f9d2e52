// Package httpapi serves a lore workspace as an HTTP JSON API for editors
// and tools: graph neighbourhoods, ranked context for files and lines,
// learnings and verification.
//
// It is a driver, like cmd/lore: each request makes one call into package
// lore, and the store is held only while a request runs. By default it
// listens on loopback only (see Listen). Errors are JSON objects
// {"error": "..."} with a status code: 400 for a bad request, 404 for an
// unknown node or learning, 413 for a body over the limit, 503 when
// another process holds the store for too long.
package httpapi
