// Package mcpserver serves a lore workspace to agents over the Model
// Context Protocol: ranked context for the code an agent is editing,
// creating and anchoring learnings, relations, graph queries, verification,
// analysis and usage feedback, as MCP tools.
//
// It is a driver, like cmd/lore: every tool makes one call into package
// lore. The workspace is opened for each call and the store is held only
// while the call runs, so hooks, CI and editors can run lore beside a
// long-lived server.
package mcpserver
