package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// ErrNotRepository reports that a directory is not inside a git repository.
var ErrNotRepository = errors.New("not a git repository")

// Repo is a git repository's object store and index: objects are read
// by objects.go (go-git's pack index and delta code over mapped packs,
// go-git's storage for the rest), commits, trees and the index are parsed
// here. go-git's object model and porcelain would link an OpenPGP and SSH
// stack into every lore process, a measurable part of the start-up of
// short commands.
//
// A Repo and the file systems it returns are safe for concurrent use.
// Close releases the mapped packs; a Repo no longer used releases them by
// itself, later.
type Repo struct {
	dir    string // as given, for messages
	gitDir string
	common string // the directory of objects and refs
	root   string // the work tree's top directory; "" for a bare repository
	fs     billy.Filesystem

	// mu serialises every use of st and objs. go-git's storage loads pack
	// indexes into maps on first use, and keeps packs and caches, without
	// locks: goroutines sharing it read "object not found" or each other's
	// objects; objs keeps a cache and a decompressor. Reading an object is
	// a small part of verifying it (parsing is most of it), so one reader
	// at a time costs little.
	mu     sync.Mutex
	st     *filesystem.Storage
	objs   *objects // opened on first use
	closed bool
}

// OpenRepo opens the repository that contains dir: a work tree (from any
// of its subdirectories), a linked worktree or a bare repository.
func OpenRepo(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	gitDir, root, err := findGitDir(abs)
	if err != nil {
		return nil, err
	}
	common := commonDir(gitDir)
	var fs billy.Filesystem = osfs.New(gitDir)
	if common != gitDir {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(common))
	}
	return &Repo{dir: dir, gitDir: gitDir, common: common, root: root, fs: fs, st: newStorage(fs)}, nil
}

// newStorage is go-git's storage of the git directory fs, whose loose
// objects and alternates (objects/info/alternates, which name directories
// anywhere on the machine) it reads.
func newStorage(fs billy.Filesystem) *filesystem.Storage {
	return filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(storageCacheBytes),
		filesystem.Options{AlternatesFS: osfs.New(string(filepath.Separator), osfs.WithBoundOS())})
}

// storageCacheBytes bounds go-git's cache of the objects it reads, which
// are the few that objects.go leaves to it (loose ones above all).
const storageCacheBytes = 8 << 20

// Close releases what the Repo holds open. The file systems it returned
// cannot read files afterwards.
func (r *Repo) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	var err error
	if r.objs != nil {
		err = r.objs.close()
	}
	return errors.Join(err, r.st.Close())
}

// objects returns the object reader, opened on first use. The caller
// holds r.mu.
func (r *Repo) objects() (*objects, error) {
	if r.closed {
		return nil, fmt.Errorf("%s: repository closed", r.dir)
	}
	if r.objs == nil {
		r.objs = openObjects(r.st, filepath.Join(r.common, "objects"))
		// A Repo dropped without Close (GitIndex, GitTree) unmaps its
		// packs once it is unreachable.
		runtime.AddCleanup(r, func(o *objects) { _ = o.close() }, r.objs) // no one to tell
	}
	return r.objs, nil
}

// Root returns the top directory of the repository's work tree, the
// directory that paths in its index and trees are relative to; "" for a
// bare repository.
func (r *Repo) Root() string { return r.root }

// GitDir returns the git directory for dir, looking upwards as git does
// and following the "gitdir:" files of linked worktrees and submodules,
// and the common directory that holds objects and refs (the git
// directory itself except in linked worktrees).
func GitDir(dir string) (gitDir, common string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", dir, err)
	}
	gitDir, _, err = findGitDir(abs)
	if err != nil {
		return "", "", err
	}
	return gitDir, commonDir(gitDir), nil
}

// commonDir is the directory holding a git directory's objects and refs:
// itself except in linked worktrees.
func commonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(b))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return c
}

// findGitDir returns the git directory for abs and the top of its work
// tree ("" when bare).
func findGitDir(abs string) (gitDir, root string, err error) {
	for p := abs; ; {
		dot := filepath.Join(p, ".git")
		fi, err := os.Stat(dot)
		switch {
		case err == nil && fi.IsDir():
			return dot, p, nil
		case err == nil:
			b, err := os.ReadFile(dot)
			if err != nil {
				return "", "", fmt.Errorf("%s: %w", dot, err)
			}
			g, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if !ok {
				return "", "", fmt.Errorf("%s: not a gitdir file", dot)
			}
			g = strings.TrimSpace(g)
			if !filepath.IsAbs(g) {
				g = filepath.Join(p, g)
			}
			return g, p, nil
		case !errors.Is(err, os.ErrNotExist):
			return "", "", fmt.Errorf("%s: %w", dot, err)
		}
		if isBareGitDir(p) {
			return p, "", nil
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", "", fmt.Errorf("%s: %w", abs, ErrNotRepository)
		}
		p = parent
	}
}

func isBareGitDir(p string) bool {
	for _, n := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(p, n)); err != nil {
			return false
		}
	}
	return true
}

// Shallow reports whether the repository is a shallow clone: its history
// stops at the commits listed in the shallow file, so merge bases older
// than those are not there.
func (r *Repo) Shallow() bool {
	fi, err := os.Stat(filepath.Join(commonDir(r.gitDir), "shallow"))
	return err == nil && fi.Size() > 0
}

// Head returns the id of the commit HEAD points to; an unborn branch is
// an error.
func (r *Repo) Head() (string, error) {
	ref, err := r.ref(plumbing.HEAD)
	if err != nil {
		return "", fmt.Errorf("%s: HEAD: %w", r.dir, err)
	}
	return ref.String(), nil
}

func (r *Repo) ref(name plumbing.ReferenceName) (plumbing.Hash, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for range 10 { // symbolic refs, as git, at most a few levels deep
		ref, err := r.st.Reference(name)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if ref.Type() != plumbing.SymbolicReference {
			return ref.Hash(), nil
		}
		name = ref.Target()
	}
	return plumbing.ZeroHash, fmt.Errorf("%s: symbolic reference loop", name)
}

// Resolve returns the id of the commit rev names. Full ids and ref names
// (HEAD, branches, tags, remote branches) are resolved here; other
// revision syntax (HEAD~1, short ids, @{upstream}, ...) is handed to the
// git binary, so that it means exactly what it means to git.
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("resolve %q: not a revision", rev)
	}
	h, found := plumbing.ZeroHash, false
	if len(rev) == 40 && plumbing.IsHash(rev) {
		h, found = plumbing.NewHash(rev), true
	} else if plainRefName(rev) {
		for _, f := range []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"} {
			if x, err := r.ref(plumbing.ReferenceName(fmt.Sprintf(f, rev))); err == nil {
				h, found = x, true
				break
			}
		}
	}
	if !found {
		return r.revParse(ctx, rev)
	}
	c, err := r.peelCommit(h)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", rev, err)
	}
	return c.String(), nil
}

// plainRefName says whether rev is a name to look up among refs rather
// than an expression for git (or something that could leave the git
// directory).
func plainRefName(rev string) bool {
	if rev == "@" || strings.Contains(rev, "..") || strings.Contains(rev, "@{") ||
		strings.HasPrefix(rev, "/") || strings.HasSuffix(rev, "/") || strings.HasPrefix(rev, ".") {
		return false
	}
	for _, c := range rev {
		if c < ' ' || c == 0x7f || strings.ContainsRune("~^:?*[\\ ", c) {
			return false
		}
	}
	return true
}

// peelCommit follows annotated tags to the commit they name.
func (r *Repo) peelCommit(h plumbing.Hash) (plumbing.Hash, error) {
	for range 10 {
		t, body, err := r.object(h, plumbing.AnyObject)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		switch t {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			if h, err = headerHash(body, "object "); err != nil {
				return plumbing.ZeroHash, fmt.Errorf("tag %s: %w", h, err)
			}
		default:
			return plumbing.ZeroHash, fmt.Errorf("%s is a %s, not a commit", h, t)
		}
	}
	return plumbing.ZeroHash, errors.New("tags nested too deeply")
}

// object reads an object whole, of type t unless t is AnyObject, into a
// slice of the caller's.
func (r *Repo) object(h plumbing.Hash, t plumbing.ObjectType) (plumbing.ObjectType, []byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	typ, b, err := r.read(h, t)
	if err != nil {
		return 0, nil, err
	}
	return typ, bytes.Clone(b), nil
}

// read reads an object of type t (any with AnyObject); the content may be
// shared with the reader's cache and must not be modified. The caller
// holds r.mu.
func (r *Repo) read(h plumbing.Hash, t plumbing.ObjectType) (plumbing.ObjectType, []byte, error) {
	o, err := r.objects()
	if err != nil {
		return 0, nil, err
	}
	typ, b, err := o.read(h)
	if err == nil && t != plumbing.AnyObject && typ != t {
		err = plumbing.ErrObjectNotFound
	}
	if err != nil {
		return 0, nil, fmt.Errorf("object %s: %w", h, err)
	}
	return typ, b, nil
}

// headerHash reads the id after key in the header of a commit or tag.
func headerHash(body []byte, key string) (plumbing.Hash, error) {
	for len(body) > 0 {
		line, rest, _ := bytes.Cut(body, []byte{'\n'})
		if len(line) == 0 {
			break // end of the header
		}
		if v, ok := bytes.CutPrefix(line, []byte(key)); ok && len(v) == 40 && plumbing.IsHash(string(v)) {
			return plumbing.NewHash(string(v)), nil
		}
		body = rest
	}
	return plumbing.ZeroHash, fmt.Errorf("no %q line", strings.TrimSpace(key))
}

// Rel returns dir as a path from the top of the work tree: slash-separated,
// "" for the top itself. It fails when dir is outside the work tree, or
// the repository has none.
func (r *Repo) Rel(dir string) (string, error) {
	if r.root == "" {
		return "", fmt.Errorf("%s: a bare repository has no work tree", r.dir)
	}
	rel, err := filepath.Rel(evalSymlinks(r.root), evalSymlinks(dir))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is not inside the git work tree %s", dir, r.root)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

// TemporaryIndex reports whether git works on an index other than the
// repository's own: `git commit PATHS` commits from a temporary index
// (GIT_INDEX_FILE) while the real one stays locked.
func (r *Repo) TemporaryIndex() bool {
	file := os.Getenv("GIT_INDEX_FILE")
	if file == "" {
		return false
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return false
	}
	abs = evalSymlinks(filepath.Dir(abs)) + string(filepath.Separator) + filepath.Base(abs)
	real := filepath.Join(evalSymlinks(r.gitDir), "index")
	return abs != real && abs != real+".lock"
}

// evalSymlinks is filepath.EvalSymlinks, or p itself when that fails.
func evalSymlinks(p string) string {
	if q, err := filepath.EvalSymlinks(p); err == nil {
		return q
	}
	return p
}
