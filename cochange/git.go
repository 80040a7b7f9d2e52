package cochange

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	cgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/lorehq/lore/source"
)

// objectCacheSize bounds go-git's object cache. go-git only reads what is
// not in a pack this package maps itself (loose objects, alternates, packs
// it could not map), so it can be small.
const objectCacheSize = 8 * cache.MiByte

// gitRepo is a read-only view of a repository's object store, tuned for
// walking history: packfiles stay mapped, the commit-graph is used when
// present, raw objects are parsed without go-git's object model. It is not
// safe for concurrent use.
type gitRepo struct {
	st      *filesystem.Storage
	cg      cgraph.Index // nil without a commit-graph file
	packs   *packSet
	shallow map[plumbing.Hash]bool
	buf     []byte
}

// openRepo opens the repository that contains dir (a work tree, a linked
// worktree or a bare repository).
func openRepo(dir string) (*gitRepo, error) {
	dot, common, err := source.GitDir(dir)
	if err != nil {
		return nil, err
	}
	var fs billy.Filesystem = osfs.New(dot)
	if common != dot {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(common))
	}
	st := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(objectCacheSize),
		filesystem.Options{KeepDescriptors: true})
	r := &gitRepo{st: st, packs: openPacks(filepath.Join(common, "objects"))}
	if idx, err := cgraph.OpenChainOrFileIndex(fs); err == nil {
		r.cg = idx
	}
	sh, err := st.Shallow()
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("%s: read shallow list: %w", dot, err)
	}
	if len(sh) > 0 {
		r.shallow = make(map[plumbing.Hash]bool, len(sh))
		for _, h := range sh {
			r.shallow[h] = true
		}
	}
	return r, nil
}

func (r *gitRepo) Close() error {
	var err error
	if r.cg != nil {
		err = r.cg.Close()
	}
	return errors.Join(err, r.packs.Close(), r.st.Close())
}

// head returns the commit HEAD points at, or the zero hash when the current
// branch has no commits yet.
func (r *gitRepo) head() (plumbing.Hash, error) {
	ref, err := storer.ResolveReference(r.st, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("resolve HEAD: %w", err)
	}
	return ref.Hash(), nil
}

// raw returns the content of an object, valid until the next call; it must
// not be modified.
func (r *gitRepo) raw(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	typ, b, err := r.packs.get(h)
	if errors.Is(err, errNoObject) {
		typ, b, err = r.packs.loose(h)
	}
	if err == nil {
		if plumbing.ObjectType(typ) != t {
			return nil, fmt.Errorf("read %s %s: %w", t, h, plumbing.ErrObjectNotFound)
		}
		return b, nil
	}
	if !errors.Is(err, errNoObject) {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	obj, err := r.st.EncodedObject(t, h)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	defer rd.Close()
	n := int(obj.Size())
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	b = r.buf[:n]
	if _, err := io.ReadFull(rd, b); err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	return b, nil
}

// commitInfo is what the walk needs from a commit.
type commitInfo struct {
	hash    plumbing.Hash
	tree    plumbing.Hash
	parents []plumbing.Hash
	time    int64 // committer time, Unix seconds
	// author and authorTime are filled only by commitFull.
	author     string
	authorTime int64
	authorTZ   int // seconds east of UTC
}

// commit returns a commit's parents, tree and committer time, from the
// commit-graph when it knows the commit.
func (r *gitRepo) commit(h plumbing.Hash) (commitInfo, error) {
	if r.cg != nil {
		if i, err := r.cg.GetIndexByHash(h); err == nil {
			if d, err := r.cg.GetCommitDataByIndex(i); err == nil {
				return commitInfo{hash: h, tree: d.TreeHash, parents: d.ParentHashes, time: d.When.Unix()}, nil
			}
		}
	}
	return r.commitFull(h)
}

// commitFull parses the commit object itself.
func (r *gitRepo) commitFull(h plumbing.Hash) (commitInfo, error) {
	b, err := r.raw(plumbing.CommitObject, h)
	if err != nil {
		return commitInfo{}, err
	}
	c := commitInfo{hash: h}
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl <= 0 {
			break // end of headers
		}
		line := b[:nl]
		b = b[nl+1:]
		key, val, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "tree":
			c.tree = plumbing.NewHash(string(val))
		case "parent":
			c.parents = append(c.parents, plumbing.NewHash(string(val)))
		case "author":
			c.author, c.authorTime, c.authorTZ = parseSignature(val)
		case "committer":
			_, c.time, _ = parseSignature(val)
		}
	}
	if c.tree.IsZero() {
		return commitInfo{}, fmt.Errorf("commit %s: no tree", h)
	}
	return c, nil
}

// parseSignature splits "Name <email> 1700000000 +0100".
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
		// Group by e-mail: names are spelled in more ways than addresses.
		ident = strings.ToLower(ident[lt:])
	}
	return ident, unix, tz
}
