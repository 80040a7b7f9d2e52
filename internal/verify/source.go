package verify

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing/fstest"

	"github.com/lorehq/lore/source"
)

// ReadOptions say what a verification reads: the working tree (the
// default), git's index (Staged) or a commit's tree (Rev), and with
// ChangedSince only what changed since the merge base with that revision.
// A staged verification reads only what the commit touches unless
// Everything is set.
type ReadOptions struct {
	Staged       bool
	Rev          string
	ChangedSince string
	Everything   bool
}

// Source is what one verification reads.
type Source struct {
	Name   string // worktree, index or a commit id
	Commit string // the commit transitions are attributed to ("" without git)
	Files  fs.FS
	Base   fs.FS // where baselines were probably taken: HEAD or the merge base; nil for none
	BaseID string
	// Worktree says Files is the working tree, which the analyzer's index
	// describes once it is brought up to date.
	Worktree bool
	// Changed, when not nil, limits verification to anchors into these
	// files (and renames' old paths).
	Changed map[string]bool
	Renames map[string]string
	// Diffed lists the files that differ between Base and Files, as git
	// says (nil when it cannot): where relocation reads the change's
	// calls. Every mode has it, so that the hook, CI, a plain verify and
	// accept follow the same renames; where the run does not need the
	// diff anyway, git is asked only when relocation first calls it.
	Diffed func(context.Context) []string
	git    *gitRepo // nil outside git
}

// gitRepo is the git repository around a workspace.
type gitRepo struct {
	repo *source.Repo
	// prefix is the workspace's directory within the work tree,
	// slash-separated with a trailing slash, "" at the top: git's index
	// and trees name files from the top, the workspace from its root.
	prefix string
}

// Close releases the repository the source reads; its files cannot be
// read afterwards.
func (s *Source) Close() error {
	if s == nil || s.git == nil {
		return nil
	}
	return s.git.repo.Close()
}

// openGit opens the repository around the workspace at root; nil outside
// git.
func openGit(root string) (*gitRepo, error) {
	repo, err := source.OpenRepo(root)
	if err != nil {
		return nil, nil
	}
	g := &gitRepo{repo: repo}
	if repo.Root() != "" {
		rel, err := repo.Rel(root)
		if err != nil {
			return nil, fmt.Errorf("workspace %s is not inside its git work tree %s", root, repo.Root())
		}
		if rel != "" {
			g.prefix = rel + "/"
		}
	}
	return g, nil
}

// sub narrows a git source (paths from the work tree's top) to the
// workspace.
func (g *gitRepo) sub(fsys fs.FS) (fs.FS, error) {
	if g.prefix == "" {
		return fsys, nil
	}
	return fs.Sub(fsys, strings.TrimSuffix(g.prefix, "/"))
}

// Read reads what a verification of the workspace at root needs from git
// (or the working tree): the files, the base, and the changed files.
func Read(ctx context.Context, root string, opts ReadOptions) (*Source, error) {
	g, err := openGit(root)
	if err != nil {
		return nil, err
	}
	head := ""
	if g != nil {
		head, _ = g.repo.Head() // "" on an unborn branch
	}
	vs := &Source{Renames: map[string]string{}, git: g}
	// A staged verification asks a git process for the staged changes
	// while this one reads the index.
	type diff struct {
		changed map[string]bool
		renames map[string]string
		err     error
	}
	var pending chan diff
	if opts.Staged && !opts.Everything && opts.ChangedSince == "" && head != "" {
		pending = make(chan diff, 1)
		go func() {
			var d diff
			d.changed, d.renames, d.err = g.repo.ChangedFiles(ctx, source.DiffOptions{From: head, Staged: opts.Staged})
			pending <- d
		}()
		defer func() {
			if pending != nil {
				<-pending
			}
		}()
	}
	rev := ""
	switch {
	case opts.Rev != "":
		if g == nil {
			return nil, fmt.Errorf("--rev %s: %s is not in a git repository", opts.Rev, root)
		}
		if rev, err = resolve(ctx, g, "--rev", opts.Rev); err != nil {
			return nil, err
		}
		tree, err := g.repo.Tree(rev)
		if err != nil {
			return nil, err
		}
		if vs.Files, err = g.sub(tree); err != nil {
			return nil, err
		}
		vs.Name, vs.Commit = rev, rev
	case opts.Staged:
		if g == nil {
			return nil, fmt.Errorf("--staged: %s is not in a git repository", root)
		}
		idx, err := g.repo.Index()
		if err != nil {
			return nil, err
		}
		if vs.Files, err = g.sub(idx); err != nil {
			return nil, err
		}
		vs.Name, vs.Commit = "index", head
	default:
		vs.Files, vs.Name, vs.Commit = source.Dir(root), "worktree", head
		vs.Worktree = true
	}
	baseRev := head
	if opts.ChangedSince != "" {
		if g == nil {
			return nil, fmt.Errorf("--changed-since %s: %s is not in a git repository", opts.ChangedSince, root)
		}
		mb, err := mergeBase(ctx, g, opts.ChangedSince, rev, head)
		if err != nil {
			return nil, err
		}
		baseRev = mb
	}
	vs.BaseID = baseRev
	// The base is where baselines were probably taken; a commit is not its
	// own base.
	if g != nil && baseRev != "" && !(opts.Rev != "" && baseRev == vs.Commit) {
		// Read lazily: the base serves only relocation, which most runs
		// never need, and a large tree takes long to read.
		vs.Base = &lazyFS{open: func() (fs.FS, error) {
			tree, err := g.repo.Tree(baseRev)
			if err != nil {
				return nil, err
			}
			return g.sub(tree)
		}}
	}
	var d diff
	switch {
	case opts.ChangedSince != "":
		d.changed, d.renames, d.err = g.repo.ChangedFiles(ctx, source.DiffOptions{From: vs.BaseID, To: rev, Staged: opts.Staged})
	case pending != nil:
		d = <-pending
		pending = nil
	}
	if d.err != nil {
		return nil, d.err
	}
	switch {
	case d.changed != nil:
		// Only what the commit (or the branch) changed is verified.
		vs.Changed, vs.Renames = d.changed, d.renames
		files := slices.Sorted(maps.Keys(d.changed))
		vs.Diffed = func(context.Context) []string { return files }
	case vs.Base != nil:
		vs.Diffed = lazyDiff(g, source.DiffOptions{From: baseRev, To: rev, Staged: opts.Staged})
	}
	return vs, nil
}

// lazyDiff returns the files git says differ as o asks, listed on the
// first call (nil if git fails: the diff is evidence, not the subject).
func lazyDiff(g *gitRepo, o source.DiffOptions) func(context.Context) []string {
	var once sync.Once
	var files []string
	return func(ctx context.Context) []string {
		once.Do(func() {
			if changed, _, err := g.repo.ChangedFiles(ctx, o); err == nil {
				files = slices.Sorted(maps.Keys(changed))
			}
		})
		return files
	}
}

// resolve turns a revision given on a flag into a commit id, saying what
// to do when the clone lacks it.
func resolve(ctx context.Context, g *gitRepo, flag, rev string) (string, error) {
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

// mergeBase returns the merge base of since and rev (a commit id; "" for
// HEAD, whose id is head).
func mergeBase(ctx context.Context, g *gitRepo, since, rev, head string) (string, error) {
	if rev == "" {
		rev = head
	}
	if rev == "" {
		return "", fmt.Errorf("--changed-since %s: HEAD has no commit yet", since)
	}
	id, err := resolve(ctx, g, "--changed-since", since)
	if err != nil {
		return "", err
	}
	mb, err := g.repo.MergeBase(ctx, id, rev)
	if err != nil {
		if g.repo.Shallow() {
			return "", fmt.Errorf("--changed-since %s: no merge base in this shallow clone: fetch the history (git fetch --unshallow; on GitHub Actions, actions/checkout with fetch-depth: 0)", since)
		}
		return "", fmt.Errorf("--changed-since %s: no common history with the verified commit: %w", since, err)
	}
	return mb, nil
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
