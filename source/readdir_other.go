//go:build !unix

package source

import (
	"io/fs"
	"os"
)

// ReadDir is os.ReadDir here; on unix its entries hold their Lstat
// information already.
func ReadDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }
