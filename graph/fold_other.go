//go:build !linux

package graph

import "os"

// foldFiles does nothing where the page cache's folio sizes are not known
// to depend on how a file was written (see fold_linux.go).
func foldFiles(d *os.File, names []string) (int64, error) { return 0, nil }
