//go:build unix

package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// openMarkPrefix names the marker files of markOpening, markingPrefix
// those being made.
const (
	openMarkPrefix = "lore-opening-"
	markingPrefix  = "lore-marking-"
)

// markOpening leaves a marker in dir, locked by this process, for the time
// Badger opens the database; done removes it. Badger opens its tables in
// goroutines of its own, and a damaged one (truncated or overwritten) can
// make it panic there, which kills the process before Open returns: the
// marker then stays behind, unlocked, for diedOpening to find. Best
// effort: when the marker cannot be made, nothing is marked.
func markOpening(dir string) (done func()) {
	p := filepath.Join(dir, fmt.Sprintf("%s%d", openMarkPrefix, os.Getpid()))
	// Locked under another name first, so that no marker is ever seen
	// unlocked while its process runs.
	tmp := filepath.Join(dir, fmt.Sprintf("%s%d", markingPrefix, os.Getpid()))
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return func() {}
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil || os.Rename(tmp, p) != nil {
		f.Close()
		os.Remove(tmp)
		return func() {}
	}
	return func() {
		// Removed before it is unlocked: see diedOpening. Where it
		// cannot be removed (the directory became read-only meanwhile),
		// it is marked as left behind by a process that did not crash.
		if os.Remove(p) != nil {
			f.WriteString("opened\n")
		}
		f.Close()
	}
}

// diedOpening returns the name of a marker of markOpening whose process
// ended while opening the database, "" when there is none. A process
// killed in that moment leaves one too, and is taken for a crash: the
// store is then rebuilt without need, which costs time, not data.
func diedOpening(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		marker := strings.HasPrefix(e.Name(), openMarkPrefix)
		if !marker && !strings.HasPrefix(e.Name(), markingPrefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue // its process finished meanwhile
		}
		// The process that made it holds its lock until it has removed
		// it: a lock taken on a marker still in place is a dead one's.
		stale := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
		crashed := false
		if stale {
			fi, err1 := f.Stat()
			now, err2 := os.Stat(p)
			stale = err1 == nil && err2 == nil && os.SameFile(fi, now)
			crashed = stale && fi.Size() == 0
		}
		f.Close()
		switch {
		case crashed && marker:
			return e.Name()
		case stale:
			// A process killed while making its marker, or one that
			// could not remove it.
			os.Remove(p)
		}
	}
	return ""
}
