package graph

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// writeMapped writes size random bytes to path through a shared mapping,
// as Badger writes its tables, and returns them.
func writeMapped(t *testing.T, path string, size int) []byte {
	t.Helper()
	want := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range want {
		want[i] = byte(r.Uint32())
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(int64(size)); err != nil {
		t.Fatal(err)
	}
	m, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	copy(m, want)
	if err := unix.Msync(m, unix.MS_SYNC); err != nil {
		t.Fatal(err)
	}
	if err := unix.Munmap(m); err != nil {
		t.Fatal(err)
	}
	return want
}

// mappedFaults reads one byte of every page of path through a fresh
// mapping and returns the minor faults that took, and the bytes' sum.
func mappedFaults(t *testing.T, path string) (int64, byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	var r0, r1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	var sum byte
	for i := 0; i < len(m); i += 4096 {
		sum += m[i]
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	return r1.Minflt - r0.Minflt, sum
}

func TestFoldFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "000001.sst")
	want := writeMapped(t, path, 5<<20+12345) // not a multiple of a chunk
	small := writeMapped(t, filepath.Join(dir, "000003.vlog"), foldMin-1)
	before, sum0 := mappedFaults(t, path)
	ran := false
	var n int64
	var err error
	withDirLock(dir, func(d *os.File) {
		ran = true
		// The second is gone, the third too small to gain.
		n, err = foldFiles(d, []string{"000001.sst", "000002.sst", "000003.vlog"})
	})
	if !ran {
		t.Fatal("the directory lock was not taken")
	}
	if err != nil || n != int64(len(want)) {
		t.Fatalf("folded %d bytes (%v), want %d", n, err, len(want))
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("folding changed the file")
	}
	if got, err := os.ReadFile(filepath.Join(dir, "000003.vlog")); err != nil || !bytes.Equal(got, small) {
		t.Fatalf("the small file changed (%v)", err)
	}
	// Large folios depend on the kernel and the file system: reported,
	// not required.
	after, sum1 := mappedFaults(t, path)
	if sum0 != sum1 {
		t.Fatalf("the mapping read %d, then %d", sum0, sum1)
	}
	t.Logf("faults to read a %d-byte file through a mapping: %d as written through one, %d after folding", len(want), before, after)
}

func TestFoldNotWhileOpen(t *testing.T) {
	dir := t.TempDir()
	// A read-only Badger handle in another process holds a shared lock on
	// the directory; this one is another open file description.
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	ran := false
	withDirLock(dir, func(*os.File) { ran = true })
	if ran {
		t.Fatal("folded while another handle had the store open")
	}
}

// TestFoldKilled kills a process folding a file, at random moments, and
// checks the file each time.
func TestFoldKilled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "000001.sst")
	want := writeMapped(t, path, 9<<20+7)
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 6 {
		cmd, out := startChild(t, "fold "+dir+" 000001.sst")
		if !out.Scan() {
			t.Fatalf("round %d: child did not fold", round)
		}
		time.Sleep(time.Duration(r.IntN(8000)) * time.Microsecond)
		cmd.Process.Kill()
		cmd.Wait()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: the file changed after a kill (%d bytes)", round, len(got))
		}
	}
}
