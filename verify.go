package lore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing/fstest"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

// VerifyOptions choose what to verify and against which source.
type VerifyOptions struct {
	// Staged verifies against git's index (what is about to be committed)
	// instead of the working tree.
	Staged bool
	// Rev verifies against a commit's tree (any revision git understands).
	Rev string
	// ChangedSince limits verification to anchors whose files changed
	// between the merge base of ChangedSince and the source (needs git).
	ChangedSince string
	// Fix rewrites the baselines of relocated and reformatted anchors in
	// the learning files (never of drifted ones). With Staged it also
	// stages the rewritten files.
	Fix bool
	// Learnings limits verification to these ids or prefixes.
	Learnings []string
	// Everything verifies every anchor with Staged too. By default a staged
	// verification (the pre-commit hook) checks what the commit touches:
	// anchors into staged files and every anchor of staged learnings.
	Everything bool
	// Threshold is the lowest confidence at which a relocation is applied;
	// zero means config.yaml's value, else anchors.DefaultThreshold.
	Threshold float64
}

// VerifyReport is the outcome of Verify.
type VerifyReport struct {
	Source  string           `json:"source"` // worktree, index, or the commit verified
	Summary anchors.Summary  `json:"summary"`
	Results []anchors.Result `json:"results"`
	// Fixed lists the learning files --fix rewrote.
	Fixed []string `json:"fixed,omitempty"`
	// Titles maps learning ids to titles, for reports.
	Titles map[string]string `json:"-"`
}

// Verify checks every anchor of every learning (or of opts.Learnings)
// against the source, records status transitions and, with Fix, rewrites
// the baselines of anchors that moved or were reformatted.
func (w *Workspace) Verify(ctx context.Context, opts VerifyOptions) (*VerifyReport, error) {
	if opts.Staged && opts.Rev != "" {
		return nil, errors.New("--staged and --rev exclude each other")
	}
	if opts.Threshold == 0 {
		opts.Threshold = w.cfg.Verify.RelocationThreshold
	}
	if opts.Threshold < 0 || opts.Threshold > 1 {
		return nil, fmt.Errorf("threshold %v must be between 0 and 1", opts.Threshold)
	}
	// What comes from git (the index, a commit's tree, the list of
	// changed files from a git process) does not need the store: read it
	// while the store opens and syncs.
	type gitRead struct {
		vs  *verifySource
		err error
	}
	fromGit := make(chan gitRead, 1)
	go func() {
		vs, err := w.readGit(ctx, opts)
		fromGit <- gitRead{vs, err}
	}()
	received := false
	var rep *VerifyReport
	err := w.withStore(ctx, func(st *graph.Store) error {
		g := <-fromGit
		received = true
		if g.err != nil {
			return g.err
		}
		var err error
		rep, err = w.verify(ctx, st, opts, g.vs)
		return err
	})
	if !received {
		<-fromGit
	}
	return rep, err
}

// verifySource is what one verification reads.
type verifySource struct {
	name   string // worktree, index or a commit id
	commit string // the commit transitions are attributed to ("" without git)
	files  fs.FS
	base   fs.FS // where baselines were probably taken: HEAD or the merge base
	baseID string
	index  bool // the analyzer's index describes files
	// changed, when not nil, limits verification to anchors into these
	// files (and renames' old paths).
	changed map[string]bool
	renames map[string]string
}

// readGit reads what a verification needs from git: the source for
// --rev and --staged, the base, and the changed files.
func (w *Workspace) readGit(ctx context.Context, opts VerifyOptions) (*verifySource, error) {
	repo, _ := source.OpenRepo(w.root)
	head := ""
	if repo != nil {
		head, _ = repo.Head() // "" on an unborn branch
	}
	vs := &verifySource{renames: map[string]string{}}
	// A staged verification asks a git process for the staged changes
	// while this one reads the index.
	type diff struct {
		changed map[string]bool
		renames map[string]string
		err     error
	}
	var staged chan diff
	if opts.Staged && !opts.Everything && opts.ChangedSince == "" && head != "" {
		staged = make(chan diff, 1)
		go func() {
			var d diff
			d.changed, d.renames, d.err = w.changedFiles(ctx, head, opts)
			staged <- d
		}()
		defer func() {
			if staged != nil {
				<-staged
			}
		}()
	}
	switch {
	case opts.Rev != "":
		if repo == nil {
			return nil, fmt.Errorf("--rev %s: %s is not in a git repository", opts.Rev, w.root)
		}
		id, err := repo.Resolve(ctx, opts.Rev)
		if err != nil {
			return nil, fmt.Errorf("--rev %s: unknown revision: %w", opts.Rev, err)
		}
		if vs.files, err = repo.Tree(id); err != nil {
			return nil, err
		}
		vs.name, vs.commit = id, id
	case opts.Staged:
		if repo == nil {
			return nil, fmt.Errorf("--staged: %s is not in a git repository", w.root)
		}
		var err error
		if vs.files, err = repo.Index(); err != nil {
			return nil, err
		}
		vs.name, vs.commit = "index", head
	default:
		vs.files, vs.name, vs.commit = source.Dir(w.root), "worktree", head
		vs.index = true // once verify brings the index up to date
	}
	baseRev := head
	if opts.ChangedSince != "" {
		mb, err := w.mergeBase(ctx, opts.ChangedSince, opts.Rev)
		if err != nil {
			return nil, err
		}
		baseRev = mb
	}
	vs.baseID = baseRev
	// The base is where baselines were probably taken; a commit is not its
	// own base.
	if repo != nil && baseRev != "" && !(opts.Rev != "" && baseRev == vs.commit) {
		// Read lazily: the base serves only relocation, which most runs
		// never need, and reading a large tree costs ~100 ms.
		vs.base = &lazyFS{open: func() (fs.FS, error) { return repo.Tree(baseRev) }}
	}
	var err error
	switch {
	case opts.ChangedSince != "":
		vs.changed, vs.renames, err = w.changedFiles(ctx, vs.baseID, opts)
	case staged != nil:
		d := <-staged
		staged = nil
		vs.changed, vs.renames, err = d.changed, d.renames, d.err
	}
	if err != nil {
		return nil, err
	}
	return vs, nil
}

func (w *Workspace) verify(ctx context.Context, st *graph.Store, opts VerifyOptions, vs *verifySource) (*VerifyReport, error) {
	if vs.index {
		if _, err := w.index(ctx, st, IndexOptions{}); err != nil {
			return nil, err
		}
	}
	changed, renames := vs.changed, vs.renames
	sopts := anchors.SourceOptions{Renames: renames, Ignore: w.cfg.Ignore, MaxFileSize: w.cfg.MaxFileSize}
	if vs.index {
		sopts.Index = st
	}
	src, err := anchors.NewSource(vs.files, sopts)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	vopts := anchors.Options{Threshold: opts.Threshold}
	if vs.base != nil {
		base, err := anchors.NewSource(vs.base, anchors.SourceOptions{Ignore: w.cfg.Ignore, MaxFileSize: w.cfg.MaxFileSize})
		if err != nil {
			return nil, err
		}
		defer base.Close()
		vopts.Base = base
	}
	v, err := anchors.NewVerifier(src, vopts)
	if err != nil {
		return nil, err
	}
	ids, err := w.selectLearnings(opts.Learnings)
	if err != nil {
		return nil, err
	}
	rep := &VerifyReport{Source: vs.name, Results: []anchors.Result{}, Titles: map[string]string{}}
	// One run over every selected anchor, so that two anchors never take
	// the same new location and renames found in the run explain callers.
	var batch []anchors.Learning
	var positions [][]int // per learning of batch: 1-based positions of its anchors
	for _, id := range ids {
		z := w.learnings.byID[id]
		whole := changed == nil || changed[z.Path]
		if !whole && !z.anyAnchor(func(a anchors.Anchor) bool { return touches(a, changed, renames) }) {
			continue // looked at without decoding the learning
		}
		l := z.get()
		rep.Titles[id] = l.Title
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
		}
	}
	rs := v.VerifyLearnings(ctx, batch)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k := 0
	for bi, bl := range batch {
		for j := range bl.Anchors {
			rs[k].Learning, rs[k].Anchor = bl.ID, positions[bi][j]
			k++
		}
	}
	rep.Results = append(rep.Results, rs...)
	rep.Summary = anchors.Summarize(rep.Results)
	if err := w.recordTransitions(st, vs.commit, rep.Results); err != nil {
		return nil, err
	}
	if opts.Fix {
		if rep.Fixed, err = w.fix(ctx, rep.Results, opts.Staged); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// selectLearnings resolves ids or prefixes; none means every learning.
func (w *Workspace) selectLearnings(args []string) ([]string, error) {
	if len(args) == 0 {
		return w.learnings.ids, nil
	}
	var ids []string
	for _, a := range args {
		l, err := w.lookup(a)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ids, l.ID) {
			ids = append(ids, l.ID)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// touches reports whether an anchor's target is among the changed files.
func touches(a anchors.Anchor, changed map[string]bool, renames map[string]string) bool {
	if p := a.Path(); p != "" {
		return changed[p] || renames[p] != ""
	}
	for p := range changed {
		if globMatch(a.Glob, p) {
			return true
		}
	}
	return false
}

// globMatch matches slash paths against a pattern where ** spans
// directories.
func globMatch(pattern, name string) bool {
	ps, ns := strings.Split(pattern, "/"), strings.Split(name, "/")
	var match func(i, j int) bool
	match = func(i, j int) bool {
		for i < len(ps) {
			if ps[i] == "**" {
				for k := j; k <= len(ns); k++ {
					if match(i+1, k) {
						return true
					}
				}
				return false
			}
			if j >= len(ns) {
				return false
			}
			if ok, _ := path.Match(ps[i], ns[j]); !ok {
				return false
			}
			i, j = i+1, j+1
		}
		return j == len(ns)
	}
	return match(0, 0)
}

func (w *Workspace) git(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = w.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, msg)
	}
	return out, nil
}

func (w *Workspace) mergeBase(ctx context.Context, since, rev string) (string, error) {
	if rev == "" {
		rev = "HEAD"
	}
	out, err := w.git(ctx, "merge-base", since, rev)
	if err != nil {
		return "", fmt.Errorf("--changed-since %s: %w", since, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// changedFiles lists the files that differ between the commit mb and the
// source, with the renames among them.
func (w *Workspace) changedFiles(ctx context.Context, mb string, opts VerifyOptions) (map[string]bool, map[string]string, error) {
	args := []string{"diff", "--name-status", "-M", "-z", mb}
	switch {
	case opts.Rev != "":
		args = append(args, opts.Rev)
	case opts.Staged:
		args = []string{"diff", "--cached", "--name-status", "-M", "-z", mb}
	}
	out, err := w.git(ctx, args...)
	if err != nil {
		return nil, nil, err
	}
	changed, renames := map[string]bool{}, map[string]string{}
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i < len(f); i++ {
		st := f[i]
		if st == "" {
			continue
		}
		if (st[0] == 'R' || st[0] == 'C') && i+2 < len(f) {
			changed[f[i+1]], changed[f[i+2]] = true, true
			if st[0] == 'R' {
				renames[f[i+1]] = f[i+2]
			}
			i += 2
			continue
		}
		if i+1 < len(f) {
			changed[f[i+1]] = true
			i++
		}
	}
	return changed, renames, nil
}

// fix rewrites the baselines of anchors that moved or were reformatted.
func (w *Workspace) fix(ctx context.Context, rs []anchors.Result, stage bool) ([]string, error) {
	byLearning := map[string]map[int]anchors.Anchor{}
	for _, r := range rs {
		a, ok := anchors.Fix(r)
		if !ok {
			continue
		}
		if byLearning[r.Learning] == nil {
			byLearning[r.Learning] = map[int]anchors.Anchor{}
		}
		byLearning[r.Learning][r.Anchor-1] = a
	}
	var files []*Learning
	for id, fixes := range byLearning {
		fresh, err := w.readLearning(w.learnings.get(id))
		if err != nil {
			return nil, err
		}
		for i, a := range fixes {
			if i < len(fresh.Anchors) {
				fresh.Anchors[i] = a
			}
		}
		files = append(files, fresh)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	if err := w.writeLearnings(files); err != nil {
		return nil, err
	}
	var paths []string
	for _, l := range files {
		paths = append(paths, l.Path)
	}
	if stage && len(paths) > 0 {
		if _, err := w.git(ctx, append([]string{"add", "--"}, paths...)...); err != nil {
			return paths, fmt.Errorf("stage fixed learnings: %w", err)
		}
	}
	return paths, nil
}

// Verification state in the store.
const (
	nsAnchorState = "vs" // learning/anchor -> anchorState
	nsHistory     = "vh" // learning/time/anchor -> Transition
)

type anchorState struct {
	Status anchors.Status `json:"s"`
	Change anchors.Change `json:"c"`
	Spec   string         `json:"p"`
}

// Transition is one recorded change of an anchor's status.
type Transition struct {
	Time      time.Time         `json:"time"`
	Commit    string            `json:"commit,omitempty"`
	Learning  string            `json:"learning"`
	Anchor    int               `json:"anchor"`
	Spec      string            `json:"spec"`
	OldStatus anchors.Status    `json:"old_status"`
	NewStatus anchors.Status    `json:"new_status"`
	Change    anchors.Change    `json:"change"`
	From      anchors.Location  `json:"from"`
	To        *anchors.Location `json:"to,omitempty"`
	Reason    string            `json:"reason"`
}

func stateKey(learning string, anchor int) string { return fmt.Sprintf("%s/%04d", learning, anchor) }

// recordTransitions stores each anchor's status and a transition when it
// changed; an anchor turning invalid adds INVALIDATED_BY learning→commit.
// States are read in one transaction and only changes are written, through
// a batch, so a first verification of many anchors fits.
func (w *Workspace) recordTransitions(st *graph.Store, commit string, rs []anchors.Result) error {
	now := time.Now().UTC()
	type change struct {
		i   int // in rs, to write in result order
		r   *anchors.Result
		cur anchorState
		old anchorState
	}
	var changes []change
	compare := func(i int, stored []byte) {
		r := &rs[i]
		var old anchorState
		if stored != nil {
			json.Unmarshal(stored, &old)
		}
		if cur := (anchorState{Status: r.Status, Change: r.Change, Spec: r.Spec}); old != cur {
			changes = append(changes, change{i, r, cur, old})
		}
	}
	err := st.View(func(tx *graph.Tx) error {
		if len(rs) < 512 {
			for i := range rs {
				b, err := tx.Get(nsAnchorState, stateKey(rs[i].Learning, rs[i].Anchor))
				if err != nil && !errors.Is(err, graph.ErrNotFound) {
					return err
				}
				compare(i, b)
			}
			return nil
		}
		// Many results (a full verify): one pass over the stored states
		// instead of a lookup per anchor.
		byKey := make(map[string]int, len(rs))
		for i := range rs {
			byKey[stateKey(rs[i].Learning, rs[i].Anchor)] = i
		}
		err := tx.Scan(nsAnchorState, "", func(k string, v []byte) error {
			if i, ok := byKey[k]; ok {
				compare(i, v)
				delete(byKey, k)
			}
			return nil
		})
		for _, i := range byKey { // never verified before
			compare(i, nil)
		}
		slices.SortFunc(changes, func(a, b change) int { return a.i - b.i })
		return err
	})
	if err != nil || len(changes) == 0 {
		return err
	}
	return st.Batch(func(b *graph.Batch) error {
		for _, c := range changes {
			r := c.r
			sb, _ := json.Marshal(c.cur)
			if err := b.Set(nsAnchorState, stateKey(r.Learning, r.Anchor), sb); err != nil {
				return err
			}
			if c.old.Status == r.Status && c.old.Spec == r.Spec {
				continue // same status, another change kind: not a transition
			}
			t := Transition{Time: now, Commit: commit, Learning: r.Learning, Anchor: r.Anchor, Spec: r.Spec,
				OldStatus: c.old.Status, NewStatus: r.Status, Change: r.Change, From: r.From, To: r.To, Reason: r.Reason}
			tb, _ := json.Marshal(t)
			hk := fmt.Sprintf("%s/%020d/%04d", r.Learning, now.UnixNano(), r.Anchor)
			if err := b.Set(nsHistory, hk, tb); err != nil {
				return err
			}
			if r.Status == anchors.Invalid && commit != "" {
				err := b.UpsertEdge(graph.Edge{Type: graph.InvalidatedBy, From: learningNode(r.Learning), To: "commit:" + commit, Weight: 1,
					Metadata: map[string]any{"anchor": r.Anchor, "spec": r.Spec, "change": string(r.Change)}})
				if err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// History returns the recorded status transitions of a learning, oldest
// first.
func (w *Workspace) History(ctx context.Context, id string) ([]Transition, error) {
	out := []Transition{}
	err := w.withStore(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		return st.View(func(tx *graph.Tx) error {
			return tx.Scan(nsHistory, l.ID+"/", func(_ string, v []byte) error {
				var t Transition
				if err := json.Unmarshal(v, &t); err != nil {
					return err
				}
				out = append(out, t)
				return nil
			})
		})
	})
	return out, err
}

// learningStatuses returns the last recorded verification status of each
// learning: the worst of its anchors ("" when never verified).
func (w *Workspace) learningStatuses(st *graph.Store, ids []string) (map[string]anchors.Status, error) {
	out := map[string]anchors.Status{}
	err := st.View(func(tx *graph.Tx) error {
		for _, id := range ids {
			l := w.learnings.get(id)
			if l == nil {
				continue
			}
			var worst anchors.Status
			for i := range l.Anchors {
				b, err := tx.Get(nsAnchorState, stateKey(id, i+1))
				if errors.Is(err, graph.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				var s anchorState
				if json.Unmarshal(b, &s) != nil || s.Spec != l.Anchors[i].Spec() {
					continue
				}
				if worst == "" || s.Status.Worse(worst) {
					worst = s.Status
				}
			}
			out[id] = worst
		}
		return nil
	})
	return out, err
}

// lazyFS builds its file system on first use. A failure to build it reads
// as an empty file system: the base is only a help for relocation.
type lazyFS struct {
	open func() (fs.FS, error)
	once sync.Once
	fsys fs.FS
}

func (l *lazyFS) get() fs.FS {
	l.once.Do(func() {
		f, err := l.open()
		if err != nil {
			f = fstest.MapFS{}
		}
		l.fsys = f
	})
	return l.fsys
}

func (l *lazyFS) Open(name string) (fs.File, error) { return l.get().Open(name) }

// ReadFile, Stat and ReadDir keep the fast paths of the underlying FS.
func (l *lazyFS) ReadFile(name string) ([]byte, error)       { return fs.ReadFile(l.get(), name) }
func (l *lazyFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(l.get(), name) }
func (l *lazyFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(l.get(), name) }
