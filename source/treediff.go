package source

import (
	"bytes"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// treeEntry is one decoded tree entry.
type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

func (e *treeEntry) isDir() bool { return e.mode == filemode.Dir }

// treeCache keeps decoded trees in two generations: when the young one is
// full it becomes the old one and the previous old one is dropped. Trees
// used by consecutive commits are promoted and survive.
type treeCache struct {
	young, old map[plumbing.Hash][]treeEntry
	limit      int
}

func newTreeCache(limit int) *treeCache {
	return &treeCache{young: make(map[plumbing.Hash][]treeEntry, limit), limit: limit}
}

func (c *treeCache) get(h plumbing.Hash) ([]treeEntry, bool) {
	if t, ok := c.young[h]; ok {
		return t, true
	}
	if t, ok := c.old[h]; ok {
		c.put(h, t)
		return t, true
	}
	return nil, false
}

func (c *treeCache) put(h plumbing.Hash, t []treeEntry) {
	if len(c.young) >= c.limit {
		c.old = c.young
		c.young = make(map[plumbing.Hash][]treeEntry, c.limit)
	}
	c.young[h] = t
}

// Change is one file that differs between two trees.
type Change struct {
	Path   string
	Status byte // 'A' added, 'D' deleted or 'M' modified
	// The file's blob and mode before and after; zero on the side where
	// it is not.
	OldID, NewID     plumbing.Hash
	OldMode, NewMode filemode.FileMode
}

// differ diffs trees, reading each tree at most once while it stays cached.
type differ struct {
	repo  *Repo
	cache *treeCache
	out   []Change
}

func newDiffer(r *Repo) *differ {
	return &differ{repo: r, cache: newTreeCache(4096)}
}

// tree returns the decoded entries of a tree object.
func (d *differ) tree(h plumbing.Hash) ([]treeEntry, error) {
	if t, ok := d.cache.get(h); ok {
		return t, nil
	}
	d.repo.mu.Lock()
	_, b, err := d.repo.read(h, plumbing.TreeObject)
	d.repo.mu.Unlock()
	if err != nil {
		return nil, err
	}
	t, err := parseTree(b)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	d.cache.put(h, t)
	return t, nil
}

// parseTree decodes raw tree content: "<octal mode> <name>\x00<20-byte id>"...
func parseTree(b []byte) ([]treeEntry, error) {
	n := 0
	for i := 0; i < len(b); {
		z := bytes.IndexByte(b[i:], 0)
		if z < 0 {
			return nil, fmt.Errorf("truncated entry")
		}
		i += z + 1 + 20
		n++
	}
	entries := make([]treeEntry, 0, n)
	// One string for all names: entries share it instead of allocating one
	// string each.
	all := string(b)
	pos := 0
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		z := bytes.IndexByte(b, 0)
		if sp < 0 || z < sp || len(b) < z+21 {
			return nil, fmt.Errorf("malformed entry")
		}
		var mode uint32
		for _, c := range b[:sp] {
			if c < '0' || c > '7' {
				return nil, fmt.Errorf("bad mode %q", b[:sp])
			}
			mode = mode<<3 | uint32(c-'0')
		}
		e := treeEntry{name: all[pos+sp+1 : pos+z], mode: filemode.FileMode(mode)}
		copy(e.hash[:], b[z+1:z+21])
		entries = append(entries, e)
		b = b[z+21:]
		pos += z + 21
	}
	return entries, nil
}

// compareEntries orders names as git orders tree entries: a directory
// sorts as if its name ended in '/'.
func compareEntries(a *treeEntry, b *treeEntry) int {
	an, bn := a.name, b.name
	n := min(len(an), len(bn))
	for i := 0; i < n; i++ {
		if an[i] != bn[i] {
			if an[i] < bn[i] {
				return -1
			}
			return 1
		}
	}
	ca, cb := byte(0), byte(0)
	if len(an) > n {
		ca = an[n]
	} else if a.isDir() {
		ca = '/'
	}
	if len(bn) > n {
		cb = bn[n]
	} else if b.isDir() {
		cb = '/'
	}
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}

// diff appends to d.out the files that differ between trees a and b under
// prefix; a zero hash stands for an empty tree. Equal subtrees are skipped
// without being read.
func (d *differ) diff(prefix string, a, b plumbing.Hash) error {
	if a == b {
		return nil
	}
	var ta, tb []treeEntry
	var err error
	if !a.IsZero() {
		if ta, err = d.tree(a); err != nil {
			return err
		}
	}
	if !b.IsZero() {
		if tb, err = d.tree(b); err != nil {
			return err
		}
	}
	i, j := 0, 0
	for i < len(ta) || j < len(tb) {
		var c int
		switch {
		case i == len(ta):
			c = 1
		case j == len(tb):
			c = -1
		default:
			c = compareEntries(&ta[i], &tb[j])
		}
		switch {
		case c < 0: // only in a: deleted
			if err := d.side(prefix, &ta[i], 'D'); err != nil {
				return err
			}
			i++
		case c > 0: // only in b: added
			if err := d.side(prefix, &tb[j], 'A'); err != nil {
				return err
			}
			j++
		default:
			ea, eb := &ta[i], &tb[j]
			i++
			j++
			if ea.hash == eb.hash && ea.mode == eb.mode {
				continue
			}
			if ea.isDir() {
				if err := d.diff(prefix+ea.name+"/", ea.hash, eb.hash); err != nil {
					return err
				}
				continue
			}
			d.out = append(d.out, Change{Path: prefix + ea.name, Status: 'M',
				OldID: ea.hash, NewID: eb.hash, OldMode: ea.mode, NewMode: eb.mode})
		}
	}
	return nil
}

// side reports an entry present on one side only, expanding directories.
func (d *differ) side(prefix string, e *treeEntry, status byte) error {
	if e.isDir() {
		if status == 'D' {
			return d.diff(prefix+e.name+"/", e.hash, plumbing.ZeroHash)
		}
		return d.diff(prefix+e.name+"/", plumbing.ZeroHash, e.hash)
	}
	c := Change{Path: prefix + e.name, Status: status}
	if status == 'D' {
		c.OldID, c.OldMode = e.hash, e.mode
	} else {
		c.NewID, c.NewMode = e.hash, e.mode
	}
	d.out = append(d.out, c)
	return nil
}
