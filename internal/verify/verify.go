package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/learnfile"
)

// Options configure Check.
type Options struct {
	Root        string // the repository root
	Threshold   float64
	Ignore      []string
	MaxFileSize int64
	// Index is the analyzer's index, up to date, when the source is the
	// working tree.
	Index *graph.Store
	// Sources are the options the check's sources start from: their
	// language table (Table) is shared, so that a long-running caller
	// compiles each language's queries once. Check sets Renames, Ignore,
	// MaxFileSize and Index from the fields above, and makes its own
	// parsers.
	Sources anchors.SourceOptions
	// Staged judges the staged versions of the learning files the commit
	// touches, not their working copies.
	Staged bool
	// Compare marks the findings that were already there at the base
	// (Result.Preexisting).
	Compare bool
}

// Run is one verification: its results and what Fix needs of them.
type Run struct {
	// Anchors are the results of the anchors verified, learning by
	// learning, each anchor at its position in its learning file.
	Anchors []anchors.Result
	// Malformed are findings for learning files that do not parse.
	Malformed []anchors.Result
	// Titles maps the ids of the learnings verified to their titles.
	Titles map[string]string

	root     string
	src      *Source
	batch    []anchors.Learning
	paths    []string         // per learning of batch: its file
	verified []anchors.Anchor // per result of Anchors: the anchor as it was read
}

// Results returns every finding: the anchors', then the malformed files'.
func (r *Run) Results() []anchors.Result {
	out := make([]anchors.Result, 0, len(r.Anchors)+len(r.Malformed))
	return append(append(out, r.Anchors...), r.Malformed...)
}

// Verifier verifies anchors against one Source, with its Base as
// history and the files git says differ as the change.
type Verifier struct {
	*anchors.Verifier
	Source *anchors.Source // the files verified
	base   *anchors.Source
}

// NewVerifier makes the verifier of one run over vs. Close it after.
func NewVerifier(vs *Source, opts Options) (*Verifier, error) {
	sopts := opts.Sources
	sopts.Parser = nil
	sopts.Renames, sopts.Ignore, sopts.MaxFileSize, sopts.Index = vs.Renames, opts.Ignore, opts.MaxFileSize, opts.Index
	src, err := anchors.NewSource(vs.Files, sopts)
	if err != nil {
		return nil, err
	}
	v := &Verifier{Source: src}
	vopts := anchors.Options{Threshold: opts.Threshold}
	if vs.Base != nil {
		// The index serves the base as it serves the source: for the
		// files whose content it describes.
		v.base, err = anchors.NewSource(vs.Base, anchors.SourceOptions{Ignore: opts.Ignore, MaxFileSize: opts.MaxFileSize, Table: opts.Sources.Table, Parsed: opts.Sources.Parsed, Index: opts.Index})
		if err != nil {
			v.Close()
			return nil, err
		}
		vopts.Base, vopts.Changed = v.base, vs.Diffed
	}
	if v.Verifier, err = anchors.NewVerifier(src, vopts); err != nil {
		v.Close()
		return nil, err
	}
	return v, nil
}

// Close releases the sources v reads.
func (v *Verifier) Close() {
	v.Source.Close()
	if v.base != nil {
		v.base.Close()
	}
}

// Check verifies the anchors of the learnings ids (of ls) against src in
// one run, so that two anchors never take the same new location and
// renames found in the run explain callers; with src.Changed, only the
// anchors into changed files.
func Check(ctx context.Context, ls *catalog.Learnings, ids []string, vs *Source, opts Options) (*Run, error) {
	changed, renames := vs.Changed, vs.Renames
	v, err := NewVerifier(vs, opts)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	run := &Run{Titles: map[string]string{}, root: opts.Root, src: vs}
	if changed != nil {
		ids = concerned(ls, ids, changed, renames)
	}
	var batch []anchors.Learning
	var positions [][]int // per learning of batch: 1-based positions of its anchors
	var paths []string    // per learning of batch: its file
	for _, id := range ids {
		path := ls.Path(id)
		whole := changed == nil || changed[path]
		if !whole && !ls.AnyAnchor(id, func(a anchors.Anchor) bool { return touches(a, changed, renames) }) {
			continue // looked at without decoding the learning
		}
		l := ls.Learning(id)
		run.Titles[id] = l.Title
		var as []anchors.Anchor
		var pos []int
		for i, a := range l.Anchors {
			if whole || touches(a, changed, renames) {
				as = append(as, a)
				pos = append(pos, i+1)
			}
		}
		if len(as) > 0 {
			batch = append(batch, anchors.Learning{ID: id, Anchors: as})
			positions = append(positions, pos)
			paths = append(paths, path)
		}
	}
	rs := v.VerifyLearnings(ctx, batch)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var verified []anchors.Anchor // per result: the anchor as it was read
	k := 0
	for bi, bl := range batch {
		for j, a := range bl.Anchors {
			rs[k].Learning, rs[k].Anchor, rs[k].Title = bl.ID, positions[bi][j], run.Titles[bl.ID]
			verified = append(verified, a)
			k++
		}
	}
	if opts.Compare {
		if err := markPreexisting(ctx, vs, v.base, opts.Threshold, rs, verified, paths, batch); err != nil {
			return nil, err
		}
	}
	run.Anchors, run.batch, run.paths, run.verified = rs, batch, paths, verified
	run.Malformed, err = malformed(ctx, ls, opts, vs)
	if err != nil {
		return nil, err
	}
	return run, nil
}

// malformed returns a finding for each learning file that does not parse:
// its anchors cannot be read, so it must never pass unseen. A staged
// verification judges the staged version of the learning files the commit
// touches; others judge the working copies (only the changed ones when
// the verification is limited to changed files).
func malformed(ctx context.Context, ls *catalog.Learnings, opts Options, vs *Source) ([]anchors.Result, error) {
	type bad struct {
		path string
		data []byte
		err  error
	}
	var found []bad
	seen := map[string]bool{}
	if opts.Staged && vs.Changed != nil {
		var names []string
		for p := range vs.Changed {
			if isLearningPath(p) {
				names = append(names, p)
			}
		}
		sort.Strings(names)
		for _, p := range names {
			data, err := fs.ReadFile(vs.Files, p)
			if errors.Is(err, fs.ErrNotExist) {
				continue // deleted in this commit
			}
			if err != nil {
				return nil, fmt.Errorf("read staged %s: %w", p, err)
			}
			if _, err := learnfile.Parse(p, data); err != nil {
				found = append(found, bad{p, data, err})
			}
			seen[p] = true
		}
	}
	if !opts.Staged || vs.Changed == nil {
		for _, name := range ls.Broken() {
			p := learnfile.Dir + "/" + name
			if seen[p] || (vs.Changed != nil && !vs.Changed[p]) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(opts.Root, filepath.FromSlash(learnfile.Dir), name))
			if err != nil {
				continue // gone since the sync
			}
			if _, err := learnfile.Parse(p, data); err != nil {
				found = append(found, bad{p, data, err})
			}
		}
	}
	var out []anchors.Result
	for _, b := range found {
		line, msg := 1, b.err.Error()
		var pe *learnfile.ParseError
		if errors.As(b.err, &pe) {
			msg = pe.Msg
			if pe.Line > 0 {
				line = pe.Line
			}
		}
		if c := conflictLine(b.data); c > 0 {
			line, msg = c, "an unresolved merge conflict ("+msg+")"
		}
		out = append(out, anchors.Result{
			Learning: strings.TrimSuffix(path.Base(b.path), ".md"), Spec: b.path,
			Status: anchors.Invalid, Change: anchors.ChangeMalformed, Confidence: 1,
			From:   anchors.Location{Path: b.path, Lines: anchors.FormatRange(line, line)},
			Reason: fmt.Sprintf("learning file does not parse at line %d: %s", line, msg),
		})
	}
	return out, nil
}

// conflictLine returns the 1-based line of the first merge-conflict marker
// in data, 0 when there is none.
func conflictLine(data []byte) int {
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "<<<<<<< ") || l == "<<<<<<<" || strings.HasPrefix(l, ">>>>>>> ") || l == "=======" {
			return i + 1
		}
	}
	return 0
}

func isLearningPath(p string) bool {
	dir, name := path.Split(p)
	return dir == learnfile.Dir+"/" && strings.HasSuffix(name, ".md") && !catalog.IsTemp(name)
}

// markPreexisting compares each finding with the state at the merge base,
// computed now rather than stored: the same anchor (same spec and
// baseline) in the learning file as it was at the base, verified against
// the base's tree. A finding that was already as bad there is marked
// Preexisting; one whose anchor is new or re-baselined since is not.
func markPreexisting(ctx context.Context, vs *Source, base *anchors.Source, threshold float64, rs []anchors.Result, verified []anchors.Anchor, paths []string, batch []anchors.Learning) error {
	if vs.Base == nil || base == nil {
		return nil
	}
	// The learning file of each result, and the learning files at the base.
	fileOf := make([]string, len(rs))
	k := 0
	for bi, bl := range batch {
		for range bl.Anchors {
			fileOf[k] = paths[bi]
			k++
		}
	}
	then := map[string][]anchors.Anchor{} // path -> anchors at the base
	var idx []int
	var as []anchors.Anchor
	for i, r := range rs {
		if r.Status == anchors.Valid {
			continue
		}
		p := fileOf[i]
		old, ok := then[p]
		if !ok {
			if data, err := fs.ReadFile(vs.Base, p); err == nil {
				if l, err := learnfile.Parse(p, data); err == nil {
					old = l.Anchors
				}
			}
			then[p] = old
		}
		if slices.Contains(old, verified[i]) {
			idx = append(idx, i)
			as = append(as, verified[i])
		}
	}
	if len(as) == 0 {
		return nil
	}
	bv, err := anchors.NewVerifier(base, anchors.Options{Threshold: threshold})
	if err != nil {
		return err
	}
	was := bv.VerifyAll(ctx, as)
	if err := ctx.Err(); err != nil {
		return err
	}
	for j, i := range idx {
		if was[j].Status != anchors.Valid && !rs[i].Status.Worse(was[j].Status) {
			rs[i].Preexisting = true
		}
	}
	return nil
}

// concerned narrows ids to the learnings a verification limited to the
// changed files may concern: those anchored into a changed file or a
// renamed one, those with a glob anchor, and those whose own file changed.
func concerned(ls *catalog.Learnings, ids []string, changed map[string]bool, renames map[string]string) []string {
	want := map[string]bool{}
	add := func(p string) {
		for _, id := range ls.AnchoredIn(p) {
			want[id] = true
		}
	}
	add("")
	learningFiles := false
	for p := range changed {
		add(p)
		learningFiles = learningFiles || isLearningPath(p)
	}
	for p := range renames {
		add(p)
	}
	var out []string
	for _, id := range ids {
		if want[id] || (learningFiles && changed[ls.Path(id)]) {
			out = append(out, id)
		}
	}
	return out
}

// touches reports whether an anchor's target is among the changed files.
func touches(a anchors.Anchor, changed map[string]bool, renames map[string]string) bool {
	if p := a.Path(); p != "" {
		return changed[p] || renames[p] != ""
	}
	for p := range changed {
		if anchors.MatchGlob(a.Glob, p) {
			return true
		}
	}
	return false
}
