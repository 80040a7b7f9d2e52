// Package testrepo makes real git repositories with a lore workspace for
// the tests of the packages that serve one (httpapi, lspserver,
// internal/warm).
package testrepo
