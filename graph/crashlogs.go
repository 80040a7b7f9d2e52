package graph

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// emptyLogs lists the zero-length write-ahead (.mem) and value-log (.vlog)
// files in dir. A writer killed between creating such a file and sizing
// it leaves one behind, and Badger then refuses to open the database
// (dgraph-io/badger#2207). They hold no data, so removing them loses
// nothing.
func emptyLogs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".mem") && !strings.HasSuffix(n, ".vlog") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// removeEmptyLogs removes the files emptyLogs finds, holding the
// directory's lock so that no running writer is creating one of them at
// that moment. It returns the first removal's error: a directory that
// cannot be written keeps them.
func removeEmptyLogs(dir string) error {
	if len(emptyLogs(dir)) == 0 {
		return nil
	}
	var first error
	withDirLock(dir, func(*os.File) {
		for _, p := range emptyLogs(dir) {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
				first = err
			}
		}
	})
	return first
}
