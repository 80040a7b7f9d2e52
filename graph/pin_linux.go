//go:build linux

package graph

import (
	"os"
	"strconv"
)

// pinDir opens the store's directory and returns a path that names that
// directory, not whatever is at dir later, while f stays open: the
// process's own link to the open directory. Badger works on its files by
// path, and a handle whose directory was removed under it goes on trying
// (a failed flush is retried for ever); through the pinned path it can
// only fail, where through dir it would write its tables and logs into a
// store made later at the same path, beside that store's own handle (two
// handles mapping one log file: a truncation by one is a SIGBUS in the
// other). It fails with errMoved when dir is no longer the directory
// want; where the system has no such links, the path is dir and f nil.
func pinDir(dir string, want os.FileInfo) (path string, f *os.File, err error) {
	f, err = os.Open(dir)
	if err != nil {
		return "", nil, err
	}
	fi, err := f.Stat()
	if err != nil || !os.SameFile(fi, want) {
		f.Close()
		return "", nil, errMoved
	}
	path = "/proc/self/fd/" + strconv.FormatUint(uint64(f.Fd()), 10)
	if pi, err := os.Stat(path); err != nil || !os.SameFile(pi, want) {
		f.Close()
		return dir, nil, nil
	}
	return path, f, nil
}
