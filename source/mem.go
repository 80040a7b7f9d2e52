package source

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// memFS is a read-only tree of files whose content is loaded on demand.
// Git sources (index, commit trees) and overlays are built on it.
type memFS struct {
	files map[string]*memEntry
	dirs  map[string][]string // dir -> sorted child names (files and dirs)
}

type memEntry struct {
	size    int64
	mode    fs.FileMode
	modTime time.Time
	load    func() ([]byte, error)
	// sizeOf, when set, computes size on first use: asking git for the
	// size of every blob of a tree up front is slow on large trees, and
	// most callers read only a few files.
	sizeOf   func() int64
	sizeOnce sync.Once
}

func (e *memEntry) fileSize() int64 {
	if e.sizeOf != nil {
		e.sizeOnce.Do(func() { e.size = e.sizeOf() })
	}
	return e.size
}

func newMemFS() *memFS {
	return &memFS{files: map[string]*memEntry{}, dirs: map[string][]string{".": nil}}
}

func (m *memFS) add(name string, e *memEntry) {
	if _, ok := m.files[name]; !ok {
		m.link(name)
	}
	m.files[name] = e
}

// link records name in its parent directory, creating parents as needed.
func (m *memFS) link(name string) {
	for name != "." {
		dir := path.Dir(name)
		_, existed := m.dirs[dir]
		m.dirs[dir] = append(m.dirs[dir], path.Base(name))
		if existed {
			return
		}
		name = dir
	}
}

func (m *memFS) finish() {
	for d, kids := range m.dirs {
		sort.Strings(kids)
		out := kids[:0]
		for i, k := range kids {
			if i == 0 || k != kids[i-1] {
				out = append(out, k)
			}
		}
		m.dirs[d] = out
	}
}

func (m *memFS) stat(name string) (fs.FileInfo, error) {
	if e, ok := m.files[name]; ok {
		return memInfo{name: path.Base(name), e: e}, nil
	}
	if _, ok := m.dirs[name]; ok {
		return memInfo{name: path.Base(name), dir: true}, nil
	}
	return nil, fs.ErrNotExist
}

func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	fi, err := m.stat(name)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return fi, nil
}

func (m *memFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	e, ok := m.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	b, err := e.load()
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}

func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	kids, ok := m.dirs[name]
	if !ok {
		if _, isFile := m.files[name]; isFile {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, 0, len(kids))
	for _, k := range kids {
		fi, _ := m.stat(path.Join(name, k))
		out = append(out, fs.FileInfoToDirEntry(fi))
	}
	return out, nil
}

func (m *memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if e, ok := m.files[name]; ok {
		b, err := e.load()
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &memFile{info: memInfo{name: path.Base(name), e: e}, r: bytes.NewReader(b)}, nil
	}
	if _, ok := m.dirs[name]; ok {
		ents, _ := m.ReadDir(name)
		return &memDir{info: memInfo{name: path.Base(name), dir: true}, ents: ents}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

type memInfo struct {
	name string
	dir  bool
	e    *memEntry
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64 {
	if i.e == nil {
		return 0
	}
	return i.e.fileSize()
}
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return i.e.mode
}
func (i memInfo) ModTime() time.Time {
	if i.e == nil {
		return time.Time{}
	}
	return i.e.modTime
}
func (i memInfo) IsDir() bool { return i.dir }
func (i memInfo) Sys() any    { return nil }

type memFile struct {
	info memInfo
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

type memDir struct {
	info memInfo
	ents []fs.DirEntry
	off  int
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: fs.ErrInvalid}
}
func (d *memDir) Close() error { return nil }
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.ents[d.off:]
	if n <= 0 {
		d.off = len(d.ents)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if n > len(rest) {
		n = len(rest)
	}
	d.off += n
	return rest[:n], nil
}

// cleanRel turns a git path into an fs.FS path, or "" when it is unusable.
func cleanRel(p string) string {
	p = strings.TrimPrefix(p, "/")
	if !fs.ValidPath(p) || p == "." {
		return ""
	}
	return p
}

// Tracked reports that git tracks every file of a git tree or index (see
// dirFS.Tracked).
func (m *memFS) Tracked(string) bool { return true }

// Tracked: as the memFS's.
func (s *subFS) Tracked(string) bool { return true }

// Sub returns the files under dir, as fs.Sub does, keeping the direct
// ReadFile, Stat and ReadDir that fs.Sub's generic wrapper would turn into
// Open (which reads a git blob whole). A workspace in a subdirectory of
// its repository reads git's index and trees through it.
func (m *memFS) Sub(dir string) (fs.FS, error) {
	if !fs.ValidPath(dir) {
		return nil, &fs.PathError{Op: "sub", Path: dir, Err: fs.ErrInvalid}
	}
	if dir == "." {
		return m, nil
	}
	return &subFS{m: m, dir: dir}, nil
}

type subFS struct {
	m   *memFS
	dir string
}

func (s *subFS) full(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return path.Join(s.dir, name), nil
}

// rel turns an error about a full path back into one about name.
func rel(err error, name string) error {
	if pe, ok := err.(*fs.PathError); ok {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return err
}

func (s *subFS) Open(name string) (fs.File, error) {
	full, err := s.full("open", name)
	if err != nil {
		return nil, err
	}
	f, err := s.m.Open(full)
	return f, rel(err, name)
}

func (s *subFS) Stat(name string) (fs.FileInfo, error) {
	full, err := s.full("stat", name)
	if err != nil {
		return nil, err
	}
	fi, err := s.m.Stat(full)
	if err == nil && name == "." {
		fi = memInfo{name: ".", dir: true}
	}
	return fi, rel(err, name)
}

func (s *subFS) ReadFile(name string) ([]byte, error) {
	full, err := s.full("read", name)
	if err != nil {
		return nil, err
	}
	b, err := s.m.ReadFile(full)
	return b, rel(err, name)
}

func (s *subFS) ReadDir(name string) ([]fs.DirEntry, error) {
	full, err := s.full("readdir", name)
	if err != nil {
		return nil, err
	}
	ents, err := s.m.ReadDir(full)
	return ents, rel(err, name)
}
