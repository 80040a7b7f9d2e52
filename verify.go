package lore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing/fstest"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/learnfile"
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
	// between the merge base of ChangedSince and the source (needs git),
	// and marks the findings that were already there at the merge base
	// (Result.Preexisting): a change is judged on what it introduced.
	ChangedSince string
	// Fix rewrites the baselines of relocated and reformatted anchors in
	// the learning files (never of drifted ones) and bumps their updated
	// time. With Staged it rewrites the staged version of each learning
	// file and its working copy separately, so that the commit carries
	// exactly lore's change and unstaged edits stay unstaged.
	Fix bool
	// DryRun, with Fix, writes nothing: the report's Patch holds the
	// unified diff that Fix would apply to the learning files.
	DryRun bool
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
	Source string `json:"source"` // worktree, index, or the commit verified
	// Base is the merge base the results were compared with
	// (ChangedSince).
	Base    string           `json:"base,omitempty"`
	Summary anchors.Summary  `json:"summary"`
	Results []anchors.Result `json:"results"`
	// Fixed lists the learning files --fix rewrote (with DryRun: would
	// rewrite).
	Fixed []string `json:"fixed,omitempty"`
	// Patch is the unified diff of the learning files that Fix with
	// DryRun would write; paths are relative to the repository's top.
	Patch string `json:"patch,omitempty"`
	// Notices are things a person should know that are not findings,
	// such as baselines left unfixed.
	Notices []string `json:"notices,omitempty"`
	// Titles maps learning ids to titles, for reports.
	Titles map[string]string `json:"-"`
}

// Failing returns the findings that fail a run with --fail-on failOn
// (drifted or invalid): those at or above it that the change introduced,
// and with preexisting also those that were there before it.
func (r *VerifyReport) Failing(failOn anchors.Status, preexisting bool) []anchors.Result {
	var out []anchors.Result
	for _, x := range r.Results {
		if x.Status != anchors.Valid && !failOn.Worse(x.Status) && (preexisting || !x.Preexisting) {
			out = append(out, x)
		}
	}
	return out
}

// checkRev refuses what git would read as an option or cannot name a
// revision, before it reaches a git command line.
func checkRev(flag, rev string) error {
	switch {
	case rev == "":
		return nil
	case strings.HasPrefix(rev, "-"):
		return fmt.Errorf("%s %q: not a revision (a revision cannot start with '-')", flag, rev)
	case strings.ContainsAny(rev, "\x00\n\r") || strings.TrimSpace(rev) != rev:
		return fmt.Errorf("%s %q: not a revision", flag, rev)
	}
	return nil
}

// Verify checks every anchor of every learning (or of opts.Learnings)
// against the source, records status transitions and, with Fix, rewrites
// the baselines of anchors that moved or were reformatted. A learning file
// that does not parse is a finding (change "malformed"), never skipped.
func (w *Workspace) Verify(ctx context.Context, opts VerifyOptions) (*VerifyReport, error) {
	if opts.Staged && opts.Rev != "" {
		return nil, errors.New("--staged and --rev exclude each other")
	}
	if opts.DryRun && !opts.Fix {
		return nil, errors.New("--dry-run shows what --fix would write: give both")
	}
	if err := checkRev("--rev", opts.Rev); err != nil {
		return nil, err
	}
	if err := checkRev("--changed-since", opts.ChangedSince); err != nil {
		return nil, err
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
	git     *gitRepo // nil outside git
}

// gitRepo is the git repository around a workspace.
type gitRepo struct {
	repo *source.Repo
	// prefix is the workspace's directory within the work tree,
	// slash-separated with a trailing slash, "" at the top: git's index
	// and trees name files from the top, the workspace from its root.
	prefix string
}

// openGit opens the repository around the workspace; nil outside git.
func (w *Workspace) openGit() (*gitRepo, error) {
	repo, err := source.OpenRepo(w.root)
	if err != nil {
		return nil, nil
	}
	g := &gitRepo{repo: repo}
	if top := repo.Root(); top != "" {
		rel, err := filepath.Rel(evalSymlinks(top), evalSymlinks(w.root))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("workspace %s is not inside its git work tree %s", w.root, top)
		}
		if rel != "." {
			g.prefix = filepath.ToSlash(rel) + "/"
		}
	}
	return g, nil
}

func evalSymlinks(p string) string {
	if q, err := filepath.EvalSymlinks(p); err == nil {
		return q
	}
	return p
}

// sub narrows a git source (paths from the work tree's top) to the
// workspace.
func (g *gitRepo) sub(fsys fs.FS) (fs.FS, error) {
	if g.prefix == "" {
		return fsys, nil
	}
	return fs.Sub(fsys, strings.TrimSuffix(g.prefix, "/"))
}

// readGit reads what a verification needs from git: the source for
// --rev and --staged, the base, and the changed files.
func (w *Workspace) readGit(ctx context.Context, opts VerifyOptions) (*verifySource, error) {
	g, err := w.openGit()
	if err != nil {
		return nil, err
	}
	head := ""
	if g != nil {
		head, _ = g.repo.Head() // "" on an unborn branch
	}
	vs := &verifySource{renames: map[string]string{}, git: g}
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
			d.changed, d.renames, d.err = w.changedFiles(ctx, head, opts, "")
			staged <- d
		}()
		defer func() {
			if staged != nil {
				<-staged
			}
		}()
	}
	rev := ""
	switch {
	case opts.Rev != "":
		if g == nil {
			return nil, fmt.Errorf("--rev %s: %s is not in a git repository", opts.Rev, w.root)
		}
		if rev, err = w.resolve(ctx, g, "--rev", opts.Rev); err != nil {
			return nil, err
		}
		tree, err := g.repo.Tree(rev)
		if err != nil {
			return nil, err
		}
		if vs.files, err = g.sub(tree); err != nil {
			return nil, err
		}
		vs.name, vs.commit = rev, rev
	case opts.Staged:
		if g == nil {
			return nil, fmt.Errorf("--staged: %s is not in a git repository", w.root)
		}
		idx, err := g.repo.Index()
		if err != nil {
			return nil, err
		}
		if vs.files, err = g.sub(idx); err != nil {
			return nil, err
		}
		vs.name, vs.commit = "index", head
	default:
		vs.files, vs.name, vs.commit = source.Dir(w.root), "worktree", head
		vs.index = true // once verify brings the index up to date
	}
	baseRev := head
	if opts.ChangedSince != "" {
		if g == nil {
			return nil, fmt.Errorf("--changed-since %s: %s is not in a git repository", opts.ChangedSince, w.root)
		}
		mb, err := w.mergeBase(ctx, g, opts.ChangedSince, rev, head)
		if err != nil {
			return nil, err
		}
		baseRev = mb
	}
	vs.baseID = baseRev
	// The base is where baselines were probably taken; a commit is not its
	// own base.
	if g != nil && baseRev != "" && !(opts.Rev != "" && baseRev == vs.commit) {
		// Read lazily: the base serves only relocation, which most runs
		// never need, and reading a large tree costs ~100 ms.
		vs.base = &lazyFS{open: func() (fs.FS, error) {
			tree, err := g.repo.Tree(baseRev)
			if err != nil {
				return nil, err
			}
			return g.sub(tree)
		}}
	}
	switch {
	case opts.ChangedSince != "":
		vs.changed, vs.renames, err = w.changedFiles(ctx, vs.baseID, opts, rev)
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

// resolve turns a revision given on a flag into a commit id, saying what
// to do when the clone lacks it.
func (w *Workspace) resolve(ctx context.Context, g *gitRepo, flag, rev string) (string, error) {
	id, err := g.repo.Resolve(ctx, rev)
	if err == nil {
		return id, nil
	}
	msg := fmt.Sprintf("%s %s: unknown revision", flag, rev)
	if g.repo.Shallow() {
		return "", fmt.Errorf("%s in this shallow clone: fetch the history (git fetch --unshallow; on GitHub Actions, actions/checkout with fetch-depth: 0)", msg)
	}
	if remote, branch, ok := strings.Cut(rev, "/"); ok && !strings.ContainsAny(rev, "~^:@") {
		return "", fmt.Errorf("%s: fetch it first (git fetch %s %s)", msg, remote, branch)
	}
	if strings.Contains(err.Error(), "unknown revision") {
		return "", fmt.Errorf("%s: check the name (git branch -a and git tag list what there is)", msg)
	}
	return "", fmt.Errorf("%s: %w", msg, err)
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
	var base *anchors.Source
	if vs.base != nil {
		base, err = anchors.NewSource(vs.base, anchors.SourceOptions{Ignore: w.cfg.Ignore, MaxFileSize: w.cfg.MaxFileSize})
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
	if opts.ChangedSince != "" {
		rep.Base = vs.baseID
	}
	// One run over every selected anchor, so that two anchors never take
	// the same new location and renames found in the run explain callers.
	var batch []anchors.Learning
	var positions [][]int // per learning of batch: 1-based positions of its anchors
	var paths []string    // per learning of batch: its file
	for _, id := range ids {
		path := w.learnings.Path(id)
		whole := changed == nil || changed[path]
		if !whole && !w.learnings.AnyAnchor(id, func(a anchors.Anchor) bool { return touches(a, changed, renames) }) {
			continue // looked at without decoding the learning
		}
		l := w.learnings.Learning(id)
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
			rs[k].Learning, rs[k].Anchor, rs[k].Title = bl.ID, positions[bi][j], rep.Titles[bl.ID]
			verified = append(verified, a)
			k++
		}
	}
	if opts.ChangedSince != "" {
		if err := w.markPreexisting(ctx, vs, base, opts.Threshold, rs, verified, paths, batch); err != nil {
			return nil, err
		}
	}
	rep.Results = append(rep.Results, rs...)
	broken, err := w.malformed(ctx, opts, vs)
	if err != nil {
		return nil, err
	}
	rep.Results = append(rep.Results, broken...)
	rep.Summary = anchors.Summarize(rep.Results)
	if err := w.recordTransitions(st, vs.commit, rs); err != nil {
		return nil, err
	}
	if opts.Fix {
		var fixes []anchorFix
		k := 0
		for bi, bl := range batch {
			for range bl.Anchors {
				if a, ok := anchors.Fix(rs[k]); ok {
					fixes = append(fixes, anchorFix{learning: bl.ID, path: paths[bi], old: verified[k], new: a})
				}
				k++
			}
		}
		if err := w.fix(ctx, vs, opts, fixes, rep); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// malformed returns a finding for each learning file that does not parse:
// its anchors cannot be read, so it must never pass unseen. A staged
// verification judges the staged version of the learning files the commit
// touches; others judge the working copies (only the changed ones when
// the verification is limited to changed files).
func (w *Workspace) malformed(ctx context.Context, opts VerifyOptions, vs *verifySource) ([]anchors.Result, error) {
	type bad struct {
		path string
		data []byte
		err  error
	}
	var found []bad
	seen := map[string]bool{}
	if opts.Staged && vs.changed != nil {
		var names []string
		for p := range vs.changed {
			if isLearningPath(p) {
				names = append(names, p)
			}
		}
		sort.Strings(names)
		for _, p := range names {
			data, err := fs.ReadFile(vs.files, p)
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
	if !opts.Staged || vs.changed == nil {
		for _, name := range w.learnings.Broken() {
			p := learnfile.Dir + "/" + name
			if seen[p] || (vs.changed != nil && !vs.changed[p]) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(w.learningsDir(), name))
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
func (w *Workspace) markPreexisting(ctx context.Context, vs *verifySource, base *anchors.Source, threshold float64, rs []anchors.Result, verified []anchors.Anchor, paths []string, batch []anchors.Learning) error {
	if vs.base == nil || base == nil {
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
			if data, err := fs.ReadFile(vs.base, p); err == nil {
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

// selectLearnings resolves ids or prefixes; none means every learning.
func (w *Workspace) selectLearnings(args []string) ([]string, error) {
	if len(args) == 0 {
		return w.learnings.IDs(), nil
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
		if anchors.MatchGlob(a.Glob, p) {
			return true
		}
	}
	return false
}

// git runs git in the workspace's root and returns its standard output.
func (w *Workspace) git(ctx context.Context, args ...string) ([]byte, error) {
	return w.gitIn(ctx, nil, args...)
}

// gitIn is git with stdin (nil: none).
func (w *Workspace) gitIn(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = w.root
	cmd.Env = gitEnv()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
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

// gitEnv is the environment for git processes lore starts in the
// workspace's root. git gives hooks some paths relative to the directory
// it runs them in (GIT_INDEX_FILE=.git/index for a plain commit): they are
// made absolute, as this process resolves them, so that a git process in
// another directory reads the same files.
func gitEnv() []string {
	env := os.Environ()
	for i, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR":
			if v != "" && !filepath.IsAbs(v) {
				if abs, err := filepath.Abs(v); err == nil {
					env[i] = k + "=" + abs
				}
			}
		}
	}
	return env
}

// mergeBase returns the merge base of since and rev (a commit id; "" for
// HEAD, whose id is head).
func (w *Workspace) mergeBase(ctx context.Context, g *gitRepo, since, rev, head string) (string, error) {
	if rev == "" {
		rev = head
	}
	if rev == "" {
		return "", fmt.Errorf("--changed-since %s: HEAD has no commit yet", since)
	}
	id, err := w.resolve(ctx, g, "--changed-since", since)
	if err != nil {
		return "", err
	}
	out, err := w.git(ctx, "merge-base", "--end-of-options", id, rev)
	if err != nil {
		if g.repo.Shallow() {
			return "", fmt.Errorf("--changed-since %s: no merge base in this shallow clone: fetch the history (git fetch --unshallow; on GitHub Actions, actions/checkout with fetch-depth: 0)", since)
		}
		return "", fmt.Errorf("--changed-since %s: no common history with the verified commit: %w", since, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// changedFiles lists the files that differ between the commit mb and the
// source (the commit rev, the index with Staged, else the working tree),
// relative to the workspace's root, with the renames among them.
func (w *Workspace) changedFiles(ctx context.Context, mb string, opts VerifyOptions, rev string) (map[string]bool, map[string]string, error) {
	args := []string{"diff", "--name-status", "-M", "-z", "--relative"}
	if opts.Staged {
		args = append(args, "--cached")
	}
	args = append(args, "--end-of-options", mb)
	if rev != "" {
		args = append(args, rev)
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
			l := w.learnings.Learning(id)
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
