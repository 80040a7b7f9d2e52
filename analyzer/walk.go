package analyzer

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path"
	"runtime"
	"strings"

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
// Files come in directory order (each directory sorted by name). It works
// on any fs.FS, with or without git. Binary files are left to the caller
// (Update skips them after reading their first bytes).
func Walk(ctx context.Context, fsys fs.FS, opts WalkOptions) ([]Entry, []Skip, error) {
	max := opts.MaxFileSize
	if max == 0 {
		max = DefaultMaxFileSize
	}
	var root []gitignore.Pattern
	if b, err := fs.ReadFile(fsys, ".git/info/exclude"); err == nil {
		root = appendPatterns(root, b, nil)
	}
	for _, p := range opts.Ignore {
		root = appendPatterns(root, []byte(p), nil)
	}
	w := &walkState{ctx: ctx, fsys: fsys, max: max}
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
	return out.files, out.skips, nil
}

type walkState struct {
	ctx  context.Context
	fsys fs.FS
	max  int64
	sem  chan struct{} // extra goroutines allowed; nil: sequential
}

// walkOut collects one subtree's results; subtrees walked in parallel
// are merged in name order so the result does not depend on scheduling.
type walkOut struct {
	files []Entry
	skips []Skip
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
	for _, e := range ents {
		name := e.Name()
		if name == ".git" || (dir == "." && name == ".lore") {
			continue
		}
		p := name
		if dir != "." {
			p = dir + "/" + name
		}
		sub := append(parts[:len(parts):len(parts)], name)
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
				if !m.Match(sub, true) {
					out.skips = append(out.skips, Skip{Path: p, Reason: "symlink to a directory"})
				}
				continue
			}
			if m.Match(sub, false) {
				continue
			}
			w.add(out, p, fi)
			continue
		}
		if m.Match(sub, isDir) {
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
				}(p, sub)
			default:
				s.err = w.dir(p, sub, ps, &s.out)
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
		out.files = append(out.files, s.out.files...)
		out.skips = append(out.skips, s.out.skips...)
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
