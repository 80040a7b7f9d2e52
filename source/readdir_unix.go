//go:build unix

package source

import (
	"io/fs"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// ReadDir is os.ReadDir whose entries already hold their Lstat
// information, taken relative to the open directory, so that Info costs
// nothing; an entry removed while the directory is read is left out. The
// analyzer asks every file of a repository for its size and time, and
// lore's sync every learning file; os.DirEntry.Info stats the full path,
// which the kernel walks component by component for each file: a large
// part of a re-index with nothing changed.
func ReadDir(dir string) ([]fs.DirEntry, error) { return readDir(dir, 0, make([]byte, direntBuf)) }

// direntBuf is the size of the buffer directory entries are read into.
const direntBuf = 8 << 10

// readDirNoFollow is ReadDir of a directory that must not be a symbolic
// link itself: it fails with ELOOP or ENOTDIR when it is one. buf holds
// at least direntBuf bytes.
func readDirNoFollow(dir string, buf []byte) ([]fs.DirEntry, error) {
	return readDir(dir, unix.O_NOFOLLOW, buf)
}

// readDir lists dir through a bare descriptor: os.Open would also try to
// register it with the poller and give it a finalizer, several system
// calls per directory of a walk that has little else to do.
func readDir(dir string, flags int, buf []byte) ([]fs.DirEntry, error) {
	var fd int
	err := retry(func() (err error) {
		fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|flags, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer func() { _ = unix.Close(fd) }() // only read
	// Names only: every entry is stat'ed below anyway.
	var names []string
	for {
		var n int
		if err := retry(func() (err error) { n, err = unix.ReadDirent(fd, buf); return err }); err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	slices.Sort(names)
	ents := make([]statEntry, 0, len(names))
	for _, name := range names {
		var st unix.Stat_t
		if retry(func() error { return unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) }) != nil {
			continue // removed meanwhile
		}
		ents = append(ents, statEntry{info: statInfo{
			name:    name,
			size:    st.Size,
			mode:    fileMode(uint32(st.Mode)),
			modTime: time.Unix(st.Mtim.Unix()),
		}})
	}
	// Pointers into one array: no allocation per entry.
	out := make([]fs.DirEntry, len(ents))
	for i := range ents {
		out[i] = &ents[i]
	}
	return out, nil
}

// retry calls fn again while it is interrupted by a signal.
func retry(fn func() error) error {
	for {
		if err := fn(); err != unix.EINTR {
			return err
		}
	}
}

// fileMode converts st_mode as package os does.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

type statInfo struct {
	name    string
	size    int64
	mode    fs.FileMode
	modTime time.Time
}

func (i *statInfo) Name() string       { return i.name }
func (i *statInfo) Size() int64        { return i.size }
func (i *statInfo) Mode() fs.FileMode  { return i.mode }
func (i *statInfo) ModTime() time.Time { return i.modTime }
func (i *statInfo) IsDir() bool        { return i.mode.IsDir() }
func (i *statInfo) Sys() any           { return nil }

type statEntry struct{ info statInfo }

func (e *statEntry) Name() string               { return e.info.name }
func (e *statEntry) IsDir() bool                { return e.info.IsDir() }
func (e *statEntry) Type() fs.FileMode          { return e.info.mode.Type() }
func (e *statEntry) Info() (fs.FileInfo, error) { return &e.info, nil }
func (e *statEntry) String() string             { return fs.FormatDirEntry(e) }
