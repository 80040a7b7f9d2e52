package verify

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
	"github.com/lorehq/lore/internal/catalog"
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

// FixOptions configure Fix.
type FixOptions struct {
	// Staged rewrites the staged version of each learning file and its
	// working copy separately, so that the commit carries exactly lore's
	// change and unstaged edits stay unstaged.
	Staged bool
	// DryRun writes nothing: Fixed.Patch holds the unified diff that the
	// fix would apply.
	DryRun bool
	// Wrote, when not nil, is told of the learning files as soon as their
	// working copies are written.
	Wrote func([]*learnfile.Learning)
}

// Fixed says what Fix did.
type Fixed struct {
	Files   []string // the learning files rewritten (with DryRun: that would be)
	Patch   string   // with DryRun: the unified diff, paths from the work tree's top
	Notices []string // what a person should know, such as fixes left undone
}

// Fix rewrites the baselines of the anchors of run that were relocated or
// reformatted (never of drifted ones) in their learning files, and bumps
// their updated time.
func Fix(ctx context.Context, run *Run, opts FixOptions) (*Fixed, error) {
	rep := &Fixed{}
	var fixes []anchorFix
	k := 0
	for bi, bl := range run.batch {
		for range bl.Anchors {
			if a, ok := anchors.Fix(run.Anchors[k]); ok {
				fixes = append(fixes, anchorFix{learning: bl.ID, path: run.paths[bi], old: run.verified[k], new: a})
			}
			k++
		}
	}
	if len(fixes) == 0 {
		return rep, nil
	}
	vs := run.src
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

	// `git commit PATHS` commits from a temporary index (GIT_INDEX_FILE)
	// while the real index stays locked: a fix staged in the temporary
	// index would go into the commit but not into the real index, which
	// would then hold the old baselines as a staged change undoing the fix.
	if opts.Staged && !opts.DryRun && vs.git != nil && vs.git.repo.TemporaryIndex() {
		rep.Notices = append(rep.Notices, "anchors moved, but `git commit PATHS` locks git's index, so their new baselines are not in this commit: run lore verify --fix and commit .lore/learnings afterwards")
		return rep, nil
	}
	// Everything is computed before anything is written: a learning file
	// that cannot be rewritten stops the fix with both versions intact.
	var work []*learnfile.Learning // working copies to write
	var stage []source.Staged      // the staged versions to write, and their blobs
	var blobs [][]byte
	var patch strings.Builder
	for _, p := range paths {
		fx := byPath[p]
		data, err := os.ReadFile(filepath.Join(run.root, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("fix %s: %w", p, err)
		}
		l, err := learnfile.Parse(p, data)
		if err != nil {
			return nil, fmt.Errorf("cannot fix baselines in %s: it does not parse (%v); fix the file and run lore verify --fix again", p, err)
		}
		l.Path = p
		if applyFixes(l, fx) {
			l.Updated = now
			if opts.DryRun {
				out, err := l.Marshal()
				if err != nil {
					return nil, fmt.Errorf("fix %s: %w", p, err)
				}
				patch.WriteString(udiff.Unified("a/"+prefix+p, "b/"+prefix+p, string(data), string(out)))
			} else {
				work = append(work, l)
			}
			rep.Files = append(rep.Files, p)
		}
		if !opts.Staged || opts.DryRun {
			continue
		}
		old, err := fs.ReadFile(vs.Files, p)
		if errors.Is(err, fs.ErrNotExist) {
			continue // not in the index: the commit does not carry this learning
		}
		if err != nil {
			return nil, fmt.Errorf("fix %s: read the staged version: %w", p, err)
		}
		out, err := rewrite(p, old, fx, now)
		if err != nil {
			return nil, fmt.Errorf("cannot fix baselines in the staged version of %s (%v): nothing was changed; fix and stage it, or commit with --no-verify", p, err)
		}
		if out == nil {
			continue
		}
		mode := fs.FileMode(0o644)
		if fi, err := fs.Stat(vs.Files, p); err == nil && fi.Mode()&0o111 != 0 {
			mode = 0o755
		}
		stage = append(stage, source.Staged{Path: prefix + p, Mode: mode})
		blobs = append(blobs, out)
		if !slices.Contains(rep.Files, p) {
			rep.Files = append(rep.Files, p)
		}
	}
	rep.Patch = patch.String()
	if opts.DryRun {
		return rep, nil
	}
	// The staged blobs first: writing objects changes nothing a person
	// sees, and a failure here leaves every file as it was. Then the
	// working copies (each replaced whole), then the index in one update
	// (git's own lock makes it all or nothing). A crash in between leaves
	// lore's change in the working copy, unstaged; the next run stages it.
	if len(stage) > 0 {
		ids, err := vs.git.repo.WriteBlobs(ctx, blobs)
		if err != nil {
			return nil, fmt.Errorf("fix: store the staged learning files: %w", err)
		}
		for i := range stage {
			stage[i].Blob = ids[i]
		}
	}
	if len(work) > 0 {
		if err := catalog.WriteLearnings(run.root, work); err != nil {
			return nil, err
		}
		if opts.Wrote != nil {
			opts.Wrote(work)
		}
	}
	if len(stage) > 0 {
		if err := vs.git.repo.Stage(ctx, stage); err != nil {
			return nil, fmt.Errorf("the working copies of %s have the new baselines but they could not be staged (%w): stage lore's change with git add -p", strings.Join(rep.Files, ", "), err)
		}
	}
	return rep, nil
}
