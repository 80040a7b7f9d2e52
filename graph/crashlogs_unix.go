//go:build unix

package graph

import (
	"os"
	"syscall"
)

// withDirLock runs fn holding the exclusive flock Badger takes on its
// directory, with the directory open as d (so that fn can reach its files
// even if the directory is renamed meanwhile); when another process holds
// the lock, fn does not run.
func withDirLock(dir string, fn func(d *os.File)) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	defer func() { _ = f.Close() }() // only read; closing it also releases the lock
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return
	}
	fn(f)
}
