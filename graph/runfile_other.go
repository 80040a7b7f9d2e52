//go:build !linux

package graph

import "os"

// createRunFile creates a temporary file for a spilled run in dir (see
// createNamedRunFile).
func createRunFile(dir string) (f *os.File, name string, err error) {
	return createNamedRunFile(dir)
}
