//go:build !linux

package graph

import "os"

// pinDir returns dir: without the links of Linux's /proc a directory is
// named by its path (see the Linux version, and Store.drain).
func pinDir(dir string, want os.FileInfo) (path string, f *os.File, err error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", nil, err
	}
	if !os.SameFile(fi, want) {
		return "", nil, errMoved
	}
	return dir, nil, nil
}
