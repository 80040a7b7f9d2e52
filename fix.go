package lore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/internal/udiff"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/source"
)

// anchorFix is one baseline --fix rewrites: the anchor as verified and the
// anchor re-baselined where its code is now.
type anchorFix struct {
	learning string
	path     string // the learning file, relative to the workspace root
	old, new anchors.Anchor
}

// applyFixes replaces, in l, every anchor equal to a fix's old anchor (the
// same spec and baseline) by its new one. An anchor is found by what it is,
// never by its position alone: the file may have changed since it was
// verified (a person removed an anchor above it), and then only anchors
// still as verified are rewritten. It reports whether l changed.
func applyFixes(l *learnfile.Learning, fixes []anchorFix) bool {
	changed := false
	for i, a := range l.Anchors {
		for _, f := range fixes {
			if a == f.old && a != f.new {
				l.Anchors[i] = f.new
				changed = true
				break
			}
		}
	}
	return changed
}

// rewrite applies fixes to the learning file data (named p in errors) and
// returns the new content, or nil when nothing changed.
func rewrite(p string, data []byte, fixes []anchorFix, now time.Time) ([]byte, error) {
	l, err := learnfile.Parse(p, data)
	if err != nil {
		return nil, err
	}
	if !applyFixes(l, fixes) {
		return nil, nil
	}
	l.Updated = now
	return l.Marshal()
}

// fix writes the new baselines of fixes (see VerifyOptions.Fix and DryRun)
// and records what it did in rep.
func (w *Workspace) fix(ctx context.Context, vs *verifySource, opts VerifyOptions, fixes []anchorFix, rep *VerifyReport) error {
	if len(fixes) == 0 {
		return nil
	}
	byPath := map[string][]anchorFix{}
	var paths []string
	for _, f := range fixes {
		if byPath[f.path] == nil {
			paths = append(paths, f.path)
		}
		byPath[f.path] = append(byPath[f.path], f)
	}
	sort.Strings(paths)
	now := time.Now().UTC().Truncate(time.Second)
	prefix := ""
	if vs.git != nil {
		prefix = vs.git.prefix
	}

	if opts.Staged && !opts.DryRun {
		if msg := partialCommit(vs); msg != "" {
			rep.Notices = append(rep.Notices, msg)
			return nil
		}
	}
	// Everything is computed before anything is written: a learning file
	// that cannot be rewritten stops the fix with both versions intact.
	var work []*learnfile.Learning // working copies to write
	var stage []stagedFix
	var patch strings.Builder
	for _, p := range paths {
		fx := byPath[p]
		data, err := os.ReadFile(filepath.Join(w.root, filepath.FromSlash(p)))
		if err != nil {
			return fmt.Errorf("fix %s: %w", p, err)
		}
		l, err := learnfile.Parse(p, data)
		if err != nil {
			return fmt.Errorf("cannot fix baselines in %s: it does not parse (%v); fix the file and run lore verify --fix again", p, err)
		}
		l.Path = p
		if applyFixes(l, fx) {
			l.Updated = now
			if opts.DryRun {
				out, err := l.Marshal()
				if err != nil {
					return fmt.Errorf("fix %s: %w", p, err)
				}
				patch.WriteString(udiff.Unified("a/"+prefix+p, "b/"+prefix+p, string(data), string(out)))
			} else {
				work = append(work, l)
			}
			rep.Fixed = append(rep.Fixed, p)
		}
		if !opts.Staged || opts.DryRun {
			continue
		}
		old, err := fs.ReadFile(vs.files, p)
		if errors.Is(err, fs.ErrNotExist) {
			continue // not in the index: the commit does not carry this learning
		}
		if err != nil {
			return fmt.Errorf("fix %s: read the staged version: %w", p, err)
		}
		out, err := rewrite(p, old, fx, now)
		if err != nil {
			return fmt.Errorf("cannot fix baselines in the staged version of %s (%v): nothing was changed; fix and stage it, or commit with --no-verify", p, err)
		}
		if out == nil {
			continue
		}
		mode := "100644"
		if fi, err := fs.Stat(vs.files, p); err == nil && fi.Mode()&0o111 != 0 {
			mode = "100755"
		}
		stage = append(stage, stagedFix{p, mode, out})
		if !slices.Contains(rep.Fixed, p) {
			rep.Fixed = append(rep.Fixed, p)
		}
	}
	rep.Patch = patch.String()
	if opts.DryRun {
		return nil
	}
	// The staged blobs first: writing objects changes nothing a person
	// sees, and a failure here leaves every file as it was. Then the
	// working copies (each replaced whole), then the index in one update
	// (git's own lock makes it all or nothing). A crash in between leaves
	// lore's change in the working copy, unstaged; the next run stages it.
	ids, err := w.hashObjects(ctx, stage)
	if err != nil {
		return err
	}
	if err := w.writeLearnings(work); err != nil {
		return err
	}
	if len(stage) > 0 {
		var info strings.Builder
		for i, s := range stage {
			fmt.Fprintf(&info, "%s %s\t%s%s\n", s.mode, ids[i], prefix, s.path)
		}
		args := []string{"-C", vs.git.repo.Root(), "update-index", "--index-info"}
		if _, err := w.gitIn(ctx, []byte(info.String()), args...); err != nil {
			return fmt.Errorf("the working copies of %s have the new baselines but they could not be staged (%w): stage lore's change with git add -p", strings.Join(rep.Fixed, ", "), err)
		}
	}
	return nil
}

// stagedFix is the new content of a learning file's staged version.
type stagedFix struct {
	path string // relative to the workspace root
	mode string // git's file mode, 100644 or 100755
	data []byte
}

// hashObjects writes each content as a blob into git's object store with
// one git process and returns the blobs' ids.
func (w *Workspace) hashObjects(ctx context.Context, fixes []stagedFix) ([]string, error) {
	if len(fixes) == 0 {
		return nil, nil
	}
	tmp, err := os.MkdirTemp("", "lore-fix-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var paths strings.Builder
	for i, f := range fixes {
		p := filepath.Join(tmp, fmt.Sprint(i))
		if err := os.WriteFile(p, f.data, 0o600); err != nil {
			return nil, err
		}
		paths.WriteString(p + "\n")
	}
	out, err := w.gitIn(ctx, []byte(paths.String()), "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return nil, fmt.Errorf("fix: store the staged learning files: %w", err)
	}
	ids := strings.Fields(string(out))
	if len(ids) != len(fixes) {
		return nil, fmt.Errorf("fix: git hash-object gave %d ids for %d files", len(ids), len(fixes))
	}
	return ids, nil
}

// partialCommit returns why the index cannot carry lore's fixes, or "".
// `git commit PATHS` commits from a temporary index (GIT_INDEX_FILE) while
// the real index stays locked: a fix staged in the temporary index would go
// into the commit but not into the real index, which would then hold the
// old baselines as a staged change undoing the fix.
func partialCommit(vs *verifySource) string {
	file := os.Getenv("GIT_INDEX_FILE")
	if file == "" || vs.git == nil {
		return ""
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	gitDir, _, err := source.GitDir(vs.git.repo.Root())
	if err != nil {
		return ""
	}
	abs = evalSymlinks(filepath.Dir(abs)) + string(filepath.Separator) + filepath.Base(abs)
	real := filepath.Join(evalSymlinks(gitDir), "index")
	if abs == real || abs == real+".lock" {
		return ""
	}
	return "anchors moved, but `git commit PATHS` locks git's index, so their new baselines are not in this commit: run lore verify --fix and commit .lore/learnings afterwards"
}
