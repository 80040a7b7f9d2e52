package cochange

import (
	"context"
	"fmt"
	"hash/fnv"
	"hash/maphash"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// changeSet is what one commit changed, with paths interned.
type changeSet struct {
	hash   plumbing.Hash
	time   int64 // committer time, Unix seconds
	merge  bool  // a merge: counted only with Options.Merges, files only when walked so
	author uint32
	day    int32 // author's calendar day (in the author's zone), days since 1970-01-01
	// files are the changed paths, sorted by id, each as id<<1 | added.
	files []uint32
	// renames are (from, to) path ids; from is also in files (deleted).
	renames [][2]uint32
}

// pathTable interns paths to dense ids.
type pathTable struct {
	ids   map[string]uint32
	names []string
}

func newPathTable() *pathTable { return &pathTable{ids: make(map[string]uint32)} }

func (t *pathTable) id(p string) uint32 {
	if id, ok := t.ids[p]; ok {
		return id
	}
	id := uint32(len(t.names))
	t.ids[p] = id
	t.names = append(t.names, p)
	return id
}

// walker produces change-sets along a first-parent chain.
type walker struct {
	repo    *gitRepo
	differ  *differ
	paths   *pathTable
	byDay   bool
	renames bool
	merges  bool // diff merges against their first parent too
	seed    maphash.Seed
	fps     map[plumbing.Hash]*fingerprint
}

func newWalker(r *gitRepo, paths *pathTable, byDay, renames, merges bool) *walker {
	return &walker{repo: r, differ: newDiffer(r), paths: paths, byDay: byDay, renames: renames, merges: merges,
		seed: maphash.MakeSeed(), fps: make(map[plumbing.Hash]*fingerprint)}
}

// stopReason says why a walk ended.
type stopReason int

const (
	stopRoot    stopReason = iota // reached a commit without parents
	stopShallow                   // reached a shallow clone's boundary
	stopKnown                     // reached a commit the caller already has
	stopWindow                    // the next commit is outside the window
)

// walkResult is the outcome of one walk.
type walkResult struct {
	sets []changeSet // newest first
	stop stopReason
	// next is the first commit not walked (for stopKnown, stopWindow and
	// stopShallow), with its commit data.
	next commitInfo
}

// walkBounds tells a walk where to stop.
type walkBounds struct {
	known      plumbing.Hash // stop on reaching this commit (zero: none)
	since      int64         // stop at the first commit older than this (0: none)
	maxCommits int           // stop after this many counted commits (0: none)
	counted    int           // commits already counted against maxCommits
	// countMerges counts merges against maxCommits (Options.Merges).
	countMerges bool
}

// walk follows first parents from start, diffing every non-merge commit
// (and with w.merges every merge) against its first parent.
func (w *walker) walk(ctx context.Context, start plumbing.Hash, b walkBounds, progress func(int)) (walkResult, error) {
	var res walkResult
	h := start
	c, err := w.repo.commit(h)
	if err != nil {
		return res, err
	}
	counted := b.counted
	for n := 0; ; n++ {
		if n&255 == 0 {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			if progress != nil && n > 0 {
				progress(n)
			}
		}
		switch {
		case !b.known.IsZero() && c.hash == b.known:
			res.stop, res.next = stopKnown, c
			return res, nil
		case b.since != 0 && c.time < b.since:
			res.stop, res.next = stopWindow, c
			return res, nil
		case b.maxCommits > 0 && counted >= b.maxCommits && (len(c.parents) < 2 || b.countMerges):
			res.stop, res.next = stopWindow, c
			return res, nil
		case w.repo.shallow[c.hash]:
			res.stop, res.next = stopShallow, c
			return res, nil
		}
		var parent commitInfo
		if len(c.parents) > 0 {
			if parent, err = w.repo.commit(c.parents[0]); err != nil {
				return res, err
			}
		}
		cs := changeSet{hash: c.hash, time: c.time, merge: len(c.parents) > 1}
		if !cs.merge || w.merges {
			if err := w.diffCommit(&c, parent.tree, &cs); err != nil {
				return res, fmt.Errorf("commit %s: %w", c.hash, err)
			}
		}
		if !cs.merge || b.countMerges {
			counted++
		}
		res.sets = append(res.sets, cs)
		if len(c.parents) == 0 {
			res.stop = stopRoot
			return res, nil
		}
		c = parent
	}
}

// diffCommit fills cs with what commit c changed relative to its first parent.
func (w *walker) diffCommit(c *commitInfo, parentTree plumbing.Hash, cs *changeSet) error {
	if w.byDay {
		full, err := w.repo.commitFull(c.hash)
		if err != nil {
			return err
		}
		hh := fnv.New32a()
		hh.Write([]byte(full.author))
		cs.author = hh.Sum32()
		cs.day = int32(floorDiv(full.authorTime+int64(full.authorTZ), 86400))
	}
	d := w.differ
	d.out = d.out[:0]
	if err := d.diff("", parentTree, c.tree); err != nil {
		return err
	}
	cs.files = make([]uint32, 0, len(d.out))
	for i := range d.out {
		id := w.paths.id(d.out[i].path) << 1
		if d.out[i].status == 'A' {
			id |= 1
		}
		cs.files = append(cs.files, id)
	}
	slices.Sort(cs.files)
	if w.renames {
		pairs, err := w.findRenames(d.out)
		if err != nil {
			return err
		}
		for _, p := range pairs {
			cs.renames = append(cs.renames, [2]uint32{w.paths.id(d.out[p.from].path), w.paths.id(d.out[p.to].path)})
		}
	}
	return nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
