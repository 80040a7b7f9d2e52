// Package loopback keeps lore's HTTP servers (lore serve, lore mcp --http)
// for local clients: it listens on loopback addresses unless told
// otherwise, and refuses requests that a web page could make through the
// user's browser — a Host header that is no loopback name (DNS
// rebinding) or an Origin of another site.
package loopback
