package cochange

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

// Result is the outcome of Analyze.
type Result struct {
	// Head is the commit analysed; empty for a repository without commits.
	Head string `json:"head"`
	// Pairs are the kept pairs, sorted by A then B.
	Pairs []Pair `json:"pairs"`
	// Commits is the number of commits counted in the window (non-merge
	// ones, and merges with Options.Merges), Skipped how many change-sets
	// were left out for having too many files.
	Commits int `json:"commits"`
	Skipped int `json:"skipped"`
	// Walked is the number of commits this run read from git; an update
	// after one new commit walks one.
	Walked int `json:"walked"`
	// Full reports that everything was recomputed, and Reason why.
	Full   bool   `json:"full"`
	Reason string `json:"reason,omitempty"`
	// Since is the start of the window in effect (zero: none).
	Since time.Time `json:"since,omitzero"`
	// Notes say what a caller may want to tell the user, such as history
	// ending at a shallow clone's boundary.
	Notes []string `json:"notes,omitempty"`
}

// Analyze brings the co-change analysis of the repository containing
// repoDir up to date in s and returns it. With a nil store it computes the
// result without keeping anything.
func Analyze(ctx context.Context, s *graph.Store, repoDir string, opts Options) (*Result, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	r, err := source.OpenRepo(repoDir)
	if err != nil {
		return nil, fmt.Errorf("cochange: %w", err)
	}
	defer r.Close()
	h, err := r.History()
	if err != nil {
		return nil, fmt.Errorf("cochange: %w", err)
	}
	defer h.Close()
	a := &analysis{ctx: ctx, s: s, hist: h, o: o, res: &Result{}}
	if err := a.run(); err != nil {
		return nil, fmt.Errorf("cochange: %s: %w", repoDir, err)
	}
	return a.res, nil
}

type analysis struct {
	ctx  context.Context
	s    *graph.Store
	hist *source.History
	o    Options
	res  *Result

	since  int64
	walked int
}

// chainItem is a change-set with its place in the store.
type chainItem struct {
	seq   uint64
	fresh bool // not stored yet
}

func (a *analysis) progress(base int) func(int) {
	if a.o.Progress == nil {
		return nil
	}
	return func(n int) { a.o.Progress(Progress{Commits: base + n, Total: a.o.MaxCommits}) }
}

func (a *analysis) run() error {
	head, err := a.hist.Head()
	if err != nil {
		return err
	}
	if head.IsZero() {
		return a.clear()
	}
	a.res.Head = head.String()
	hc, err := a.hist.Commit(head)
	if err != nil {
		return err
	}
	switch {
	case !a.o.Since.IsZero():
		a.since = a.o.Since.Unix()
	case a.o.FullHistory || a.o.MaxCommits > 0:
	default:
		a.since = time.Unix(hc.Time, 0).Add(-DefaultWindow).Unix()
	}
	if a.since != 0 {
		a.res.Since = time.Unix(a.since, 0).UTC()
	}

	var st *state
	if a.s != nil {
		if err := a.s.View(func(tx *graph.Tx) error {
			st, err = loadState(tx)
			return err
		}); err != nil {
			return err
		}
	}
	renames, byDay, merges := !a.o.NoRenames, a.o.ByDay, a.o.Merges
	switch {
	case st == nil || st.Head == "":
		a.res.Reason, st = "no earlier analysis", nil
	case renames && !st.Renames:
		a.res.Reason, st = "rename detection turned on", nil
	case byDay && !st.ByDay:
		a.res.Reason, st = "grouping by day turned on", nil
	case merges && !st.Merges:
		a.res.Reason, st = "counting merges turned on", nil
	default:
		renames, byDay, merges = st.Renames, st.ByDay, st.Merges
	}

	paths := newPathTable()
	var stored []changeSet
	if st != nil {
		if err := a.s.View(func(tx *graph.Tx) error {
			paths, stored, err = loadChain(tx, st)
			return err
		}); err != nil {
			// A damaged record costs a recomputation, not a failure.
			a.res.Reason, st, paths, stored = "stored analysis unreadable", nil, newPathTable(), nil
		}
	}
	w := newWalker(a.hist, paths, byDay, renames, merges)
	b := walkBounds{since: a.since, maxCommits: a.o.MaxCommits, countMerges: a.o.Merges}
	if st != nil {
		b.known = plumbing.NewHash(st.Head)
	}
	top, err := w.walk(a.ctx, head, b, a.progress(0))
	if err != nil {
		return err
	}
	a.walked += len(top.sets)

	// Assemble the chain, newest first.
	var chain []changeSet
	var items []chainItem
	full := st == nil || top.stop != stopKnown
	if full {
		if st != nil {
			switch top.stop {
			case stopWindow:
				a.res.Reason = "the analysed commit is not in the window on HEAD's first-parent chain (all of it left the window, or history was rewritten)"
			default:
				a.res.Reason = "history was rewritten: the analysed commit is not a first-parent ancestor of HEAD"
			}
		}
		chain = top.sets
		for i := range chain {
			items = append(items, chainItem{seq: firstSeq - uint64(i), fresh: true})
		}
	} else {
		chain = append(top.sets, stored...)
		for i := range top.sets {
			items = append(items, chainItem{seq: st.High + uint64(len(top.sets)-i), fresh: true})
		}
		for i := range stored {
			items = append(items, chainItem{seq: st.High - uint64(i)})
		}
	}
	bottom, next := top.stop, top.next.ID
	if !full {
		bottom, next = st.Bottom, plumbing.NewHash(st.Next)
	}

	// Fit the chain to the window: drop what left it, walk further back
	// when the window grew.
	keep, cut := trimChain(chain, a.since, a.o.MaxCommits, a.o.Merges)
	var dropped []uint64
	for i := keep; i < len(chain); i++ {
		if !items[i].fresh {
			dropped = append(dropped, items[i].seq)
		}
	}
	if cut {
		bottom, next = stopWindow, chain[keep].hash
		chain, items = chain[:keep], items[:keep]
	} else if !full && (bottom == stopWindow || bottom == stopShallow && !a.hist.Shallow(next)) && !next.IsZero() {
		// The window grew, or a shallow clone was deepened.
		low := uint64(firstSeq + 1)
		if len(items) > 0 {
			low = items[len(items)-1].seq
		}
		ext, err := w.walk(a.ctx, next, walkBounds{since: a.since, maxCommits: a.o.MaxCommits,
			counted: countable(chain, a.o.Merges), countMerges: a.o.Merges}, a.progress(a.walked))
		if err != nil {
			return err
		}
		a.walked += len(ext.sets)
		for i := range ext.sets {
			chain = append(chain, ext.sets[i])
			items = append(items, chainItem{seq: low - 1 - uint64(i), fresh: true})
		}
		bottom, next = ext.stop, ext.next.ID
	}
	if a.o.Progress != nil {
		a.o.Progress(Progress{Commits: a.walked, Total: a.o.MaxCommits})
	}
	if nm := len(chain) - countable(chain, false); !a.o.Merges && nm > 0 && nm >= countable(chain, false) {
		a.res.Notes = append(a.res.Notes, fmt.Sprintf("%d of the %d commits on the first-parent chain are merges, which are not counted, nor is the work of the branches they merged; count each merge as one change-set with the merges option", nm, len(chain)))
	}
	if bottom == stopShallow {
		a.res.Notes = append(a.res.Notes, "history ends at the boundary of a shallow clone; fetch more history (git fetch --deepen or --unshallow) for a fuller analysis")
	}

	f := filterOf(a.o)
	pairs, cst := count(chain, paths.names, f)
	a.res.Pairs, a.res.Commits, a.res.Skipped = pairs, cst.commits, cst.skipped
	a.res.Walked, a.res.Full = a.walked, full
	if a.s == nil {
		return nil
	}

	nst := &state{
		Version: formatVersion, Head: head.String(), RanAt: time.Now().UTC(),
		Renames: renames, ByDay: byDay, Merges: merges, Low: firstSeq + 1, High: firstSeq, Bottom: bottom, Paths: len(paths.names),
		Since: a.res.Since, MaxCommits: a.o.MaxCommits,
		Filter:  filterDoc{f.maxChangeset, f.minRevs, f.minShared, f.minCoupling, f.renames, f.byDay, f.merges},
		Commits: cst.commits, Skipped: cst.skipped, Pairs: len(pairs), Shallow: bottom == stopShallow,
	}
	if bottom == stopWindow || bottom == stopShallow {
		nst.Next = next.String()
	}
	if len(items) > 0 {
		nst.Low, nst.High = items[len(items)-1].seq, items[0].seq
	}
	oldPaths := 0
	var oldPairs []Pair
	replaceEdges := full
	if !full {
		if err := a.s.View(func(tx *graph.Tx) error {
			b, err := getLarge(tx, keyResult)
			if err == nil {
				oldPairs, err = decodePairs(b)
			}
			return err
		}); err != nil {
			replaceEdges = true // rewrite every edge rather than trust a damaged result
		}
	}
	if full {
		if err := a.wipe(false); err != nil {
			return err
		}
	} else {
		oldPaths = st.Paths
	}
	// Rewrite the blocks that gained or lost change-sets.
	touched := map[uint64]bool{}
	for _, it := range items {
		if it.fresh {
			touched[it.seq/blockSize] = true
		}
	}
	for _, seq := range dropped {
		touched[seq/blockSize] = true
	}
	blocks := map[uint64][]int{} // block -> chain indexes, oldest first
	for i := len(chain) - 1; i >= 0; i-- {
		if blk := items[i].seq / blockSize; touched[blk] {
			blocks[blk] = append(blocks[blk], i)
		}
	}
	for blk := range touched {
		if len(blocks[blk]) == 0 {
			if err := deleteLarge(a.s, blockKey(blk)); err != nil {
				return fmt.Errorf("drop change-sets: %w", err)
			}
		}
	}
	if err := a.s.Batch(func(bt *graph.Batch) error {
		for blk := range touched {
			idx := blocks[blk]
			if len(idx) == 0 {
				continue
			}
			sets := make([]*changeSet, len(idx))
			seqs := make([]uint64, len(idx))
			for k, i := range idx {
				sets[k], seqs[k] = &chain[i], items[i].seq
			}
			if err := setLarge(bt, blockKey(blk), encodeBlock(sets, seqs)); err != nil {
				return err
			}
		}
		for c := oldPaths / pathChunk; oldPaths < len(paths.names) && c*pathChunk < len(paths.names); c++ {
			end := min((c+1)*pathChunk, len(paths.names))
			if err := setLarge(bt, chunkKey(c), encodePaths(paths.names[c*pathChunk:end])); err != nil {
				return err
			}
		}
		if !replaceEdges && slices.Equal(oldPairs, pairs) {
			return nil
		}
		return setLarge(bt, keyResult, encodePairs(pairs))
	}); err != nil {
		return fmt.Errorf("store change-sets: %w", err)
	}
	if replaceEdges {
		err = writeEdges(a.ctx, a.s, pairs)
	} else {
		err = updateEdges(a.ctx, a.s, oldPairs, pairs)
	}
	if err != nil {
		return err
	}
	return a.putState(nst)
}

// countable is the number of commits of chain that count against
// MaxCommits.
func countable(chain []changeSet, merges bool) int {
	n := 0
	for i := range chain {
		if !chain[i].merge || merges {
			n++
		}
	}
	return n
}

// trimChain returns how many change-sets of chain (newest first) are in the
// window, with the walk's stopping rules, and whether any are not.
func trimChain(chain []changeSet, since int64, maxCommits int, merges bool) (int, bool) {
	counted := 0
	for i := range chain {
		cs := &chain[i]
		countsAgainstMax := !cs.merge || merges
		if since != 0 && cs.time < since {
			return i, true
		}
		if maxCommits > 0 && counted >= maxCommits && countsAgainstMax {
			return i, true
		}
		if countsAgainstMax {
			counted++
		}
	}
	return len(chain), false
}

func (a *analysis) putState(st *state) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := a.s.Update(func(tx *graph.Tx) error { return tx.Set(ns, keyMeta, b) }); err != nil {
		return fmt.Errorf("store state: %w", err)
	}
	return nil
}

// wipe removes everything this package stored, edges too when asked: the
// state first, so that an interrupted wipe leaves no state that points at
// missing records.
func (a *analysis) wipe(edges bool) error {
	if err := a.s.Update(func(tx *graph.Tx) error {
		return tx.Delete(ns, keyMeta)
	}); err != nil {
		return fmt.Errorf("reset state: %w", err)
	}
	var keys []string
	if err := a.s.View(func(tx *graph.Tx) error {
		return tx.Keys(ns, "", func(k string) error {
			keys = append(keys, k)
			return nil
		})
	}); err != nil {
		return fmt.Errorf("list stored keys: %w", err)
	}
	if err := a.s.Batch(func(bt *graph.Batch) error {
		for _, k := range keys {
			if err := bt.Delete(ns, k); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return fmt.Errorf("delete stored keys: %w", err)
	}
	if edges {
		return writeEdges(a.ctx, a.s, nil)
	}
	return nil
}

// clear handles a repository without commits: nothing to analyse.
func (a *analysis) clear() error {
	a.res.Full, a.res.Reason = true, "the repository has no commits"
	if a.s == nil {
		return nil
	}
	if err := a.wipe(true); err != nil {
		return err
	}
	return a.putState(&state{Version: formatVersion, RanAt: time.Now().UTC(), Low: firstSeq + 1, High: firstSeq,
		Renames: !a.o.NoRenames, ByDay: a.o.ByDay, Merges: a.o.Merges})
}
