package source

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

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
	r, err := OpenRepo(repoDir)
	if err != nil {
		return nil, err
	}
	return r.Index()
}

// Index is GitIndex of an open repository.
func (r *Repo) Index() (fs.FS, error) {
	idx, err := r.st.Index()
	if err != nil {
		return nil, fmt.Errorf("%s: read git index: %w", r.dir, err)
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
		m.add(name, &memEntry{size: int64(e.Size), mode: gitMode(e.Mode), modTime: e.ModifiedAt, load: blobLoader(r.st, e.Hash)})
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
	_, body, err := r.object(h, plumbing.CommitObject)
	if err != nil {
		return nil, fmt.Errorf("%s: commit %s: %w", r.dir, h, err)
	}
	tree, err := headerHash(body, "tree ")
	if err != nil {
		return nil, fmt.Errorf("%s: commit %s: %w", r.dir, h, err)
	}
	m := newMemFS()
	if err := r.addTree(m, tree, ""); err != nil {
		return nil, fmt.Errorf("%s: walk tree of %s: %w", r.dir, h, err)
	}
	m.finish()
	return m, nil
}

// addTree adds the entries of a tree object ("<octal mode> <name>\0<20-byte
// id>" each) under prefix.
func (r *Repo) addTree(m *memFS, tree plumbing.Hash, prefix string) error {
	_, body, err := r.object(tree, plumbing.TreeObject)
	if err != nil {
		return err
	}
	for len(body) > 0 {
		sp := bytes.IndexByte(body, ' ')
		nul := bytes.IndexByte(body, 0)
		if sp < 0 || nul < sp || len(body) < nul+1+20 {
			return fmt.Errorf("tree %s: malformed entry", tree)
		}
		mode, err := strconv.ParseUint(string(body[:sp]), 8, 32)
		if err != nil {
			return fmt.Errorf("tree %s: bad mode %q", tree, body[:sp])
		}
		entry := string(body[sp+1 : nul])
		var h plumbing.Hash
		copy(h[:], body[nul+1:nul+21])
		body = body[nul+21:]

		name := path.Join(prefix, entry)
		if strings.Contains(entry, "/") || cleanRel(name) == "" {
			continue
		}
		switch fm := filemode.FileMode(mode); fm {
		case filemode.Dir:
			if _, ok := m.dirs[name]; !ok {
				m.dirs[name] = nil
				m.link(name)
			}
			if err := r.addTree(m, h, name); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		case filemode.Submodule:
			continue
		default:
			st := r.st
			sizeOf := func() int64 {
				n, err := st.EncodedObjectSize(h)
				if err != nil {
					return 0 // reading the blob will report the error
				}
				return n
			}
			m.add(name, &memEntry{sizeOf: sizeOf, mode: gitMode(fm), load: blobLoader(st, h)})
		}
	}
	return nil
}
