// Package loopback keeps lore's HTTP servers (lore serve, lore mcp --http)
// for the clients they are meant for. It listens on loopback addresses
// unless told otherwise, and its one guard refuses what a web page open in
// the user's browser could send on its behalf: a Host header that is not
// one of the server's names (DNS rebinding), an Origin of another site, a
// cross-site fetch, or a POST body other than JSON.
package loopback
