//go:build unix

package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// waitMarkPrefix names the markers of writers waiting for the database.
const waitMarkPrefix = "lore-waiting-"

// markWaiting leaves a marker in dir, locked by this process, while it
// waits to open the database for writing; done removes it. Best effort.
func markWaiting(dir string) (done func()) {
	p := filepath.Join(dir, fmt.Sprintf("%s%d", waitMarkPrefix, os.Getpid()))
	// The marker appears under its name already locked (made under
	// another name, then renamed): Waiting must never find it unlocked
	// and remove it as a dead process's, which would leave this writer
	// unseen behind a busy server.
	tmp := filepath.Join(dir, fmt.Sprintf("lore-wait-new-%d", os.Getpid()))
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return func() {}
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil || os.Rename(tmp, p) != nil {
		_ = os.Remove(tmp)
		_ = f.Close() // nothing written
		return func() {}
	}
	return func() {
		// A marker left behind is unlocked once the file closes, and
		// Waiting removes it.
		_ = os.Remove(p)
		_ = f.Close() // nothing written
	}
}

// Waiting reports whether another process is waiting to open the database
// in dir for writing. A long-lived process that holds the database
// read-only between requests lets go of it when this says so, so that a
// writer beside it (a commit's hook, lore learn add) waits only a moment.
// Markers of processes that died are removed.
func Waiting(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), waitMarkPrefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue // its process got the database meanwhile
		}
		alive := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil
		if !alive {
			fi, err1 := f.Stat()
			now, err2 := os.Stat(p)
			if err1 == nil && err2 == nil && os.SameFile(fi, now) {
				_ = os.Remove(p) // best effort: the next look tries again
			}
		}
		_ = f.Close() // only read
		if alive {
			return true
		}
	}
	return false
}
