package graph

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// foldChunk is the size of each rewrite: one huge page, so that the page
// cache can hold the bytes written as one 2 MiB folio.
const foldChunk = 2 << 20

// foldFiles rewrites each named file of the directory d with the bytes it
// already holds, foldChunk at a time, after dropping those bytes from the
// page cache, and leaves files under foldMin alone. It returns how many
// bytes it rewrote.
//
// Badger writes tables and value logs through shared mappings, which
// leaves them in the page cache as 4 KiB folios, and every later process
// that maps them faults them in 16 pages at a time (the kernel's
// fault-around). Written back in large writes on a file system with large
// folios (ext4 and XFS on Linux 6.x), the same bytes sit in folios of up
// to 2 MiB that one fault maps whole: a 15 MiB table then takes 12 faults
// to read instead of 248, at 25–55 µs a fault on the machine of
// BENCHMARKS.md. Elsewhere it only costs the rewrite. Either way a folded
// table reaches the disk twice: the kernel writes the rewritten pages back
// later, with the bytes already there.
//
// The caller holds Badger's directory lock, so no process has the files
// open through Badger and none truncates or deletes them meanwhile. The
// bytes never change: a reader that maps a file at the same time, a kill
// in the middle or a failed write leaves every file as valid as it was,
// and pages another process still maps are not dropped and simply stay
// as they are.
func foldFiles(d *os.File, names []string) (int64, error) {
	var buf []byte // mapped for the first file worth folding
	defer func() {
		if buf != nil {
			unix.Munmap(buf)
		}
	}()
	var total int64
	for _, name := range names {
		n, err := foldFile(int(d.Fd()), name, &buf)
		total += n
		if err != nil {
			return total, fmt.Errorf("fold %s: %w", name, err)
		}
	}
	return total, nil
}

// foldMin is the smallest file foldFiles rewrites: fault-around already
// maps 64 KiB a fault, so a smaller file gains next to nothing.
const foldMin = 256 << 10

func foldFile(dir int, name string, buf *[]byte) (int64, error) {
	fd, err := unix.Openat(dir, name, unix.O_RDWR|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if errors.Is(err, unix.ENOENT) {
		return 0, nil // compacted or collected meanwhile
	}
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size < foldMin {
		return 0, nil
	}
	if *buf == nil {
		b, err := unix.Mmap(-1, 0, foldChunk, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
		if err != nil {
			return 0, err
		}
		unix.Madvise(b, unix.MADV_HUGEPAGE) // one fault instead of 512; advice only
		*buf = b
	}
	var off int64
	for off < st.Size {
		n, err := preadFull(fd, (*buf)[:min(int64(len(*buf)), st.Size-off)], off)
		if err != nil {
			return off, err
		}
		if n == 0 {
			break // shorter than it was: nothing more to rewrite
		}
		if err := unix.Fadvise(fd, off, int64(n), unix.FADV_DONTNEED); err != nil {
			return off, err
		}
		if err := pwriteFull(fd, (*buf)[:n], off); err != nil {
			return off, err
		}
		off += int64(n)
	}
	return off, nil
}

func preadFull(fd int, b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		m, err := unix.Pread(fd, b[n:], off+int64(n))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return n, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return n, nil
}

func pwriteFull(fd int, b []byte, off int64) error {
	for len(b) > 0 {
		m, err := unix.Pwrite(fd, b, off)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b, off = b[m:], off+int64(m)
	}
	return nil
}
