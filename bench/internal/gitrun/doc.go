// Package gitrun runs the git command for the benchmarks that replay
// real histories, with the user's and the system's configuration left
// out so that every machine reads a repository alike.
package gitrun
