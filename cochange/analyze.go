package cochange

import (
	"cmp"
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
	// Mode says which commits were counted: ModeNoMerges (every non-merge
	// commit reachable from Head, as git log --no-merges lists them) or
	// ModeFirstParent (each commit of Head's first-parent chain, a merge
	// as its diff against its first parent: Options.Merges).
	Mode string `json:"mode"`
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
	// Full reports that everything was recomputed, and Reason why; without
	// Full, Reason may say that the analysed commit left HEAD's history.
	Full   bool   `json:"full"`
	Reason string `json:"reason,omitempty"`
	// Since is the start of the window in effect (zero: none).
	Since time.Time `json:"since,omitzero"`
	// SymbolPairs are the kept pairs of symbols ("path::fqname"), sorted by
	// A then B, when Options.Symbols was set; SymbolCommits is the number
	// of commits in which symbols of the kept pairs' files changed.
	SymbolPairs   []Pair `json:"symbol_pairs,omitempty"`
	SymbolCommits int    `json:"symbol_commits,omitempty"`
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
	a := &analysis{ctx: ctx, s: s, hist: h, o: o, res: &Result{Mode: ModeNoMerges}}
	if o.Merges {
		a.res.Mode = ModeFirstParent
	}
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
	renames, byDay := !a.o.NoRenames, a.o.ByDay
	switch {
	case st == nil || st.Head == "":
		a.res.Reason, st = "no earlier analysis", nil
	case renames && !st.Renames:
		a.res.Reason, st = "rename detection turned on", nil
	case byDay && !st.ByDay:
		a.res.Reason, st = "grouping by day turned on", nil
	default:
		renames, byDay = st.Renames, st.ByDay
	}

	paths := newPathTable()
	var stored []changeSet
	var storedSeqs []uint64
	if st != nil {
		if err := a.s.View(func(tx *graph.Tx) error {
			paths, stored, storedSeqs, err = loadChain(tx, st)
			return err
		}); err != nil {
			// A damaged record costs a recomputation, not a failure.
			a.res.Reason, st, paths, stored, storedSeqs = "stored analysis unreadable", nil, newPathTable(), nil, nil
		}
	}
	// What was stored is taken as it is, except merges that this mode
	// needs diffed and an earlier one did not diff.
	known := make(map[plumbing.Hash]*changeSet, len(stored))
	seqOf := make(map[plumbing.Hash]uint64, len(stored))
	for i := range stored {
		cs := &stored[i]
		if cs.merge && a.o.Merges && !st.Merges {
			continue
		}
		known[cs.hash], seqOf[cs.hash] = cs, storedSeqs[i]
	}
	w := newWalker(a.hist, paths, byDay, renames, a.o.Merges)
	walk, err := w.walk(a.ctx, head, walkBounds{since: a.since, maxCommits: a.o.MaxCommits, known: known}, a.progress(0))
	if err != nil {
		return err
	}
	chain := walk.sets
	a.walked = walk.walked
	if a.o.Progress != nil {
		a.o.Progress(Progress{Commits: a.walked, Total: a.o.MaxCommits})
	}
	full := st == nil
	if !full && known[plumbing.NewHash(st.Head)] != nil {
		reached := false
		for i := range chain {
			if chain[i].hash.String() == st.Head {
				reached = true
				break
			}
		}
		if !reached {
			a.res.Reason = "the analysed commit is no longer in HEAD's history within the window (history was rewritten, or the window moved past it)"
		}
	}
	if walk.shallow {
		a.res.Notes = append(a.res.Notes, "history ends at the boundary of a shallow clone; fetch more history (git fetch --deepen or --unshallow) for a fuller analysis")
	}

	f := filterOf(a.o)
	pairs, cst := count(chain, paths.names, f)
	a.res.Pairs, a.res.Commits, a.res.Skipped = pairs, cst.commits, cst.skipped
	a.res.Walked, a.res.Full = a.walked, full
	if a.o.Symbols != nil {
		focus := make(map[string]bool)
		for _, p := range pairs {
			focus[p.A], focus[p.B] = true, true
		}
		sp, sst, err := symbolPass(a.ctx, a.hist, chain, paths.names, focus, a.o.Symbols, f)
		if err != nil {
			return fmt.Errorf("symbols: %w", err)
		}
		a.res.SymbolPairs, a.res.SymbolCommits = sp, sst.commits
	}
	if a.s == nil {
		return nil
	}

	// Sequence numbers: stored commits keep theirs, new ones follow the
	// highest stored one; stored commits the walk did not take are dropped.
	next := uint64(firstSeq)
	if !full {
		next = st.High + 1
	}
	seqs := make([]uint64, len(chain))
	used := make(map[uint64]bool, len(chain))
	for i := range chain {
		if walk.fresh[i] {
			seqs[i] = next
			next++
		} else {
			seqs[i] = seqOf[chain[i].hash]
		}
		used[seqs[i]] = true
	}
	var dropped []uint64
	for _, seq := range storedSeqs {
		if !used[seq] {
			dropped = append(dropped, seq)
		}
	}
	nst := &state{
		Version: formatVersion, Head: head.String(), RanAt: time.Now().UTC(),
		Renames: renames, ByDay: byDay, Merges: a.o.Merges, Mode: a.res.Mode, Low: firstSeq + 1, High: firstSeq, Count: len(chain), Paths: len(paths.names),
		Since: a.res.Since, MaxCommits: a.o.MaxCommits,
		Filter:  filterDoc{f.maxChangeset, f.minRevs, f.minShared, f.minCoupling, f.renames, f.byDay, f.merges},
		Commits: cst.commits, Skipped: cst.skipped, Pairs: len(pairs), Shallow: walk.shallow,
	}
	if len(seqs) > 0 {
		nst.Low, nst.High = slices.Min(seqs), slices.Max(seqs)
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
	for i := range chain {
		if walk.fresh[i] {
			touched[seqs[i]/blockSize] = true
		}
	}
	for _, seq := range dropped {
		touched[seq/blockSize] = true
	}
	blocks := map[uint64][]int{} // block -> chain indexes, by sequence number
	for i := range chain {
		if blk := seqs[i] / blockSize; touched[blk] {
			blocks[blk] = append(blocks[blk], i)
		}
	}
	for _, idx := range blocks {
		slices.SortFunc(idx, func(x, y int) int { return cmp.Compare(seqs[x], seqs[y]) })
	}
	if a.o.Symbols == nil {
		// Symbol pairs of an earlier analysis would not match this one.
		if err := deleteLarge(a.s, keySymbols); err != nil {
			return fmt.Errorf("drop symbol pairs: %w", err)
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
			bseqs := make([]uint64, len(idx))
			for k, i := range idx {
				sets[k], bseqs[k] = &chain[i], seqs[i]
			}
			if err := setLarge(bt, blockKey(blk), encodeBlock(sets, bseqs)); err != nil {
				return err
			}
		}
		for c := oldPaths / pathChunk; oldPaths < len(paths.names) && c*pathChunk < len(paths.names); c++ {
			end := min((c+1)*pathChunk, len(paths.names))
			if err := setLarge(bt, chunkKey(c), encodePaths(paths.names[c*pathChunk:end])); err != nil {
				return err
			}
		}
		if a.o.Symbols != nil {
			if err := setLarge(bt, keySymbols, encodePairs(a.res.SymbolPairs)); err != nil {
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
		Renames: !a.o.NoRenames, ByDay: a.o.ByDay, Merges: a.o.Merges, Mode: a.res.Mode})
}
