package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/bench/internal/gitrun"
	"github.com/lorehq/lore/source"
)

// mode is how a commit is replayed.
type mode struct {
	name string
	// base: verify with the parent commit as the Base source (a CI job,
	// a pre-commit hook); without it only the anchors' sketches know the
	// old code.
	base bool
	// renames: give the verifier git's rename detection (-M), as verify
	// --staged and --changed-since do; without it the verifier is on its
	// own (a plain verify of the working tree).
	renames bool
	// threshold: Options.Threshold (0: lore's default).
	threshold float64
}

// trees are the two sides of a commit.
type trees struct {
	parent, child fs.FS
	renames       map[string]string // old path → new path (git -M)
	changed       map[string]bool   // paths (old and new) the commit touched
	from          string            // "clone" or "snapshot"
	close         func()            // removes what the trees were read from, if anything
}

// outcome of one oracle instance.
type outcome int

const (
	skipped   outcome = iota // no lore symbol for one side: not counted
	right                    // followed to the oracle's target
	wrong                    // followed somewhere else
	suggested                // not followed, the target among the candidates
	missed                   // not followed, not suggested
)

// instance is one oracle refactoring as replayed.
type instance struct {
	commit  *commit
	ref     refactoring
	before  target
	after   target
	spec    string
	anchor  int  // index into the run's anchors; -1 when not anchored
	dup     bool // counted with another instance of the same anchor
	outcome outcome
	why     string // for skipped, missed and wrong
	result  anchors.Result
	kept    float64 // the old code's words the oracle's target holds (see survival)
	twin    string  // a new symbol as like the old code as the target, if any
}

// control is a symbol the commit left alone: verifying it must say
// valid and unchanged.
type control struct {
	spec   string
	anchor int
}

type commitRun struct {
	commit    *commit
	from      string
	instances []*instance
	probes    []*instance // Extract and Inline Method: must not relocate
	controls  []control
	alarms    []string  // controls not reported valid and unchanged
	gone      []control // symbols the commit deleted that no refactoring names
	followed  []string  // of gone, those lore followed somewhere, to be read
	results   []anchors.Result
}

// openTrees reads the parent and the commit from a clone under clones
// (named like the project) or, failing that (no clone, or a clone without
// the commit: one made after its branch was deleted), from the oracle's
// snapshot of the changed files.
func openTrees(ctx context.Context, c *commit, clones, snapshots string, snapshotOnly bool) (*trees, error) {
	dir := filepath.Join(clones, c.Project)
	var cloneErr error
	if _, err := os.Stat(dir); err == nil && !snapshotOnly {
		t, err := cloneTrees(ctx, dir, c.SHA)
		if err == nil || snapshots == "" {
			return t, err
		}
		cloneErr = err
	}
	if snapshots != "" {
		t, err := snapshotTrees(ctx, snapshots, c)
		if err != nil && cloneErr != nil {
			return nil, fmt.Errorf("%w; and from the clone: %v", err, cloneErr)
		}
		return t, err
	}
	return nil, fmt.Errorf("no clone %s and no snapshot", dir)
}

func cloneTrees(ctx context.Context, dir, sha string) (*trees, error) {
	out, err := gitrun.Output(ctx, dir, "rev-parse", sha+"^")
	if err != nil {
		return nil, err
	}
	parent := strings.TrimSpace(string(out))
	repo, err := source.OpenRepo(dir)
	if err != nil {
		return nil, err
	}
	t := &trees{from: "clone"}
	if t.parent, err = repo.Tree(parent); err != nil {
		return nil, err
	}
	if t.child, err = repo.Tree(sha); err != nil {
		return nil, err
	}
	out, err = gitrun.Output(ctx, dir, "diff", "--name-status", "-M", parent, sha)
	if err != nil {
		return nil, err
	}
	t.changed, t.renames = parseNameStatus(out)
	return t, nil
}

// parseNameStatus reads git diff --name-status (without -z: the
// oracles' repositories have no paths git would quote): "M\tpath",
// "R087\told\tnew".
func parseNameStatus(out []byte) (map[string]bool, map[string]string) {
	changed, renames := map[string]bool{}, map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		for _, p := range f[1:] {
			changed[p] = true
		}
		if len(f) == 3 && strings.HasPrefix(f[0], "R") {
			renames[f[1]] = f[2]
		}
	}
	return changed, renames
}

// snapshotTrees reads RefactoringMiner's snapshot of a commit: the changed
// files before (under PROJECT-PARENT) and after (under PROJECT-SHA), and
// lets git pair renamed files in a scratch repository. A snapshot
// directory is shared by the commits that name its commit, so it may
// also hold files another commit changed; the commit left those alone,
// and each side gets the other's copy of them: a file only one
// directory holds is not a file the commit added or deleted.
func snapshotTrees(ctx context.Context, dir string, c *commit) (_ *trees, err error) {
	b, err := os.ReadFile(filepath.Join(dir, c.Project+"-"+c.SHA+".json"))
	if err != nil {
		return nil, fmt.Errorf("no snapshot: %w", err)
	}
	var meta struct {
		Parent  string   `json:"parentCommitId"`
		Before  []string `json:"filesBefore"`
		Current []string `json:"filesCurrent"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, err
	}
	touched := map[string]bool{}
	for _, p := range append(meta.Before, meta.Current...) {
		touched[p] = true
	}
	scratch, err := os.MkdirTemp("", "relocation-")
	if err != nil {
		return nil, err
	}
	t := &trees{from: "snapshot", close: func() { _ = os.RemoveAll(scratch) }} // best effort: scratch copies
	defer func() {
		if err != nil {
		}
	}()
	pdir, cdir := filepath.Join(dir, c.Project+"-"+meta.Parent), filepath.Join(dir, c.Project+"-"+c.SHA)
	ps, cs := filepath.Join(scratch, "parent"), filepath.Join(scratch, "child")
	for _, cp := range []struct {
		from, to string
		all      bool
	}{{pdir, ps, true}, {cdir, cs, true}, {cdir, ps, false}, {pdir, cs, false}} {
		if err := copyTree(cp.from, cp.to, func(p string) bool { return cp.all || !touched[p] }); err != nil {
			return nil, err
		}
	}
	t.parent, t.child = os.DirFS(ps), os.DirFS(cs)
	gitDir := "--git-dir=" + filepath.Join(scratch, ".git")
	if _, err := gitrun.Output(ctx, scratch, "init", "-q"); err != nil {
		return nil, err
	}
	for _, side := range []string{ps, cs} {
		if _, err := gitrun.Output(ctx, scratch, "read-tree", "--empty"); err != nil {
			return nil, err
		}
		if _, err := gitrun.Output(ctx, side, gitDir, "--work-tree=.", "add", "-A", "."); err != nil {
			return nil, err
		}
		if _, err := gitrun.Output(ctx, scratch, "-c", "user.name=r", "-c", "user.email=r@example.com", "commit", "-q", "--allow-empty", "-m", side); err != nil {
			return nil, err
		}
	}
	out, err := gitrun.Output(ctx, scratch, "diff", "--name-status", "-M", "HEAD~1", "HEAD")
	if err != nil {
		return nil, err
	}
	t.changed, t.renames = parseNameStatus(out)
	return t, nil
}

// copyTree copies the files under from (if it exists) that keep says to
// keep, by their slash path, to the same paths under to, leaving files
// to already holds.
func copyTree(from, to string, keep func(string) bool) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(from); err != nil {
		return nil
	}
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil || !keep(filepath.ToSlash(rel)) {
			return err
		}
		dst := filepath.Join(to, rel)
		if _, err := os.Stat(dst); err == nil {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

// replay verifies, at the commit, anchors baselined at its parent on the
// old side of every relocating refactoring, and on symbols the commit
// left alone.
func replay(ctx context.Context, c *commit, t *trees, m mode, maxControls int) (*commitRun, error) {
	parent, err := anchors.NewSource(t.parent, anchors.SourceOptions{MaxFileSize: -1})
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	var renames map[string]string
	if m.renames {
		renames = t.renames
	}
	child, err := anchors.NewSource(t.child, anchors.SourceOptions{MaxFileSize: -1, Renames: renames})
	if err != nil {
		return nil, err
	}
	defer child.Close()
	oldPaths, err := parent.Paths(ctx)
	if err != nil {
		return nil, err
	}
	newPaths, err := child.Paths(ctx)
	if err != nil {
		return nil, err
	}
	run := &commitRun{commit: c, from: t.from}
	var as []anchors.Anchor
	specs := map[string]int{}
	add := func(a anchors.Anchor) int {
		if i, ok := specs[a.Spec()]; ok {
			return i
		}
		specs[a.Spec()] = len(as)
		as = append(as, a)
		return len(as) - 1
	}
	inverse := map[string]string{}
	for o, n := range t.renames {
		inverse[n] = o
	}
	for _, r := range c.Refs {
		probe := r.Type == "Extract Method" || r.Type == "Inline Method"
		if !isRelocating(r.Type) && !probe || !r.Valid {
			continue
		}
		in := &instance{commit: c, ref: r, anchor: -1}
		if probe {
			run.probes = append(run.probes, in)
		} else {
			run.instances = append(run.instances, in)
		}
		if r.Before.Class == "" {
			in.why = "description not understood"
			continue
		}
		var errB, errA error
		in.before, errB = resolve(ctx, parent, oldPaths, c.Lang, r.Before, t.changed)
		if r.Type == "Inline Method" {
			in.after, errA = target{}, nil
		} else {
			in.after, errA = resolve(ctx, child, newPaths, c.Lang, r.After, t.changed)
		}
		if c.Lang == "kotlin" && errB != nil {
			if b, err, ok := resolveRenamed(ctx, c, r.Before, true, parent, oldPaths, t.changed); ok {
				in.before, errB = b, err
			}
		}
		if c.Lang == "kotlin" && errA != nil && r.Type != "Inline Method" {
			if a, err, ok := resolveRenamed(ctx, c, r.After, false, child, newPaths, t.changed); ok {
				in.after, errA = a, err
			}
		}
		// RefactoringMiner names a renamed method's class as it is after
		// the commit; the file it was in may have been renamed too.
		if errB != nil && errA == nil && r.Before.Method != "" {
			old := in.after.Path
			if p, ok := inverse[old]; ok {
				old = p
			}
			if b, err := lookup(ctx, parent, old, outer(in.after, c.Lang), r.Before); err == nil {
				in.before, errB = b, nil
			}
		}
		if errA != nil && errB == nil && r.After.Method != "" {
			p := in.before.Path
			if q, ok := t.renames[p]; ok {
				p = q
			}
			if a, err := lookup(ctx, child, p, outer(in.before, c.Lang), r.After); err == nil {
				in.after, errA = a, nil
			}
		}
		if errB != nil {
			in.why = "before: " + errB.Error()
			continue
		}
		if errA != nil {
			in.why = "after: " + errA.Error()
			continue
		}
		in.spec = in.before.spec()
		if in.before.Overloaded {
			in.spec += "(" + strings.Join(in.before.Params, ",") + ")"
		}
		a, err := anchors.ParseSpec(in.spec)
		if err == nil {
			a, err = anchors.Baseline(ctx, parent, a)
		}
		if err != nil {
			in.outcome, in.why = missed, "cannot anchor: "+err.Error()
			continue
		}
		in.anchor = add(a)
	}
	if len(as) == 0 {
		return run, nil
	}
	// baselined anchors spec at the parent, unless an instance has it.
	baselined := func(spec string) (anchors.Anchor, bool) {
		if _, ok := specs[spec]; ok {
			return anchors.Anchor{}, false
		}
		a, err := anchors.ParseSpec(spec)
		if err == nil {
			a, err = anchors.Baseline(ctx, parent, a)
		}
		return a, err == nil
	}
	for _, spec := range controls(ctx, parent, child, t, maxControls) {
		if a, ok := baselined(spec); ok {
			run.controls = append(run.controls, control{spec: spec, anchor: add(a)})
		}
	}
	// Verified on their own, after the rest: anchored beside the
	// instances, they would contest their targets (two anchors never
	// take one place).
	var goneAnchors []anchors.Anchor
	for _, spec := range deleted(ctx, parent, child, c, t, maxControls) {
		if a, ok := baselined(spec); ok {
			run.gone = append(run.gone, control{spec: spec, anchor: len(goneAnchors)})
			goneAnchors = append(goneAnchors, a)
		}
	}
	opts := anchors.Options{Threshold: m.threshold}
	if m.base {
		opts.Base = parent
		if m.renames {
			changed := slices.Sorted(maps.Keys(t.changed))
			opts.Changed = func(context.Context) []string { return changed }
		}
	}
	v, err := anchors.NewVerifier(child, opts)
	if err != nil {
		return nil, err
	}
	run.results = v.VerifyAll(ctx, as)
	for _, in := range run.instances {
		if in.anchor < 0 {
			continue
		}
		r := run.results[in.anchor]
		in.result = r
		in.outcome, in.why = score(r, in.before, in.after)
		survival(ctx, parent, child, t.changed, in)
	}
	// One anchor, several targets (a method pushed down into several
	// subclasses): the anchor can follow one of them; it counts once.
	groups := map[int][]*instance{}
	for _, in := range run.instances {
		if in.anchor >= 0 {
			groups[in.anchor] = append(groups[in.anchor], in)
		}
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		best := g[0]
		for _, in := range g[1:] {
			if in.outcome == right || in.outcome == suggested && best.outcome != right {
				best = in
			}
		}
		for _, in := range g {
			in.dup = in != best
		}
		if best.outcome == wrong {
			for _, in := range g {
				if in.result.To != nil && in.result.To.FQName == in.after.FQName {
					best.outcome = right
				}
			}
		}
	}
	for _, in := range run.probes {
		if in.anchor < 0 {
			continue
		}
		r := run.results[in.anchor]
		in.result = r
		relocated := r.To != nil && r.Status != anchors.Invalid && r.To.FQName != in.before.FQName
		if in.ref.Type == "Extract Method" {
			relocated = r.To == nil || r.To.FQName != in.after.FQName
		}
		if relocated {
			in.outcome, in.why = wrong, fmt.Sprintf("%s %s → %v: %s", r.Status, r.Change, r.To, r.Reason)
		} else {
			in.outcome = right
		}
	}
	for _, ctl := range run.controls {
		r := run.results[ctl.anchor]
		if r.Status != anchors.Valid || (r.Change != anchors.ChangeNone && r.Change != anchors.ChangeReformatted) {
			run.alarms = append(run.alarms, fmt.Sprintf("%s: %s %s %s", ctl.spec, r.Status, r.Change, r.Reason))
		}
	}
	goneResults := v.VerifyAll(ctx, goneAnchors)
	for _, g := range run.gone {
		r := goneResults[g.anchor]
		if r.To != nil && r.Status != anchors.Invalid && r.Change != anchors.ChangeNoMatch && r.To.FQName != g.spec {
			run.followed = append(run.followed, fmt.Sprintf("%s → %s (%.2f): %s %s: %s", g.spec, r.To.FQName, r.Confidence, r.Status, r.Change, r.Reason))
		}
	}
	return run, nil
}

// score compares a verification result with where the oracle says the
// anchored code (was) went. A result that keeps the anchor on its own
// name (a method made abstract, reported drifted with its new header)
// followed it nowhere: a miss when the oracle says it went elsewhere,
// never a wrong relocation.
func score(r anchors.Result, was, want target) (outcome, string) {
	hit := func(l anchors.Location) bool {
		return l.FQName == want.FQName && (want.FQName != "" || l.Path == want.Path) && (!want.Overloaded || l.Lines == want.lines())
	}
	stayed := r.To != nil && was.FQName != "" && r.To.FQName == was.FQName && !hit(*r.To)
	if r.To != nil && r.Status != anchors.Invalid && r.Change != anchors.ChangeNoMatch && !stayed {
		if hit(*r.To) {
			return right, ""
		}
		why := fmt.Sprintf("%s %s → %s (%.2f): %s", r.Status, r.Change, r.To.FQName, r.Confidence, r.Reason) + candidates(r)
		if slices.ContainsFunc(r.Candidates, func(c anchors.Candidate) bool { return hit(c.Location) }) {
			why += rightListed
		}
		return wrong, why
	}
	why := fmt.Sprintf("%s %s (%.2f): %s", r.Status, r.Change, r.Confidence, r.Reason) + candidates(r)
	for _, c := range r.Candidates {
		if hit(c.Location) {
			return suggested, why
		}
	}
	return missed, why
}

// rightListed ends the line of a wrong answer whose candidates hold the
// right target: one lore anchor accept --to away from it.
const rightListed = " [the right target among the candidates]"

// candidates lists r's candidates as the bench's lines show them.
func candidates(r anchors.Result) string {
	var b strings.Builder
	for _, c := range r.Candidates {
		fmt.Fprintf(&b, " || %s %.2f %s", c.LocalName, c.Confidence, c.Reason)
	}
	return b.String()
}

// controls picks up to n symbols the commit did not touch: in the files
// it changed (same path, same name, same text before and after), callable
// or a type, with a name of their own in their file.
func controls(ctx context.Context, parent, child *anchors.Source, t *trees, n int) []string {
	var cands []string
	for _, p := range slices.Sorted(maps.Keys(t.changed)) {
		bf, err1 := parent.File(ctx, p)
		cf, err2 := child.File(ctx, p)
		if err1 != nil || err2 != nil || bf.Lang == "" {
			continue
		}
		count := map[string]int{}
		for _, s := range bf.Symbols {
			count[s.FQName]++
		}
		now := map[string]string{}
		for _, s := range cf.Symbols {
			if _, dup := now[s.FQName]; dup {
				now[s.FQName] = "dup"
				continue
			}
			now[s.FQName] = s.Hash
		}
		for _, s := range bf.Symbols {
			if count[s.FQName] == 1 && now[s.FQName] == s.Hash && controllable(s.Kind) {
				cands = append(cands, s.FQName)
			}
		}
	}
	return spread(cands, n)
}

// deleted picks up to n symbols the commit deleted (callable or a type,
// with a name of their own in their file, gone from it and from where
// git says the file went) that no refactoring of the commit names, by
// their own name or by the name of a type they were in that is gone too.
// The oracle says their code went nowhere: following one is a wrong
// relocation no instance counts. (An oracle misses some refactorings;
// each one followed is listed, to be read.)
func deleted(ctx context.Context, parent, child *anchors.Source, c *commit, t *trees, n int) []string {
	named := map[string]bool{}
	for _, r := range c.Refs {
		for _, w := range strings.FieldsFunc(r.Desc, func(ch rune) bool {
			return !(ch == '_' || ch == '$' || unicode.IsLetter(ch) || unicode.IsDigit(ch))
		}) {
			named[w] = true
		}
	}
	var cands []string
	for _, p := range slices.Sorted(maps.Keys(t.changed)) {
		bf, err := parent.File(ctx, p)
		if err != nil || bf.Lang == "" {
			continue
		}
		now := map[string]bool{}
		qs := []string{p}
		if q, ok := t.renames[p]; ok {
			qs = append(qs, q)
		}
		for _, q := range qs {
			if cf, err := child.File(ctx, q); err == nil {
				for _, s := range cf.Symbols {
					_, fq, _ := strings.Cut(s.FQName, "::")
					now[fq] = true
				}
			}
		}
		count := map[string]int{}
		for _, s := range bf.Symbols {
			count[s.FQName]++
		}
		for _, s := range bf.Symbols {
			_, fq, _ := strings.Cut(s.FQName, "::")
			if count[s.FQName] != 1 || now[fq] || !controllable(s.Kind) {
				continue
			}
			// Named itself, or in a type named that is gone too (moved or
			// renamed with its members): the oracle may say where it went.
			segs := strings.Split(fq, "::")
			told := named[segs[len(segs)-1]]
			for i := range segs[:len(segs)-1] {
				told = told || named[segs[i]] && !now[strings.Join(segs[:i+1], "::")]
			}
			if !told {
				cands = append(cands, s.FQName)
			}
		}
	}
	return spread(cands, n)
}

// spread returns n of xs (all when there are no more), evenly spread.
func spread(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	out := make([]string, 0, n)
	step := float64(len(xs)) / float64(n)
	for i := 0; i < n; i++ {
		out = append(out, xs[int(float64(i)*step)])
	}
	return out
}

func controllable(kind string) bool {
	switch kind {
	case analyzer.KindFunction, analyzer.KindMethod, analyzer.KindConstructor, analyzer.KindClass, analyzer.KindInterface, analyzer.KindEnum:
		return true
	}
	return false
}

// outer returns the names t is under in its file: for Kotlin those
// lookup found it under (its full name also holds an extension's
// receiver), else read from its full name.
func outer(t target, lang string) []string {
	if lang == "kotlin" {
		return t.Outer
	}
	return outerSegments(t.FQName)
}

// outerSegments returns the outer names of a symbol's full name
// (path::A::B::m → [A B]).
func outerSegments(full string) []string {
	_, fq, _ := strings.Cut(full, "::")
	segs := strings.Split(fq, "::")
	return segs[:len(segs)-1]
}
