//go:build unix

package source

import (
	"io/fs"
	"slices"

	"golang.org/x/sys/unix"
)

// appendFileNoFollow appends the contents of the file at full to dst. It
// fails with ELOOP when full is a symbolic link. The file is read through
// a bare descriptor, as readDir lists directories: os.Open would also try
// to register it with the poller (four fcntl and an epoll_ctl on a regular
// file) and give it a finalizer. A dst without room for the file is grown
// once, to the size fstat gives.
func appendFileNoFollow(dst []byte, full string) ([]byte, error) {
	var fd int
	err := retry(func() (err error) {
		// O_NONBLOCK: opening a named pipe must not wait for a writer.
		fd, err = unix.Open(full, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
		return err
	})
	if err != nil {
		return dst, &fs.PathError{Op: "open", Path: full, Err: err}
	}
	defer func() { _ = unix.Close(fd) }() // only read
	if cap(dst)-len(dst) < 512 {
		var st unix.Stat_t
		if retry(func() error { return unix.Fstat(fd, &st) }) == nil && st.Size > 0 && st.Size < 1<<40 {
			dst = slices.Grow(dst, int(st.Size)+1)
		}
	}
	for {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, max(512, len(dst)))
		}
		var n int
		err := retry(func() (err error) {
			n, err = unix.Read(fd, dst[len(dst):cap(dst)])
			return err
		})
		if err == unix.EAGAIN { // a named pipe without data
			return dst, nil
		}
		if err != nil {
			return dst, &fs.PathError{Op: "read", Path: full, Err: err}
		}
		if n == 0 {
			return dst, nil
		}
		dst = dst[:len(dst)+n]
	}
}
