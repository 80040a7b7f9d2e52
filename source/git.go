package source

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

func openRepo(repoDir string) (*git.Repository, error) {
	r, err := git.PlainOpenWithOptions(repoDir, &git.PlainOpenOptions{DetectDotGit: true})
	if err != nil {
		return nil, fmt.Errorf("%s: open git repository: %w", repoDir, err)
	}
	return r, nil
}

func blobLoader(s storer.EncodedObjectStorer, h plumbing.Hash) func() ([]byte, error) {
	return func() ([]byte, error) {
		o, err := s.EncodedObject(plumbing.BlobObject, h)
		if err != nil {
			return nil, fmt.Errorf("blob %s: %w", h, err)
		}
		rd, err := o.Reader()
		if err != nil {
			return nil, fmt.Errorf("blob %s: %w", h, err)
		}
		defer rd.Close()
		b, err := io.ReadAll(rd)
		if err != nil {
			return nil, fmt.Errorf("blob %s: %w", h, err)
		}
		return b, nil
	}
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
	r, err := openRepo(repoDir)
	if err != nil {
		return nil, err
	}
	idx, err := r.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("%s: read git index: %w", repoDir, err)
	}
	m := newMemFS()
	for _, e := range idx.Entries {
		if e.Mode == filemode.Submodule || e.IntentToAdd {
			continue
		}
		if e.Stage != 0 && e.Stage != 2 { // merged or ours
			continue
		}
		name := cleanRel(e.Name)
		if name == "" {
			continue
		}
		if prev, ok := m.files[name]; ok && e.Stage != 0 && prev != nil {
			continue
		}
		m.add(name, &memEntry{size: int64(e.Size), mode: gitMode(e.Mode), modTime: e.ModifiedAt, load: blobLoader(r.Storer, e.Hash)})
	}
	m.finish()
	return m, nil
}

// GitTree returns the tree of the commit that rev names in the repository
// containing repoDir. rev is anything go-git resolves: "HEAD", a branch or
// tag, a (short) hash, "HEAD~1". Files carry no modification time.
func GitTree(repoDir, rev string) (fs.FS, error) {
	r, err := openRepo(repoDir)
	if err != nil {
		return nil, err
	}
	h, err := r.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("%s: resolve %q: %w", repoDir, rev, err)
	}
	c, err := r.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("%s: commit %s: %w", repoDir, h, err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("%s: tree of %s: %w", repoDir, h, err)
	}
	m := newMemFS()
	if err := addTree(r.Storer, m, t, ""); err != nil {
		return nil, fmt.Errorf("%s: walk tree of %s: %w", repoDir, h, err)
	}
	m.finish()
	return m, nil
}

func addTree(s storer.EncodedObjectStorer, m *memFS, t *object.Tree, prefix string) error {
	for _, e := range t.Entries {
		name := path.Join(prefix, e.Name)
		if strings.Contains(e.Name, "/") || cleanRel(name) == "" {
			continue
		}
		switch e.Mode {
		case filemode.Dir:
			sub, err := object.GetTree(s, e.Hash)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if _, ok := m.dirs[name]; !ok {
				m.dirs[name] = nil
				m.link(name)
			}
			if err := addTree(s, m, sub, name); err != nil {
				return err
			}
		case filemode.Submodule:
			continue
		default:
			h := e.Hash
			sizeOf := func() int64 {
				n, err := s.EncodedObjectSize(h)
				if err != nil {
					return 0 // reading the blob will report the error
				}
				return n
			}
			m.add(name, &memEntry{sizeOf: sizeOf, mode: gitMode(e.Mode), load: blobLoader(s, h)})
		}
	}
	return nil
}
