package analyzer

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// DefaultMaxFileSize is the size above which files are skipped.
const DefaultMaxFileSize = 1 << 20

// WalkOptions configure Walk.
type WalkOptions struct {
	// Ignore holds extra gitignore-style patterns (from config.yaml),
	// applied from the repository root.
	Ignore []string
	// MaxFileSize skips larger files; 0 means DefaultMaxFileSize,
	// negative means no limit.
	MaxFileSize int64
	// Workers lists directories in parallel (the walk is bound by system
	// calls); 0 means GOMAXPROCS, 1 walks on the calling goroutine only.
	Workers int
}

// Entry is a file found by Walk.
type Entry struct {
	Path    string
	Size    int64
	ModTime int64 // Unix nanoseconds; 0 when the source has no times
}

// Skip is a file Walk or Update left out, and why.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Walk lists the files of a source that lore indexes: everything not
// ignored by .gitignore files (at every level), .git/info/exclude and
// opts.Ignore, not larger than the size limit, not under .git or .lore,
// and not a symbolic link leading out of the repository or to a directory.
// A file git tracks is listed whatever .gitignore and .git/info/exclude
// say (they keep only untracked files out of git), when the source tells
// (a git tree or index tracks all its files; a working tree from
// source.Dir asks git's index); opts.Ignore applies to it too.
// Files come in directory order (each directory sorted by name). It works
// on any fs.FS, with or without git. Binary files are left to the caller
// (Update skips them after reading their first bytes).
func Walk(ctx context.Context, fsys fs.FS, opts WalkOptions) ([]Entry, []Skip, error) {
	max := opts.MaxFileSize
	if max == 0 {
		max = DefaultMaxFileSize
	}
	var root, own []gitignore.Pattern
	if b, err := fs.ReadFile(fsys, ".git/info/exclude"); err == nil {
		root = appendPatterns(root, b, nil)
	}
	for _, p := range opts.Ignore {
		own = appendPatterns(own, []byte(p), nil)
	}
	w := &walkState{ctx: ctx, fsys: fsys, max: max, own: gitignore.NewMatcher(own)}
	if t, ok := fsys.(trackedFS); ok {
		w.tracked = t.Tracked
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > 1 {
		w.sem = make(chan struct{}, workers-1)
	}
	var out walkOut
	if err := w.dir(".", nil, root, &out); err != nil {
		return nil, nil, err
	}
	nf, ns := out.count()
	files, skips := out.flatten(make([]Entry, 0, nf), make([]Skip, 0, ns))
	return files, skips, nil
}

type walkState struct {
	ctx     context.Context
	fsys    fs.FS
	max     int64
	own     gitignore.Matcher      // WalkOptions.Ignore
	tracked func(name string) bool // the source's trackedFS; nil: nothing is
	sem     chan struct{}          // extra goroutines allowed; nil: sequential
}

// trackedFS is a source that knows which of its paths git tracks: a file
// git tracks, or a directory holding one.
type trackedFS interface {
	Tracked(name string) bool
}

// skipped reports whether the walk leaves out p (sub, its components): an
// extra pattern matches it, or git's ignore rules do and git does not
// track it.
func (w *walkState) skipped(m gitignore.Matcher, sub []string, p string, isDir bool) bool {
	if w.own.Match(sub, isDir) {
		return true
	}
	return m.Match(sub, isDir) && (w.tracked == nil || !w.tracked(p))
}

// walkOut collects one directory's results, then its subtrees' in name
// order, so that the result does not depend on scheduling. The tree is
// flattened once at the end: appending each subtree into its parent
// would copy every entry once per level, in fresh memory.
type walkOut struct {
	files []Entry
	skips []Skip
	subs  []*walkOut
}

// count returns the number of files and skips in the tree.
func (o *walkOut) count() (files, skips int) {
	files, skips = len(o.files), len(o.skips)
	for _, s := range o.subs {
		f, k := s.count()
		files += f
		skips += k
	}
	return files, skips
}

// flatten appends the tree's files and skips, in order.
func (o *walkOut) flatten(files []Entry, skips []Skip) ([]Entry, []Skip) {
	files = append(files, o.files...)
	skips = append(skips, o.skips...)
	for _, s := range o.subs {
		files, skips = s.flatten(files, skips)
	}
	return files, skips
}

func appendPatterns(ps []gitignore.Pattern, b []byte, domain []string) []gitignore.Pattern {
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

func (w *walkState) dir(dir string, parts []string, ps []gitignore.Pattern, out *walkOut) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	ents, err := fs.ReadDir(w.fsys, dir)
	if err != nil {
		if dir == "." {
			return err
		}
		out.skips = append(out.skips, Skip{Path: dir, Reason: "unreadable directory: " + err.Error()})
		return nil
	}
	for _, e := range ents {
		if e.Name() == ".gitignore" && !e.IsDir() {
			if b, err := fs.ReadFile(w.fsys, path.Join(dir, ".gitignore")); err == nil {
				ps = appendPatterns(ps[:len(ps):len(ps)], b, parts)
			}
			break
		}
	}
	m := gitignore.NewMatcher(ps)
	type subtree struct {
		out  walkOut
		err  error
		done chan struct{}
	}
	var subs []*subtree // in name order, merged after this directory's files
	// The path as components, for the matcher: one slice for the files
	// of this directory, a copy for each subdirectory (its walk keeps it).
	sub := append(parts[:len(parts):len(parts)], "")
	for _, e := range ents {
		name := e.Name()
		if name == ".git" || (dir == "." && name == ".lore") {
			continue
		}
		p := name
		if dir != "." {
			p = dir + "/" + name
		}
		if !utf8.ValidString(name) {
			// io/fs names files by valid UTF-8 paths only: no source
			// could read it, so no run sees it, whatever it reads.
			out.skips = append(out.skips, Skip{Path: p, Reason: "name is not valid UTF-8"})
			continue
		}
		sub[len(parts)] = name
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err := fs.Stat(w.fsys, p)
			if err != nil {
				reason := "broken symlink"
				if errors.Is(err, fs.ErrInvalid) || strings.Contains(err.Error(), "outside") {
					reason = "symlink outside the repository"
				}
				out.skips = append(out.skips, Skip{Path: p, Reason: reason})
				continue
			}
			if fi.IsDir() {
				if !w.skipped(m, sub, p, true) {
					out.skips = append(out.skips, Skip{Path: p, Reason: "symlink to a directory"})
				}
				continue
			}
			if w.skipped(m, sub, p, false) {
				continue
			}
			w.add(out, p, fi)
			continue
		}
		if w.skipped(m, sub, p, isDir) {
			continue
		}
		if isDir {
			s := &subtree{done: make(chan struct{})}
			subs = append(subs, s)
			select {
			case w.sem <- struct{}{}:
				go func(p string, parts []string) {
					defer func() { <-w.sem; close(s.done) }()
					s.err = w.dir(p, parts, ps, &s.out)
				}(p, slices.Clone(sub))
			default:
				s.err = w.dir(p, slices.Clone(sub), ps, &s.out)
				close(s.done)
			}
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		w.add(out, p, fi)
	}
	var firstErr error
	for _, s := range subs {
		<-s.done
		if s.err != nil && firstErr == nil {
			firstErr = s.err
		}
		out.subs = append(out.subs, &s.out)
	}
	return firstErr
}

func (w *walkState) add(out *walkOut, p string, fi fs.FileInfo) {
	if w.max > 0 && fi.Size() > w.max {
		out.skips = append(out.skips, Skip{Path: p, Reason: "larger than the size limit"})
		return
	}
	var mt int64
	if t := fi.ModTime(); !t.IsZero() {
		mt = t.UnixNano()
	}
	out.files = append(out.files, Entry{Path: p, Size: fi.Size(), ModTime: mt})
}

// isBinary reports content that is not text: a NUL byte in the first 8000
// bytes, as git decides.
func isBinary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	return bytes.IndexByte(b, 0) >= 0
}
