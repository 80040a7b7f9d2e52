package source

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
)

// ErrEscape reports a symbolic link that resolves outside the repository.
var ErrEscape = errors.New("symlink resolves outside the repository")

// Dir returns the working tree rooted at root. Directory listings never
// include ".git" (files below it can still be opened by name, for example
// ".git/info/exclude"). Symbolic links are followed only when they resolve
// inside root; opening one that escapes fails with ErrEscape.
func Dir(root string) fs.FS {
	abs, err := filepath.Abs(root)
	if err == nil {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
	}
	return &dirFS{root: abs}
}

type dirFS struct {
	root string
	// inside caches directories (relative names) known to resolve inside
	// root without symlinks, so that a walk pays one lstat per directory
	// instead of resolving every path from the root.
	inside sync.Map
	// bufs holds buffers for directory entries, one per concurrent
	// ReadDir.
	bufs sync.Pool
	// tracked: the paths under root that git's index holds, in order
	// (the index's: by their bytes), one after another in names, each
	// ending at its ends entry; sparse: a sparse index's whole
	// directories. Read on first use.
	trackedOnce sync.Once
	names       []byte
	ends        []int
	sparse      []string
}

func (d *dirFS) join(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(d.root, filepath.FromSlash(name)), nil
}

// resolve returns the real path of name after following symbolic links and
// refuses it when that lies outside root. The fast path lstats the leaf and
// each directory above it not yet known to be a real directory (each such
// directory once per dirFS): a path with no symbolic link in it cannot
// leave root, since fs.ValidPath rules out "..". Only a path with a link
// somewhere in it pays for filepath.EvalSymlinks and the escape check.
func (d *dirFS) resolve(op, name string) (string, error) {
	full, err := d.join(op, name)
	if err != nil {
		return "", err
	}
	if name == "." {
		return d.root, nil
	}
	if d.realDir(path.Dir(name)) {
		if fi, err := os.Lstat(full); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			if fi.IsDir() {
				d.inside.Store(name, true)
			}
			return full, nil
		}
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", &fs.PathError{Op: op, Path: name, Err: unwrapPathErr(err)}
	}
	if real != d.root && !strings.HasPrefix(real, d.root+string(filepath.Separator)) {
		return "", &fs.PathError{Op: op, Path: name, Err: ErrEscape}
	}
	return real, nil
}

// realDir reports whether dir (a slash path relative to root) and every
// directory above it are directories, not symbolic links, remembering the
// ones found so.
func (d *dirFS) realDir(dir string) bool {
	if dir == "." {
		return true
	}
	if _, ok := d.inside.Load(dir); ok {
		return true
	}
	if !d.realDir(path.Dir(dir)) {
		return false
	}
	fi, err := os.Lstat(filepath.Join(d.root, filepath.FromSlash(dir)))
	if err != nil || !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
		return false
	}
	d.inside.Store(dir, true)
	return true
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (d *dirFS) Open(name string) (fs.File, error) {
	p, err := d.resolve("open", name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: unwrapPathErr(err)}
	}
	return dirFile{File: f}, nil
}

func (d *dirFS) ReadFile(name string) ([]byte, error) { return d.AppendFile(nil, name) }

// AppendFile appends the contents of the named file to dst and returns
// the extended slice; on error, dst unchanged. A file whose directories
// are known to be real directories is opened without following a link in
// its own place, without the lstat a resolved path costs; a link there is
// resolved like any other path, and refused when it leads out of root.
func (d *dirFS) AppendFile(dst []byte, name string) ([]byte, error) {
	if fs.ValidPath(name) && name != "." && d.realDir(path.Dir(name)) {
		b, err := appendFileNoFollow(dst, filepath.Join(d.root, filepath.FromSlash(name)))
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, syscall.ELOOP) && !errors.Is(err, errors.ErrUnsupported) {
			return dst, &fs.PathError{Op: "read", Path: name, Err: unwrapPathErr(err)}
		}
	}
	p, err := d.resolve("read", name)
	if err != nil {
		return dst, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return dst, &fs.PathError{Op: "read", Path: name, Err: unwrapPathErr(err)}
	}
	return append(dst, b...), nil
}

func (d *dirFS) Stat(name string) (fs.FileInfo, error) {
	p, err := d.resolve("stat", name)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: unwrapPathErr(err)}
	}
	return fi, nil
}

// ReadDir lists a directory without following links and without ".git".
// Entries for symbolic links report the link itself (type fs.ModeSymlink);
// callers that want the target use Stat, which refuses escapes.
func (d *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := d.readDir(name)
	if err != nil {
		return nil, err
	}
	out := ents[:0]
	for _, e := range ents {
		if e.Name() == ".git" {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// readDir lists name. A directory whose parents are known to be real
// directories is opened without following a link in its own place: a walk
// then pays no lstat per directory. Anything else is resolved first.
func (d *dirFS) readDir(name string) ([]fs.DirEntry, error) {
	if fs.ValidPath(name) && d.realDir(path.Dir(name)) {
		full := filepath.Join(d.root, filepath.FromSlash(name))
		buf, _ := d.bufs.Get().(*[]byte)
		if buf == nil {
			b := make([]byte, direntBuf)
			buf = &b
		}
		ents, err := readDirNoFollow(full, *buf)
		d.bufs.Put(buf)
		if err == nil {
			if name != "." {
				d.inside.Store(name, true)
			}
			return ents, nil
		}
		var pe *fs.PathError
		if errors.As(err, &pe) && !errors.Is(err, syscall.ELOOP) && !errors.Is(err, syscall.ENOTDIR) {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: pe.Err}
		}
	}
	p, err := d.resolve("readdir", name)
	if err != nil {
		return nil, err
	}
	ents, err := ReadDir(p)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: unwrapPathErr(err)}
	}
	return ents, nil
}

// dirFile wraps *os.File so ReadDir on an opened directory hides ".git" too.
type dirFile struct{ *os.File }

func (f dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	ents, err := f.File.ReadDir(n)
	out := ents[:0]
	for _, e := range ents {
		if e.Name() != ".git" {
			out = append(out, e)
		}
	}
	return out, err
}

// Tracked reports whether git tracks the file name, or a file below the
// directory name: whether the index of the repository whose work tree
// holds the root lists it. analyzer.Walk lists such a file even where
// .gitignore matches it, as git does. The index ($GIT_INDEX_FILE when
// set, as in Repo.Index) is read on first use, its paths only; outside a
// repository nothing is tracked.
func (d *dirFS) Tracked(name string) bool {
	d.trackedOnce.Do(d.readTracked)
	path := func(k int) string {
		start := 0
		if k > 0 {
			start = d.ends[k-1]
		}
		return string(d.names[start:d.ends[k]])
	}
	// name itself, or the first path below it ("a/" sorts after "a-b").
	if k := sort.Search(len(d.ends), func(k int) bool { return path(k) >= name }); k < len(d.ends) && path(k) == name {
		return true
	}
	dir := name + "/"
	if k := sort.Search(len(d.ends), func(k int) bool { return path(k) >= dir }); k < len(d.ends) && strings.HasPrefix(path(k), dir) {
		return true
	}
	for _, dir := range d.sparse {
		if name == dir || strings.HasPrefix(name, dir+"/") || strings.HasPrefix(dir, name+"/") {
			return true
		}
	}
	return false
}

// readTracked reads the paths of git's index that lie under root.
func (d *dirFS) readTracked() {
	gitDir, top, err := findGitDir(d.root)
	if err != nil {
		return
	}
	prefix, err := filepath.Rel(top, d.root)
	if err != nil || strings.HasPrefix(prefix, "..") {
		return
	}
	prefix = filepath.ToSlash(prefix) + "/"
	if prefix == "./" {
		prefix = ""
	}
	file := os.Getenv("GIT_INDEX_FILE")
	if file == "" {
		file = filepath.Join(gitDir, "index")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return
	}
	sorted, last := true, 0 // last: where the previous path starts
	err = eachIndexEntry(data, func(_, _ uint32, fixed, name []byte) {
		rest, ok := bytes.CutPrefix(name, []byte(prefix))
		switch {
		case !ok:
		case binary.BigEndian.Uint32(fixed[24:28])&0o170000 == 0o040000: // a sparse index's whole directory
			d.sparse = append(d.sparse, string(bytes.TrimSuffix(rest, []byte("/"))))
		default:
			// Git keeps its entries sorted by path; the search needs it.
			sorted = sorted && bytes.Compare(d.names[last:], rest) <= 0
			last = len(d.names)
			d.names = append(d.names, rest...)
			d.ends = append(d.ends, len(d.names))
		}
	})
	if err != nil || !sorted {
		d.names, d.ends, d.sparse = nil, nil, nil // unread: nothing is tracked
	}
}

func (d *dirFS) String() string { return fmt.Sprintf("source.Dir(%s)", d.root) }
