//go:build unix

package graph

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// loaderMark leaves in dir the marker of a process loading into the store
// (see markLoading), locked as a live one's; the returned function ends
// that load: done removes the marker first, as a load that finishes does,
// or leaves it, as one that dies does.
func loaderMark(t *testing.T, dir string) func(done bool) {
	t.Helper()
	p := filepath.Join(dir, loadMarkPrefix+"1") // pid 1 is no test's
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return func(done bool) {
		if done {
			if err := os.Remove(p); err != nil {
				t.Error(err)
			}
		}
		f.Close()
	}
}

// A process that opens a store while another loads into it waits for the
// load, which closes its handle between its parts (see parts), instead of
// opening the store half written; a load that dies meanwhile leaves the
// store damaged, which the waiting Open reports.
func TestOpenWaitsForALoadElsewhere(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, rw := range []bool{false, true} {
		end := loaderMark(t, dir)
		_, err = Open(dir, Options{Schema: 1, ReadWrite: rw, LockTimeout: 100 * time.Millisecond})
		if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "loading into it") {
			t.Fatalf("read-write %v: opened beside a load: %v", rw, err)
		}
		go func(end func(bool)) {
			time.Sleep(100 * time.Millisecond)
			end(true)
		}(end)
		s, err := Open(dir, Options{Schema: 1, ReadWrite: rw, LockTimeout: 10 * time.Second})
		if err != nil {
			t.Fatalf("read-write %v: after the load: %v", rw, err)
		}
		s.Close()

		end = loaderMark(t, dir)
		go func(end func(bool)) {
			time.Sleep(100 * time.Millisecond)
			end(false)
		}(end)
		_, err = Open(dir, Options{Schema: 1, ReadWrite: rw, LockTimeout: 10 * time.Second})
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("read-write %v: after the load died: %v, want ErrCorrupt", rw, err)
		}
		// The store is as it was (the load was a fake): only its
		// marker goes.
		if err := os.Remove(filepath.Join(dir, loadMarkPrefix+"1")); err != nil {
			t.Fatal(err)
		}
	}
}
