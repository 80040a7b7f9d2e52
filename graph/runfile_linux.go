//go:build linux

package graph

import (
	"os"

	"golang.org/x/sys/unix"
)

// createRunFile creates a temporary file for a spilled run in dir without
// a name (O_TMPFILE), so that no moment exists in which a process killed
// leaves it behind; where the file system cannot, a named one (see
// createNamedRunFile).
func createRunFile(dir string) (f *os.File, name string, err error) {
	if dir == "" {
		dir = os.TempDir()
	}
	if f, err := os.OpenFile(dir, os.O_RDWR|unix.O_TMPFILE, 0o600); err == nil {
		return f, "", nil
	}
	return createNamedRunFile(dir)
}
