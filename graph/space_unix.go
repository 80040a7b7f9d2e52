//go:build unix

package graph

import "golang.org/x/sys/unix"

// freeSpace returns the bytes an unprivileged writer may still use on the
// file system holding dir; ok is false when that is unknown.
func freeSpace(dir string) (free uint64, ok bool) {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
