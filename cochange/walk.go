package cochange

import (
	"context"
	"fmt"
	"hash/fnv"
	"hash/maphash"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/lorehq/lore/source"
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
	hist    *source.History
	paths   *pathTable
	byDay   bool
	renames bool
	merges  bool // diff merges against their first parent too
	seed    maphash.Seed
	fps     map[plumbing.Hash]*fingerprint
}

func newWalker(h *source.History, paths *pathTable, byDay, renames, merges bool) *walker {
	return &walker{hist: h, paths: paths, byDay: byDay, renames: renames, merges: merges,
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
	next source.Commit
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
	c, err := w.hist.Commit(h)
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
		case !b.known.IsZero() && c.ID == b.known:
			res.stop, res.next = stopKnown, c
			return res, nil
		case b.since != 0 && c.Time < b.since:
			res.stop, res.next = stopWindow, c
			return res, nil
		case b.maxCommits > 0 && counted >= b.maxCommits && (len(c.Parents) < 2 || b.countMerges):
			res.stop, res.next = stopWindow, c
			return res, nil
		case w.hist.Shallow(c.ID):
			res.stop, res.next = stopShallow, c
			return res, nil
		}
		var parent source.Commit
		if len(c.Parents) > 0 {
			if parent, err = w.hist.Commit(c.Parents[0]); err != nil {
				return res, err
			}
		}
		cs := changeSet{hash: c.ID, time: c.Time, merge: len(c.Parents) > 1}
		if !cs.merge || w.merges {
			if err := w.diffCommit(&c, parent.Tree, &cs); err != nil {
				return res, fmt.Errorf("commit %s: %w", c.ID, err)
			}
		}
		if !cs.merge || b.countMerges {
			counted++
		}
		res.sets = append(res.sets, cs)
		if len(c.Parents) == 0 {
			res.stop = stopRoot
			return res, nil
		}
		c = parent
	}
}

// diffCommit fills cs with what commit c changed relative to its first parent.
func (w *walker) diffCommit(c *source.Commit, parentTree plumbing.Hash, cs *changeSet) error {
	if w.byDay {
		full, err := w.hist.CommitFull(c.ID)
		if err != nil {
			return err
		}
		hh := fnv.New32a()
		hh.Write([]byte(full.Author))
		cs.author = hh.Sum32()
		cs.day = int32(floorDiv(full.AuthorTime+int64(full.AuthorTZ), 86400))
	}
	changes, err := w.hist.Diff(parentTree, c.Tree)
	if err != nil {
		return err
	}
	cs.files = make([]uint32, 0, len(changes))
	for i := range changes {
		id := w.paths.id(changes[i].Path) << 1
		if changes[i].Status == 'A' {
			id |= 1
		}
		cs.files = append(cs.files, id)
	}
	slices.Sort(cs.files)
	if w.renames {
		pairs, err := w.findRenames(changes)
		if err != nil {
			return err
		}
		for _, p := range pairs {
			cs.renames = append(cs.renames, [2]uint32{w.paths.id(changes[p.from].Path), w.paths.id(changes[p.to].Path)})
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
