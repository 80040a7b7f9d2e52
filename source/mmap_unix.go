//go:build unix

package source

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only; release undoes it.
func mapFile(f *os.File, size int64) (data []byte, release func() error, err error) {
	if size <= 0 {
		return nil, func() error { return nil }, nil
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
