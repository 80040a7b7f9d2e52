package graph

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readStore reads every key and value of the store, and the edges of every
// node, as commands do.
func readStore(s *Store) error {
	return s.View(func(tx *Tx) error {
		if err := tx.Scan("kv", "", func(string, []byte) error { return nil }); err != nil {
			return err
		}
		for i := range 200 {
			if _, err := tx.Edges(fileID(i), Both, Filter{}); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
		return nil
	})
}

// fillStore writes edges and values into a store on disk and closes it.
func fillStore(t *testing.T, dir string) {
	t.Helper()
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Batch(func(b *Batch) error {
		for i := range 3000 {
			if err := b.SetOutEdges(fileID(i%200), Imports, []Edge{{Type: Imports, From: fileID(i % 200), To: fileID(1000 + i), Weight: 1}}); err != nil {
				return err
			}
			if err := b.Set("kv", fmt.Sprintf("%06d", i), bytes.Repeat([]byte{byte(i)}, 300)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// within fails the test when fn does not return within d: the faults
// below once made Badger wait forever.
func within(t *testing.T, d time.Duration, what string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s did not return within %s", what, d)
	}
	return nil
}

// A writer whose directory is removed under it (Badger then retries its
// memtable flush forever, and commits and Close wait for it) ends within a
// bound: with an error from a write or from Close, or, when Badger finds
// its state impossible first, through Badger's log.Fatal (the command line
// turns that into exit code 2). Then a new store opens in the
// directory's place. The writer is a child process, as a command is.
func TestDirectoryRemovedUnderAWriter(t *testing.T) {
	for trial := range 3 {
		dir := filepath.Join(t.TempDir(), "db")
		cmd, out := startChild(t, "write "+dir)
		for range 1 + trial*30 {
			if !out.Scan() {
				t.Fatal("the writer ended before the directory went")
			}
		}
		os.RemoveAll(dir)
		start := time.Now()
		exited := make(chan error, 1)
		go func() {
			for out.Scan() {
			}
			exited <- cmd.Wait()
		}()
		select {
		case err := <-exited:
			if err == nil {
				t.Fatalf("trial %d: the writer reported no error", trial)
			}
			t.Logf("trial %d: the writer ended %v after the directory went: %v", trial, time.Since(start).Round(time.Millisecond), err)
		case <-time.After(30 * time.Second):
			t.Fatalf("trial %d: the writer still runs 30s after its directory went", trial)
		}
		s, err := Open(dir, Options{Schema: 1})
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		s.Close()
	}
}

// A store whose directory is removed under a writer, and a new store made
// at the same path (a server's next request): the old handle's goroutines,
// which retry their flush for ever, never write into the new store. They
// once wrote tables and logs beside the new handle's, and a log both
// mapped, cut short by one, was a SIGBUS in the other.
func TestRemovedStoreLeavesItsSuccessorAlone(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a store's directory is pinned on Linux only")
	}
	dir := filepath.Join(t.TempDir(), "db")
	old, err := Open(dir, Options{Schema: 1, ReadWrite: true, MemTableSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	// Writes fill memtables faster than they are flushed, so a flush is
	// under way, or waiting, when the directory goes.
	stopped := make(chan error, 1)
	go func() {
		val := bytes.Repeat([]byte{'v'}, 100) // in the tree, not the value log
		for i := 0; ; i++ {
			err := old.Update(func(tx *Tx) error {
				for j := range 200 {
					if err := tx.Set("kv", fmt.Sprintf("%08d", i*200+j), val); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				stopped <- err
				return
			}
		}
	}()
	time.Sleep(300 * time.Millisecond)
	// The writer may add a file between RemoveAll's reading of the
	// directory and its removal of it (which then fails, not empty): the
	// removal is retried until the directory is gone.
	if err := within(t, 30*time.Second, "removing the directory", func() error {
		for os.RemoveAll(dir) != nil {
			time.Sleep(10 * time.Millisecond)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := within(t, 30*time.Second, "the old writer", func() error { return <-stopped }); err == nil {
		t.Fatal("the old writer reported no error")
	}
	files := func() []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	// A directory made at the path stays as it was made, empty.
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // Badger retries a failed flush every second
	if names := files(); len(names) > 0 {
		t.Fatalf("the old handle wrote into a new directory at its path: %v", names)
	}
	s, err := Open(dir, Options{Schema: 1, ReadWrite: true})
	if err != nil {
		t.Fatalf("a new store at the path: %v", err)
	}
	if err := s.Update(func(tx *Tx) error { return tx.Set("kv", "new", []byte("yes")) }); err != nil {
		t.Fatal(err)
	}
	if err := within(t, 30*time.Second, "the old store's Close", old.Close); err == nil {
		t.Error("the old store closed without an error")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("the new store's Close: %v", err)
	}
	before := files()
	time.Sleep(2 * time.Second) // Badger retries a failed flush every second
	if after := files(); !slices.Equal(before, after) {
		t.Fatalf("the old handle wrote into the new store: its files were %v, then %v", before, after)
	}
	s, err = Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.View(func(tx *Tx) error {
		v, err := tx.Get("kv", "new")
		if err == nil && string(v) != "yes" {
			err = fmt.Errorf("read %q", v)
		}
		return err
	}); err != nil {
		t.Fatalf("the new store's key: %v", err)
	}
}

// Once a store has failed, every call fails at once with the same error.
func TestFailedStoreFailsFast(t *testing.T) {
	s, err := Open(t.TempDir(), Options{Schema: 1, ReadWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	l := &faultLog{s: s}
	l.armed.Store(true)
	l.Errorf("error flushing memtable to disk: %v, retrying", &os.PathError{Op: "open", Path: "x.sst", Err: syscall.EACCES})
	err = within(t, 5*time.Second, "Update", func() error { return s.Update(func(tx *Tx) error { return tx.Set("kv", "a", nil) }) })
	if !errors.Is(err, syscall.EACCES) || !strings.Contains(err.Error(), "make the directory writable") {
		t.Fatalf("Update on a failed store: %v", err)
	}
	// Close still tries, within a bound: what Badger flushes is kept.
	within(t, 10*time.Second, "Close", s.Close)
}

// damage overwrites or truncates the store's tables, as a disk or a
// person might.
func damage(t *testing.T, dir string, truncate bool, seed uint64) {
	t.Helper()
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if len(tables) == 0 {
		t.Skip("no table files to damage")
	}
	r := rand.New(rand.NewPCG(seed, seed))
	for _, p := range tables {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if truncate {
			b = b[:len(b)/2]
		} else {
			for range 64 {
				b[len(b)/10+r.IntN(len(b)*7/10)] = byte(r.Uint32())
			}
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Damaged tables make Open or a read fail with ErrCorrupt, never panic.
// (A table whose end is damaged can make Badger panic in a goroutine of
// its own while it opens: see TestCrashWhileOpeningIsDamage.)
func TestDamagedTablesAreErrCorrupt(t *testing.T) {
	failed := 0
	for seed := range uint64(20) {
		dir := t.TempDir()
		fillStore(t, dir)
		damage(t, dir, false, seed)
		s, err := Open(dir, Options{Schema: 1})
		if err == nil {
			err = readStore(s)
			s.Close()
		}
		if err != nil {
			failed++
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("seed %d: %v is not ErrCorrupt", seed, err)
			}
		}
	}
	t.Logf("20 damaged stores: %d reported damage, none panicked", failed)
}

// A process that dies while Badger opens the store (a damaged table
// makes it panic in its own goroutine) leaves a marker: the next Open
// reports ErrCorrupt, so that the caller can set the store aside.
func TestCrashWhileOpeningIsDamage(t *testing.T) {
	dir := t.TempDir()
	fillStore(t, dir)
	damage(t, dir, true, 1)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LORE_GRAPH_CHILD=read "+dir)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Skipf("the damaged store did not crash the process (%v): nothing to detect", err)
	}
	if strings.Contains(string(out), "store damaged") {
		t.Skip("the damage was found without a crash")
	}
	_, err = Open(dir, Options{Schema: 1})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "died while opening") {
		t.Fatalf("after a crash in Open: %v", err)
	}
}

// A process killed while it opens the store is taken for one that
// crashed only if its marker is unlocked: a running one's never is.
func TestOpenMarkerOfARunningProcess(t *testing.T) {
	dir := t.TempDir()
	fillStore(t, dir)
	done := markOpening(dir)
	if name := diedOpening(dir); name != "" {
		t.Fatalf("a live marker taken for a dead one: %s", name)
	}
	done()
	if name := diedOpening(dir); name != "" {
		t.Fatalf("a removed marker found: %s", name)
	}
}

// Entries Badger cannot store are refused with ErrTooBig and a short
// message, not a dump of their bytes.
func TestEntryTooBig(t *testing.T) {
	s, err := Open(t.TempDir(), Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big := make([]byte, maxValue+1)
	err = s.Update(func(tx *Tx) error { return tx.Set("kv", "big", big) })
	if !errors.Is(err, ErrTooBig) || len(err.Error()) > 200 {
		t.Fatalf("Set of %d bytes: %v", len(big), err)
	}
	err = s.Batch(func(b *Batch) error { return b.SetOwned("kv", strings.Repeat("k", maxKey), nil) })
	if !errors.Is(err, ErrTooBig) || len(err.Error()) > 200 {
		t.Fatalf("a %d-byte key: %v", maxKey, err)
	}
}

// With too little free space a writer refuses to start (Badger would die
// of SIGBUS writing through its mappings) with ENOSPC; a reader goes on.
func TestFullDisk(t *testing.T) {
	dir := smallDisk(t, 48<<20)
	db := filepath.Join(dir, "db")
	fillStore(t, db)
	fill := filepath.Join(dir, "fill")
	f, err := os.Create(fill)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	s, err := Open(db, Options{Schema: 1})
	if err != nil {
		t.Fatalf("read-only open on a full disk: %v", err)
	}
	if err := readStore(s); err != nil {
		t.Fatalf("read on a full disk: %v", err)
	}
	err = s.Update(func(tx *Tx) error { return tx.Set("kv", "x", []byte("y")) })
	if !errors.Is(err, syscall.ENOSPC) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("write on a full disk: %v", err)
	}
	s.Close()
	if _, err := Open(db, Options{Schema: 1, ReadWrite: true}); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("writer open on a full disk: %v", err)
	}
	os.Remove(fill)
	s, err = Open(db, Options{Schema: 1, ReadWrite: true})
	if err != nil {
		t.Fatalf("after freeing space: %v", err)
	}
	s.Close()
}

// smallDisk mounts a tmpfs of size bytes for the test, or skips it.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a small tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// Badger flattens the errors it wraps into text: the operating system's
// errors are still told from damage.
func TestErrorsSortedFromDamage(t *testing.T) {
	flat := func(errno syscall.Errno) error {
		return fmt.Errorf("while opening memtables err: while opening fid: 4 err: open /x/00004.mem: %v", errno)
	}
	for _, errno := range []syscall.Errno{syscall.EACCES, syscall.EROFS, syscall.ENOSPC, syscall.EIO, syscall.EDQUOT} {
		err := damaged(flat(errno))
		if !errors.Is(err, errno) || errors.Is(err, ErrCorrupt) {
			t.Errorf("%v: sorted as %v", errno, err)
		}
	}
	for _, err := range []error{
		flat(syscall.ENOENT), // a file of the store is missing
		errors.New("failed to read index. err: proto: cannot parse invalid wire-format data"),
		errors.New("manifest has bad magic"),
	} {
		if got := damaged(err); !errors.Is(got, ErrCorrupt) {
			t.Errorf("%v: sorted as %v, want damage", err, got)
		}
	}
}
