//go:build unix

package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// markOpening leaves a marker in dir, locked by this process, for the time
// Badger opens the database; done removes it. Badger opens its tables in
// goroutines of its own, and a damaged one (truncated or overwritten) can
// make it panic there, which kills the process before Open returns: the
// marker then stays behind, unlocked, for diedOpening to find. Best
// effort: when the marker cannot be made, nothing is marked.
func markOpening(dir string) (done func()) {
	end := mark(dir, openMarkPrefix)
	return func() { end(true) }
}

// markLoading leaves a marker in dir as markOpening does, for the time a
// load replaces the database's tables (see Store.LoadFrom): a process that
// ends meanwhile leaves it for diedOpening to find. done(true) removes
// it; done(false) leaves it, as a crash would, for a store left damaged.
func markLoading(dir string) (done func(removed bool)) { return mark(dir, loadMarkPrefix) }

// mark leaves a marker named prefix and the process id in dir, locked.
func mark(dir, prefix string) (done func(remove bool)) {
	p := filepath.Join(dir, fmt.Sprintf("%s%d", prefix, os.Getpid()))
	// Locked under another name first, so that no marker is ever seen
	// unlocked while its process runs.
	tmp := filepath.Join(dir, fmt.Sprintf("%s%d", markingPrefix, os.Getpid()))
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return func(bool) {}
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil || os.Rename(tmp, p) != nil {
		// Best effort, as below.
		_ = f.Close()
		_ = os.Remove(tmp)
		return func(bool) {}
	}
	return func(remove bool) {
		// Removed before it is unlocked: see diedOpening. Where it
		// cannot be removed (the directory became read-only meanwhile),
		// it is marked as left behind by a process that did not crash.
		// Best effort: a marker that stays empty costs a rebuild of the
		// store, not data.
		if remove && os.Remove(p) != nil {
			_, _ = f.WriteString("done\n")
		}
		_ = f.Close()
	}
}

// diedOpening returns the name of a marker of markOpening or markLoading
// whose process ended while opening the database or loading into it, ""
// when there is none. A process
// killed in that moment leaves one too, and is taken for a crash: the
// store is then rebuilt without need, which costs time, not data.
func diedOpening(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		marker := strings.HasPrefix(e.Name(), openMarkPrefix) || strings.HasPrefix(e.Name(), loadMarkPrefix)
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
		_ = f.Close() // only read
		switch {
		case crashed && marker:
			return e.Name()
		case stale:
			// A process killed while making its marker, or one that
			// could not remove it. Best effort: the next look tries again.
			_ = os.Remove(p)
		}
	}
	return ""
}

// loadingElsewhere returns the process id of another process that is
// loading into the database in dir, "" when none is: its marker of
// markLoading is in place and locked. A load in parts closes its handle
// between them (see parts), when another process could open the database
// half written.
func loadingElsewhere(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	own := strconv.Itoa(os.Getpid())
	for _, e := range entries {
		pid, ok := strings.CutPrefix(e.Name(), loadMarkPrefix)
		if !ok || pid == own {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			continue // its process finished meanwhile
		}
		held := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil
		_ = f.Close() // only read
		if held {
			return pid
		}
	}
	return ""
}
