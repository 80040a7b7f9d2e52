package source

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	cgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"
)

// Commit is what a walk of history reads of a commit.
type Commit struct {
	ID      plumbing.Hash
	Tree    plumbing.Hash
	Parents []plumbing.Hash
	Time    int64 // committer time, Unix seconds
	// Author (the e-mail address in angle brackets, lower case: people
	// spell names in more ways than addresses), AuthorTime (Unix seconds)
	// and AuthorTZ (seconds east of UTC) are read by CommitFull only.
	Author     string
	AuthorTime int64
	AuthorTZ   int
}

// History reads a repository's history for one walk: commits (from the
// commit-graph file when the repository has one), the files that differ
// between two trees, and blobs. It keeps the trees it decoded while they
// are used, so a walk reads each changed tree about once. A History serves
// one goroutine; the Repo it reads may serve others meanwhile.
type History struct {
	r       *Repo
	cg      cgraph.Index // nil without a commit-graph file
	shallow map[plumbing.Hash]bool
	differ  *differ
}

// History opens a reader of the repository's history. Close it when the
// walk is done.
func (r *Repo) History() (*History, error) {
	h := &History{r: r, differ: newDiffer(r)}
	if idx, err := cgraph.OpenChainOrFileIndex(r.fs); err == nil {
		h.cg = idx
	}
	sh, err := r.st.Shallow()
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s: read the shallow list: %w", r.gitDir, err), h.Close())
	}
	if len(sh) > 0 {
		h.shallow = make(map[plumbing.Hash]bool, len(sh))
		for _, id := range sh {
			h.shallow[id] = true
		}
	}
	return h, nil
}

// Close releases the commit-graph file.
func (h *History) Close() error {
	if h.cg != nil {
		return h.cg.Close()
	}
	return nil
}

// Head returns the commit HEAD points at, or the zero hash when the
// current branch has no commits yet.
func (h *History) Head() (plumbing.Hash, error) {
	id, err := h.r.ref(plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("resolve HEAD: %w", err)
	}
	return id, nil
}

// Shallow reports whether a commit is at the boundary of a shallow clone:
// its parents are not in the repository.
func (h *History) Shallow(id plumbing.Hash) bool { return h.shallow[id] }

// Commit returns a commit's tree, parents and committer time, from the
// commit-graph when it knows the commit.
func (h *History) Commit(id plumbing.Hash) (Commit, error) {
	if h.cg != nil {
		if i, err := h.cg.GetIndexByHash(id); err == nil {
			if d, err := h.cg.GetCommitDataByIndex(i); err == nil {
				return Commit{ID: id, Tree: d.TreeHash, Parents: d.ParentHashes, Time: d.When.Unix()}, nil
			}
		}
	}
	return h.CommitFull(id)
}

// CommitFull returns a commit read from its object, its author too.
func (h *History) CommitFull(id plumbing.Hash) (Commit, error) {
	h.r.mu.Lock()
	_, b, err := h.r.read(id, plumbing.CommitObject)
	var c Commit
	if err == nil {
		c, err = parseCommit(id, b)
	}
	h.r.mu.Unlock()
	return c, err
}

// Diff returns the files that differ between two trees (a zero hash stands
// for an empty tree), in git's order of paths. Subtrees with equal hashes
// are not read. The slice is valid until the next Diff.
func (h *History) Diff(a, b plumbing.Hash) ([]Change, error) {
	d := h.differ
	d.out = d.out[:0]
	if err := d.diff("", a, b); err != nil {
		return nil, err
	}
	return d.out, nil
}

// Blob returns a blob's content. It may be shared: it must not be
// modified.
func (h *History) Blob(id plumbing.Hash) ([]byte, error) {
	h.r.mu.Lock()
	defer h.r.mu.Unlock()
	_, b, err := h.r.read(id, plumbing.BlobObject)
	return b, err
}

// parseCommit reads the header of a commit object.
func parseCommit(id plumbing.Hash, b []byte) (Commit, error) {
	c := Commit{ID: id}
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl <= 0 {
			break // end of the header
		}
		line := b[:nl]
		b = b[nl+1:]
		key, val, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "tree":
			if t, ok := parseHash(val); ok {
				c.Tree = t
			}
		case "parent":
			if p, ok := parseHash(val); ok {
				c.Parents = append(c.Parents, p)
			}
		case "author":
			c.Author, c.AuthorTime, c.AuthorTZ = parseSignature(val)
		case "committer":
			_, c.Time, _ = parseSignature(val)
		}
	}
	if c.Tree.IsZero() {
		return Commit{}, fmt.Errorf("commit %s: no tree", id)
	}
	return c, nil
}

func parseHash(b []byte) (plumbing.Hash, bool) {
	if len(b) != 40 || !plumbing.IsHash(string(b)) {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(string(b)), true
}

// parseSignature splits "Name <email> 1700000000 +0100" into the e-mail
// address (in angle brackets, lower case), the time and the zone.
func parseSignature(b []byte) (ident string, unix int64, tz int) {
	gt := bytes.LastIndexByte(b, '>')
	if gt < 0 {
		return string(b), 0, 0
	}
	ident = string(b[:gt+1])
	f := strings.Fields(string(b[gt+1:]))
	if len(f) > 0 {
		unix, _ = strconv.ParseInt(f[0], 10, 64)
	}
	if len(f) > 1 && len(f[1]) == 5 {
		hh, _ := strconv.Atoi(f[1][1:3])
		mm, _ := strconv.Atoi(f[1][3:5])
		tz = hh*3600 + mm*60
		if f[1][0] == '-' {
			tz = -tz
		}
	}
	if lt := strings.IndexByte(ident, '<'); lt >= 0 {
		ident = strings.ToLower(ident[lt:])
	}
	return ident, unix, tz
}

// Lookup returns the blob a path names in a tree (a zero hash stands for an
// empty tree), or the zero hash when the tree has no file there. Trees are
// read through the same cache as Diff's.
func (h *History) Lookup(tree plumbing.Hash, path string) (plumbing.Hash, error) {
	cur := tree
	for cur != plumbing.ZeroHash {
		name, rest, more := strings.Cut(path, "/")
		entries, err := h.differ.tree(cur)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		i, found := slices.BinarySearchFunc(entries, name, func(e treeEntry, n string) int {
			return strings.Compare(e.name, n)
		})
		if !found {
			// Entries sort as git sorts them (a directory as if its name
			// ended in '/'): look around for an equal name.
			i = slices.IndexFunc(entries, func(e treeEntry) bool { return e.name == name })
			if i < 0 {
				return plumbing.ZeroHash, nil
			}
		}
		e := entries[i]
		switch {
		case more && e.isDir():
			cur, path = e.hash, rest
		case !more && e.mode.IsFile():
			return e.hash, nil
		default:
			return plumbing.ZeroHash, nil
		}
	}
	return plumbing.ZeroHash, nil
}
