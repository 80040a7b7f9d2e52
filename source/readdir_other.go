//go:build !unix

package source

import (
	"errors"
	"io/fs"
	"os"
)

// ReadDir is os.ReadDir here; on unix its entries hold their Lstat
// information already.
func ReadDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }

// readDirNoFollow has no fast path here: dirFS resolves the directory
// first.
func readDirNoFollow(string, []byte) ([]fs.DirEntry, error) { return nil, errors.ErrUnsupported }

const direntBuf = 0
