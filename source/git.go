package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// blob returns the content of a blob.
func (r *Repo) blob(h plumbing.Hash) ([]byte, error) {
	_, b, err := r.object(h, plumbing.BlobObject)
	if err != nil {
		return nil, fmt.Errorf("blob %s: %w", h, err)
	}
	return b, nil
}

// blobLoader reads blob h when a file system's file is read.
func (r *Repo) blobLoader(h plumbing.Hash) func() ([]byte, error) {
	return func() ([]byte, error) { return r.blob(h) }
}

// blobSize returns the size of blob h without reading it, 0 when that
// fails (reading the blob then reports the error).
func (r *Repo) blobSize(h plumbing.Hash) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	o, err := r.objects()
	if err != nil {
		return 0
	}
	n, err := o.size(h)
	if err != nil {
		return 0
	}
	return n
}

func gitMode(m filemode.FileMode) fs.FileMode {
	switch m {
	case filemode.Executable:
		return 0o755
	case filemode.Symlink:
		return fs.ModeSymlink | 0o777
	default:
		return 0o644
	}
}

// GitIndex returns the content staged in git's index (what a pre-commit
// hook verifies) of the repository containing repoDir. Conflicted paths
// show their stage-0 entry or, when there is none, "ours". Submodules
// (gitlinks) are left out. It needs no git binary.
func GitIndex(repoDir string) (fs.FS, error) {
	r, err := OpenRepo(repoDir)
	if err != nil {
		return nil, err
	}
	return r.Index()
}

// Index is GitIndex of an open repository. It reads the index file git
// itself would: $GIT_INDEX_FILE when set (git sets it for hooks of
// `git commit -a` and `git commit PATHS`, whose staged content is in a
// temporary index), else the git directory's index.
func (r *Repo) Index() (fs.FS, error) {
	file := os.Getenv("GIT_INDEX_FILE")
	if file == "" {
		file = filepath.Join(r.gitDir, "index")
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		data = nil // nothing staged yet
	} else if err != nil {
		return nil, fmt.Errorf("%s: read git index: %w", r.dir, err)
	}
	var entries []indexEntry
	if data != nil {
		if entries, err = parseIndex(data); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	m := newMemFS()
	m.files = make(map[string]*memEntry, len(entries))
	for _, e := range entries {
		if e.intentToAdd || e.mode&0o170000 == 0o160000 { // gitlink
			continue
		}
		if e.stage != 0 && e.stage != 2 { // merged or ours
			continue
		}
		dir := e.mode&0o170000 == 0o040000 // a sparse index's whole directory
		name := cleanRel(strings.TrimSuffix(e.name, "/"))
		if name == "" {
			continue
		}
		if dir {
			if err := r.addTree(m, plumbing.Hash(e.hash), name); err != nil {
				return nil, fmt.Errorf("%s: sparse directory %s: %w", r.dir, name, err)
			}
			continue
		}
		if prev, ok := m.files[name]; ok && e.stage != 0 && prev != nil {
			continue
		}
		m.add(name, &memEntry{size: int64(e.size), mode: indexMode(e.mode), modTime: e.mtime, load: r.blobLoader(plumbing.Hash(e.hash))})
	}
	m.finish()
	return m, nil
}

// GitTree returns the tree of the commit that rev names in the repository
// containing repoDir: "HEAD", a branch or tag, a commit id, or any
// revision git understands ("HEAD~1"; see Repo.Resolve). Files carry no
// modification time.
func GitTree(repoDir, rev string) (fs.FS, error) {
	r, err := OpenRepo(repoDir)
	if err != nil {
		return nil, err
	}
	id, err := r.Resolve(context.Background(), rev)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", repoDir, err)
	}
	return r.Tree(id)
}

// Tree returns the tree of a commit, given by its full id.
func (r *Repo) Tree(commit string) (fs.FS, error) {
	if !plumbing.IsHash(commit) || len(commit) != 40 {
		return nil, fmt.Errorf("%s: %q is not a commit id", r.dir, commit)
	}
	h := plumbing.NewHash(commit)
	r.mu.Lock()
	_, body, err := r.read(h, plumbing.CommitObject)
	var c Commit
	if err == nil {
		c, err = parseCommit(h, body)
	}
	r.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("%s: commit %s: %w", r.dir, h, err)
	}
	m := newMemFS()
	if err := r.addTree(m, c.Tree, ""); err != nil {
		return nil, fmt.Errorf("%s: walk tree of %s: %w", r.dir, h, err)
	}
	m.finish()
	return m, nil
}

// addTree adds the entries of a tree object under prefix.
func (r *Repo) addTree(m *memFS, tree plumbing.Hash, prefix string) error {
	r.mu.Lock()
	_, body, err := r.read(tree, plumbing.TreeObject)
	var entries []treeEntry
	if err == nil {
		entries, err = parseTree(body)
	}
	r.mu.Unlock()
	if err != nil {
		return fmt.Errorf("tree %s: %w", tree, err)
	}
	for _, e := range entries {
		name := path.Join(prefix, e.name)
		if strings.Contains(e.name, "/") || cleanRel(name) == "" {
			continue
		}
		switch e.mode {
		case filemode.Dir:
			if _, ok := m.dirs[name]; !ok {
				m.dirs[name] = nil
				m.link(name)
			}
			if err := r.addTree(m, e.hash, name); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		case filemode.Submodule:
			continue
		default:
			h := e.hash
			m.add(name, &memEntry{sizeOf: func() int64 { return r.blobSize(h) }, mode: gitMode(e.mode), load: r.blobLoader(h)})
		}
	}
	return nil
}
