//go:build unix

package graph

import (
	"os"
	"syscall"
)

// withDirLock runs fn holding the exclusive flock Badger takes on its
// directory; when another process holds it, fn does not run.
func withDirLock(dir string, fn func()) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	fn()
}
