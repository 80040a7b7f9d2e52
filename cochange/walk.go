package cochange

import (
	"container/heap"
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
	hash    plumbing.Hash
	parents []plumbing.Hash
	time    int64 // committer time, Unix seconds
	merge   bool  // a merge: counted only with Options.Merges, files only when walked so
	author  uint32
	day     int32 // author's calendar day (in the author's zone), days since 1970-01-01
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

// walker produces the change-sets of the commits reachable from HEAD.
type walker struct {
	hist    *source.History
	paths   *pathTable
	byDay   bool
	renames bool
	merges  bool // first parents only, merges diffed against their first parent
	seed    maphash.Seed
	fps     map[plumbing.Hash]*fingerprint
}

func newWalker(h *source.History, paths *pathTable, byDay, renames, merges bool) *walker {
	return &walker{hist: h, paths: paths, byDay: byDay, renames: renames, merges: merges,
		seed: maphash.MakeSeed(), fps: make(map[plumbing.Hash]*fingerprint)}
}

// walkBounds is the window of a walk.
type walkBounds struct {
	since      int64 // leave out commits older than this, and what only they reach (0: none)
	maxCommits int   // stop after this many counted commits (0: none)
	// known are change-sets from an earlier walk, by commit: they are
	// taken as they are instead of being read and diffed again.
	known map[plumbing.Hash]*changeSet
}

// walkResult is the outcome of one walk.
type walkResult struct {
	sets   []changeSet // in the order of the walk
	fresh  []bool      // per set: read from git by this walk (not known)
	walked int         // commits read from git
	// shallow is set when the walk reached a shallow clone's boundary.
	shallow bool
}

// queued is a commit waiting in the walk's queue.
type queued struct {
	id   plumbing.Hash
	time int64
	ord  int // insertion order, for ties
}

// commitQueue pops the newest commit first, and of commits with equal
// times the one queued first, which is the order git log walks them in.
type commitQueue []queued

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	if q[i].time != q[j].time {
		return q[i].time > q[j].time
	}
	return q[i].ord < q[j].ord
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *commitQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// walk visits the commits reachable from start, newest first by committer
// date, as git log does. Without w.merges it follows every parent and
// counts every non-merge commit, diffed against its parent: the commits of
// git log --no-merges. With w.merges it follows first parents only and
// counts every commit, a merge diffed against its first parent.
//
// A commit older than b.since is left out and its parents are not queued
// for it, as git log --since does; with clock skew (a parent newer than
// its child) that is what decides, not the parent's own date. Known
// commits are taken from b.known and not read again, their parents
// queued as usual, so the walk is the same whatever an earlier walk left.
func (w *walker) walk(ctx context.Context, start plumbing.Hash, b walkBounds, progress func(int)) (walkResult, error) {
	var res walkResult
	seen := map[plumbing.Hash]bool{start: true}
	q := commitQueue{}
	ord := 0
	push := func(id plumbing.Hash, t int64) {
		heap.Push(&q, queued{id: id, time: t, ord: ord})
		ord++
	}
	// timeOf returns a commit's committer time, from b.known or from git.
	pending := map[plumbing.Hash]source.Commit{}
	timeOf := func(id plumbing.Hash) (int64, error) {
		if cs, ok := b.known[id]; ok {
			return cs.time, nil
		}
		if c, ok := pending[id]; ok {
			return c.Time, nil
		}
		c, err := w.hist.Commit(id)
		if err != nil {
			return 0, err
		}
		pending[id] = c
		return c.Time, nil
	}
	t, err := timeOf(start)
	if err != nil {
		return res, err
	}
	push(start, t)
	counted := 0
	for n := 0; q.Len() > 0; n++ {
		if n&255 == 0 {
			if err := ctx.Err(); err != nil {
				return res, err
			}
		}
		if b.maxCommits > 0 && counted >= b.maxCommits {
			break
		}
		top := heap.Pop(&q).(queued)
		if b.since != 0 && top.time < b.since {
			// Everything still queued is older too.
			break
		}
		if w.hist.Shallow(top.id) {
			// Its parents are missing, so its diff would be against
			// nothing: it is left out like the history below it.
			res.shallow = true
			continue
		}
		var cs changeSet
		fresh := false
		if k, ok := b.known[top.id]; ok {
			cs = *k
		} else {
			c, ok := pending[top.id]
			if !ok {
				if c, err = w.hist.Commit(top.id); err != nil {
					return res, err
				}
			}
			delete(pending, top.id)
			cs = changeSet{hash: c.ID, parents: c.Parents, time: c.Time, merge: len(c.Parents) > 1}
			if !cs.merge || w.merges {
				var parentTree plumbing.Hash
				if len(c.Parents) > 0 {
					// Queueing the parents below reads the first one
					// anyway: read it now and keep it for then.
					p, ok := pending[c.Parents[0]]
					if !ok {
						if p, err = w.hist.Commit(c.Parents[0]); err != nil {
							return res, err
						}
						if !seen[p.ID] {
							pending[p.ID] = p
						}
					}
					parentTree = p.Tree
				}
				if err := w.diffCommit(&c, parentTree, &cs); err != nil {
					return res, fmt.Errorf("commit %s: %w", c.ID, err)
				}
			}
			fresh = true
			res.walked++
			if progress != nil && res.walked&255 == 0 {
				progress(res.walked)
			}
		}
		if !cs.merge || w.merges {
			counted++
		}
		res.sets = append(res.sets, cs)
		res.fresh = append(res.fresh, fresh)
		parents := cs.parents
		if w.merges && len(parents) > 1 {
			parents = parents[:1]
		}
		for _, p := range parents {
			if seen[p] {
				continue
			}
			seen[p] = true
			t, err := timeOf(p)
			if err != nil {
				return res, err
			}
			push(p, t)
		}
	}
	return res, nil
}

// diffCommit fills cs with what commit c changed relative to its first
// parent, whose tree is parentTree (zero for a root commit).
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
