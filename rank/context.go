package rank

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
)

// Context defaults and limits.
const (
	DefaultDepth = 2
	DefaultLimit = 10
	MaxLimit     = 200
)

// Scores of the ways a learning can be reached. A learning anchored to the
// target ranks first; every hop away from it multiplies the score by a
// decay and by the weight of the edge it follows.
const (
	scoreSymbolExact = 1.0  // anchored to the target symbol
	scoreLineRange   = 0.95 // a line anchor containing the target line
	scoreSymbolNear  = 0.85 // anchored to a symbol enclosing or inside the target
	scoreFileWhole   = 0.8  // a whole-file anchor when the target is a symbol
	scoreFileInner   = 0.7  // a symbol or line anchor elsewhere in the file
	scoreGlob        = 0.3  // a glob matching the file
	scoreSameCode    = 0.2  // a file the target learning is anchored to

	decayImport   = 0.5
	decayPackage  = 0.5
	decayCochange = 0.5
	decayLink     = 0.6
	decaySimilar  = 0.5

	minContextScore = 0.01 // paths scoring less are not followed
	maxFanout       = 64   // edges followed from one node, heaviest first
)

// Values of Item.Checked.
const (
	CheckedNow  = "now"
	CheckedLast = "last verify"
)

// Context statuses of a learning, from the last verification.
const (
	StatusValid      = "valid"
	StatusDrifted    = "drifted"
	StatusInvalid    = "invalid"
	StatusUnverified = "unverified" // never verified: treated as current
)

// Options configure Context.
type Options struct {
	// Depth is the most hops (imports, co-change, links, similarity) from
	// a target: default DefaultDepth, at most graph.MaxDepth.
	Depth int
	// Limit is the most current learnings returned (and, separately, the
	// most stale ones): default DefaultLimit, at most MaxLimit.
	Limit int
}

// Check refuses a depth or limit out of range (see graph.CheckDepth and
// CheckLimit) and fills in the defaults of those left zero.
func (o *Options) Check() error {
	if o.Depth == 0 {
		o.Depth = DefaultDepth
	}
	if o.Limit == 0 {
		o.Limit = DefaultLimit
	}
	if err := graph.CheckDepth(o.Depth); err != nil {
		return err
	}
	return CheckLimit(o.Limit)
}

// CheckLimit refuses a number of learnings that a caller asked for outside
// 1..MaxLimit; every driver checks limits with it.
func CheckLimit(n int) error {
	if n < 1 || n > MaxLimit {
		return fmt.Errorf("limit %d: want 1..%d", n, MaxLimit)
	}
	return nil
}

// View is what ranking reads besides the graph: the workspace's learnings
// and their last verification. Every method reads; none writes.
type View interface {
	// IDs returns the id of every learning, sorted.
	IDs() []string
	// Learning returns the learning with this id, nil when there is none.
	Learning(id string) *learnfile.Learning
	// EachAnchor calls fn with each anchor of a learning until fn returns
	// false, without reading the rest of the learning.
	EachAnchor(id string, fn func(anchors.Anchor) bool)
	// AnchoredIn returns, sorted, the ids of the learnings with an anchor
	// into the file at path; "" gives those with a glob anchor.
	AnchoredIn(path string) []string
	// Statuses returns the last recorded verification status of each
	// learning ("" when it was never verified).
	Statuses(ids []string) (map[string]anchors.Status, error)
}

// Result is the answer to "what do we know that matters here?".
// Its JSON form is a stable API:
//
//   - targets: each target as given ("arg") and what it resolved to:
//     "file" (repository path), "line", "symbol" (FQName) or "learning".
//   - learnings: current learnings (valid, drifted, unverified), best
//     first; drifted ones describe code that changed since.
//   - stale: invalid learnings (their code is gone): shown so that
//     someone fixes them, never to be relied on.
type Result struct {
	Targets   []Target `json:"targets"`
	Learnings []Item   `json:"learnings"`
	Stale     []Item   `json:"stale"`
	// Notes say what limited the answer, such as a file that is not
	// indexed yet.
	Notes []string `json:"notes,omitempty"`
}

// Target is one target as given (Arg) and what it resolved to: a file,
// with the line and symbol the caller is at when given, or a learning.
type Target struct {
	Arg      string `json:"arg"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Symbol   string `json:"symbol,omitempty"`
	Learning string `json:"learning,omitempty"`
}

// Item is one learning in a context answer.
type Item struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`
	Tags   []string `json:"tags"`
	Status string   `json:"status"` // valid, drifted, invalid or unverified
	// Checked says how fresh Status and the anchors' lines are: "now"
	// when they were verified against the working tree for this answer,
	// "last verify" when they are what the last verification recorded.
	Checked string `json:"checked"`
	// Score in (0, 1]: 1 for a learning anchored to the target symbol,
	// lower the further away it was reached.
	Score float64 `json:"score"`
	// Reason says in words how the learning was reached.
	Reason string `json:"reason"`
	// Hops is the number of imports, co-change, link and similarity edges
	// between the target and the learning.
	Hops    int      `json:"hops"`
	Anchors []Anchor `json:"anchors"`
	Body    string   `json:"body"`
	Path    string   `json:"path"` // the learning file
}

// Anchor is where a learning of an answer is anchored.
type Anchor struct {
	Spec  string `json:"spec"`
	Path  string `json:"path,omitempty"`
	Lines string `json:"lines,omitempty"` // "40-62" for symbol and line anchors
	// Status is the anchor's own status when it was checked now: where
	// it was found (Path, Lines) may differ from Spec's baseline.
	Status string `json:"status,omitempty"`
}

// Context ranks the learnings that matter for the targets: those anchored
// to the target symbol, then to its file, then those reached through
// imports (both directions), co-change partners and links or similarity
// between learnings. Scores decay per hop and multiply edge weights; ties
// are broken by fewer hops, then id, so the answer is deterministic. It
// reads st and v and writes nothing.
func Context(ctx context.Context, st *graph.Store, v View, targets []Target, opts Options) (*Result, error) {
	if err := opts.Check(); err != nil {
		return nil, err
	}
	res := &Result{Targets: targets, Learnings: []Item{}, Stale: []Item{}}
	if res.Targets == nil {
		res.Targets = []Target{}
	}
	// refs are the anchors into a file, globs under "".
	refs := func(file string) []anchorRef {
		var out []anchorRef
		for _, id := range v.AnchoredIn(file) {
			v.EachAnchor(id, func(a anchors.Anchor) bool {
				if (file == "") == (a.Type() == anchors.TypeGlob) && (file == "" || a.Path() == file) {
					out = append(out, anchorRef{id, a})
				}
				return true
			})
		}
		return out
	}
	globs := refs("")
	ids := v.IDs()
	has := func(id string) bool {
		_, ok := slices.BinarySearch(ids, id)
		return ok
	}

	h := &reachHeap{}
	focus := map[string][]fileFocus{}
	targetLearnings := map[string]bool{}
	for _, t := range targets {
		switch {
		case t.Learning != "":
			targetLearnings[t.Learning] = true
			heap.Push(h, reach{node: learningNode(t.Learning), score: 1, reason: "#" + t.Learning})
			// Learnings about the same code matter too.
			if l := v.Learning(t.Learning); l != nil {
				for _, a := range l.Anchors {
					if p := a.Path(); p != "" && a.Type() != anchors.TypeGlob {
						heap.Push(h, reach{node: "file:" + p, score: scoreSameCode, hops: 1, reason: p + ", where the target learning is anchored", leaf: true})
					}
				}
			}
		default:
			f := fileFocus{symbol: t.Symbol, line: t.Line}
			if t.Symbol != "" {
				f.start, f.end = symbolRange(st, t.File, t.Symbol)
			}
			focus[t.File] = append(focus[t.File], f)
			heap.Push(h, reach{node: "file:" + t.File, score: 1, reason: t.File})
		}
	}

	done := map[string]reach{}
	found := map[string]reach{} // learning id → best reach
	err := st.View(func(tx *graph.Tx) error {
		for h.Len() > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			r := heap.Pop(h).(reach)
			if _, ok := done[r.node]; ok {
				continue
			}
			done[r.node] = r
			if id := learningOf(r.node); id != "" {
				if !has(id) {
					continue
				}
				if !targetLearnings[id] {
					found[id] = r
				}
				if r.hops < opts.Depth {
					if err := expandLearning(ctx, tx, h, done, r, id); err != nil {
						return err
					}
				}
				continue
			}
			file := strings.TrimPrefix(r.node, "file:")
			for _, c := range anchoredHere(file, refs(file), globs, focus[file], r) {
				if _, ok := done[c.node]; !ok {
					heap.Push(h, c)
				}
			}
			if r.hops < opts.Depth && !r.leaf {
				if err := expandFile(ctx, tx, h, done, r, file); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}

	reached := make([]string, 0, len(found))
	for id := range found {
		reached = append(reached, id)
	}
	statuses, err := v.Statuses(reached)
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	var items []Item
	for _, id := range reached {
		if l := v.Learning(id); l != nil {
			items = append(items, item(l, found[id], statuses[id]))
		}
	}
	sort.Slice(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Hops != b.Hops {
			return a.Hops < b.Hops
		}
		return a.ID < b.ID
	})
	for _, it := range items {
		if it.Status == StatusInvalid {
			if len(res.Stale) < opts.Limit {
				res.Stale = append(res.Stale, it)
			}
		} else if len(res.Learnings) < opts.Limit {
			res.Learnings = append(res.Learnings, it)
		}
	}
	return res, nil
}

// Clone returns a copy of r that shares nothing Recheck changes.
func (r *Result) Clone() *Result {
	c := *r
	c.Targets = slices.Clone(r.Targets)
	c.Notes = slices.Clone(r.Notes)
	clone := func(items []Item) []Item {
		out := slices.Clone(items)
		for i := range out {
			out[i].Anchors = slices.Clone(out[i].Anchors)
		}
		return out
	}
	c.Learnings, c.Stale = clone(r.Learnings), clone(r.Stale)
	return &c
}

// Recheck replaces the status and anchor locations of every learning of
// the answer by those of a verification just made (results of the
// learnings' anchors, by learning and 1-based anchor position) and moves
// learnings that turned invalid to Stale and back. Learnings without
// results keep what the last verification recorded.
func (r *Result) Recheck(results map[string]map[int]anchors.Result) {
	all := append(r.Learnings, r.Stale...)
	r.Learnings, r.Stale = []Item{}, []Item{}
	for _, it := range all {
		if rs, ok := results[it.ID]; ok {
			worst := anchors.Valid
			for pos, x := range rs {
				if x.Status.Worse(worst) {
					worst = x.Status
				}
				if pos < 1 || pos > len(it.Anchors) {
					continue
				}
				a := &it.Anchors[pos-1]
				a.Status = string(x.Status)
				if x.To != nil {
					a.Path, a.Lines = x.To.Path, x.To.Lines
				} else {
					a.Lines = ""
				}
			}
			it.Status, it.Checked = string(worst), CheckedNow
		}
		if it.Status == StatusInvalid {
			r.Stale = append(r.Stale, it)
		} else {
			r.Learnings = append(r.Learnings, it)
		}
	}
}

// reach is how a node of the context search was reached.
type reach struct {
	node   string // file:<path> or learning:<id>
	score  float64
	hops   int
	reason string // for a file: how it relates to the target, starting with its path
	leaf   bool   // a file whose imports and co-change are not followed
	// chain is the direction of the imports that led to a file (Both
	// when none did): only imports in that direction are followed on.
	chain graph.Direction
}

type reachHeap []reach

func (h reachHeap) Len() int { return len(h) }
func (h reachHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.score != b.score {
		return a.score > b.score
	}
	if a.hops != b.hops {
		return a.hops < b.hops
	}
	if a.node != b.node {
		return a.node < b.node
	}
	return a.reason < b.reason
}
func (h reachHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *reachHeap) Push(x any)   { *h = append(*h, x.(reach)) }
func (h *reachHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// anchorRef is one anchor of one learning, indexed by path.
type anchorRef struct {
	learning string
	a        anchors.Anchor
}

// fileFocus is what a target says about one of its files: the symbol or
// line the caller is at, if any.
type fileFocus struct {
	symbol string // FQName
	line   int
	start  int // lines of the symbol
	end    int
}

// item is a learning as an answer shows it.
func item(l *learnfile.Learning, r reach, s anchors.Status) Item {
	status := string(s)
	if status == "" {
		status = StatusUnverified
	}
	it := Item{
		ID: l.ID, Title: l.Title, Tags: l.Tags, Status: status, Checked: CheckedLast,
		Score: r.score, Reason: r.reason, Hops: r.hops,
		Anchors: []Anchor{}, Body: l.Body, Path: l.Path,
	}
	if it.Tags == nil {
		it.Tags = []string{}
	}
	for _, a := range l.Anchors {
		ca := Anchor{Spec: a.Spec(), Path: a.Path()}
		if s, e, ok := a.Range(); ok {
			ca.Lines = anchors.FormatRange(s, e)
		}
		it.Anchors = append(it.Anchors, ca)
	}
	return it
}

// symbolRange returns the lines of a symbol from the index (0, 0 when it
// is not known).
func symbolRange(st *graph.Store, file, fq string) (int, int) {
	syms, err := analyzer.Symbols(st, file)
	if err != nil {
		return 0, 0
	}
	for _, s := range syms {
		if s.FQName == fq {
			return s.StartLine, s.EndLine
		}
	}
	return 0, 0
}

// anchoredHere returns the learnings anchored to file, reached by r.
func anchoredHere(file string, refs, globs []anchorRef, focus []fileFocus, r reach) []reach {
	// rest says how file relates to the target: "" for a target's file,
	// else ", which src/auth.ts imports" and so on.
	rest := strings.TrimPrefix(r.reason, file)
	var out []reach
	for _, ref := range refs {
		f, phrase, special := anchorScore(ref.a, focus)
		why := phrase
		switch {
		case special:
		case ref.a.Type() == anchors.TypeFile:
			why += rest
		case rest == "" && len(focus) > 0 && !hasFileFocus(focus):
			why += ", elsewhere in the target's file"
		case rest != "":
			why += " in " + file + rest
		}
		out = append(out, reach{node: learningNode(ref.learning), score: roundScore(r.score * f), hops: r.hops, reason: why})
	}
	for _, g := range globs {
		if anchors.MatchGlob(g.a.Glob, file) {
			out = append(out, reach{
				node:   learningNode(g.learning),
				score:  roundScore(r.score * scoreGlob),
				hops:   r.hops,
				reason: "anchored to glob:" + g.a.Glob + ", which matches " + r.reason,
			})
		}
	}
	return out
}

// anchorScore rates an anchor against the caller's focus in its file and
// says how it is anchored; special reports a phrase that relates the
// anchor to the focus and needs no more words.
func anchorScore(a anchors.Anchor, focus []fileFocus) (score float64, phrase string, special bool) {
	consider := func(s float64, h string, sp bool) {
		if s > score {
			score, phrase, special = s, h, sp
		}
	}
	whole := len(focus) == 0 || hasFileFocus(focus)
	switch a.Type() {
	case anchors.TypeFile:
		consider(scoreFileWhole, "anchored to "+a.Path(), false)
		if whole {
			consider(1, "anchored to "+a.Path(), false)
		}
	case anchors.TypeSymbol:
		fq := a.Symbol
		consider(scoreFileInner, "anchored to "+fq, false)
		if whole {
			consider(0.9, "anchored to "+fq, false)
		}
		for _, f := range focus {
			switch {
			case f.symbol == "":
			case fq == f.symbol:
				consider(scoreSymbolExact, "anchored to "+fq+", the target symbol", true)
			case strings.HasPrefix(f.symbol, fq+"::"):
				consider(scoreSymbolNear, "anchored to "+fq+", which encloses the target "+symbolName(f.symbol), true)
			case strings.HasPrefix(fq, f.symbol+"::"):
				consider(scoreSymbolNear, "anchored to "+fq+", inside the target "+symbolName(f.symbol), true)
			}
			// A declaration on the target line beside the one taken as
			// the target (the fields of a one-line class).
			start, end, ok := a.Range()
			if ok && f.line >= start && f.line <= end && fq != f.symbol && !strings.HasPrefix(f.symbol, fq+"::") {
				consider(scoreLineRange, fmt.Sprintf("anchored to %s, on the target line %d", fq, f.line), true)
			}
		}
	case anchors.TypeLines:
		start, end, _ := a.Range()
		consider(scoreFileInner, "anchored to "+a.Spec(), false)
		if whole {
			consider(0.9, "anchored to "+a.Spec(), false)
		}
		for _, f := range focus {
			if f.line > 0 && f.line >= start && f.line <= end {
				consider(scoreLineRange, fmt.Sprintf("anchored to %s, which contains the target line %d", a.Spec(), f.line), true)
			} else if f.start > 0 && start <= f.end && end >= f.start {
				consider(scoreSymbolNear, "anchored to "+a.Spec()+", which overlaps the target "+symbolName(f.symbol), true)
			}
		}
	}
	return score, phrase, special
}

// hasFileFocus reports whether one of the targets is the whole file.
func hasFileFocus(focus []fileFocus) bool {
	for _, f := range focus {
		if f.symbol == "" && f.line == 0 {
			return true
		}
	}
	return false
}

func symbolName(fq string) string {
	if _, s, ok := strings.Cut(fq, "::"); ok {
		return s
	}
	return fq
}

// neighbor is one edge from a node of the context search.
type neighbor struct {
	node     string
	typ      graph.EdgeType
	relation string
	out      bool // followed from → to
	weight   float64
}

// neighbors lists the maxFanout heaviest edges (then by id) of node with
// the given types in one direction, so that a file imported everywhere
// does not flood the search. It reads the graph's adjacency through a
// one-hop traversal, which names only the nodes it keeps.
func neighbors(ctx context.Context, tx *graph.Tx, node string, dir graph.Direction, types ...graph.EdgeType) ([]neighbor, error) {
	res, err := tx.Traverse(ctx, graph.TraverseOptions{Seeds: []string{node}, Direction: dir, Depth: 1, Limit: maxFanout, Filter: graph.Filter{Types: types}})
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]neighbor, 0, len(res))
	for _, r := range res {
		if len(r.Steps) != 1 {
			continue
		}
		st := r.Steps[0]
		out = append(out, neighbor{node: r.Node, typ: st.Type, relation: st.Relation, out: st.Direction == graph.Out, weight: st.Weight})
	}
	return out, nil
}

// expandFile follows IMPORTS and CO_CHANGES_WITH edges from a file, and
// from a Go file to the other files of its package. Import chains keep
// their direction (what the target imports, and what those import; what
// imports the target, and what imports those): a file that merely imports
// the same thing as the target is no evidence.
func expandFile(ctx context.Context, tx *graph.Tx, h *reachHeap, done map[string]reach, r reach, file string) error {
	var ns []neighbor
	for _, q := range []struct {
		dir graph.Direction
		typ graph.EdgeType
	}{{graph.Out, graph.Imports}, {graph.In, graph.Imports}, {graph.Both, graph.CoChangesWith}} {
		if q.typ == graph.Imports && r.chain != graph.Both && r.chain != q.dir {
			continue
		}
		more, err := neighbors(ctx, tx, r.node, q.dir, q.typ)
		if err != nil {
			return err
		}
		ns = append(ns, more...)
	}
	if r.chain == graph.Both {
		// A package's files are one unit: what is known about one matters
		// for the others. Reached through imports, the package is already
		// reached through the files its importers use.
		if strings.HasSuffix(file, ".go") {
			siblings, err := neighbors(ctx, tx, graph.NodeID(graph.TypePackage, path.Dir(file)), graph.In, graph.InPackage)
			if err != nil {
				return err
			}
			ns = append(ns, siblings...)
		}
	}
	for _, n := range ns {
		if _, ok := done[n.node]; ok || !strings.HasPrefix(n.node, "file:") {
			continue
		}
		op := strings.TrimPrefix(n.node, "file:")
		decay, chain := decayImport, graph.In
		var why string
		switch {
		case n.typ == graph.InPackage:
			decay, chain = decayPackage, graph.Out
			why = ", in the Go package of " + file
		case n.typ == graph.CoChangesWith:
			decay, chain = decayCochange, graph.Both
			why = fmt.Sprintf(", which changes together with %s (coupling %.2f)", file, n.weight)
		case n.out:
			chain = graph.Out
			why = ", which " + file + " imports"
		default:
			why = ", which imports " + file
		}
		s := roundScore(r.score * decay * n.weight)
		if s < minContextScore {
			continue
		}
		heap.Push(h, reach{node: n.node, score: s, hops: r.hops + 1, reason: op + why + strings.TrimPrefix(r.reason, file), chain: chain})
	}
	return nil
}

// expandLearning follows LINKS_TO (both ways) and SIMILAR_TO edges from a
// learning.
func expandLearning(ctx context.Context, tx *graph.Tx, h *reachHeap, done map[string]reach, r reach, id string) error {
	ns, err := neighbors(ctx, tx, r.node, graph.Both, graph.LinksTo, graph.SimilarTo)
	if err != nil {
		return err
	}
	prev := r.reason
	if r.hops == 0 && strings.HasPrefix(prev, "#") {
		prev = "the target learning"
	} else {
		prev = "which is " + prev
	}
	for _, n := range ns {
		if _, ok := done[n.node]; ok || learningOf(n.node) == "" {
			continue
		}
		var decay float64
		var why string
		switch {
		case n.typ == graph.SimilarTo:
			decay = decaySimilar
			why = fmt.Sprintf("similar (%.2f) to #%s, %s", n.weight, id, prev)
		case n.out:
			decay = decayLink
			why = fmt.Sprintf("linked from #%s (%s), %s", id, n.relation, prev)
		default:
			decay = decayLink
			why = fmt.Sprintf("links to #%s (%s), %s", id, n.relation, prev)
		}
		s := roundScore(r.score * decay * n.weight)
		if s < minContextScore {
			continue
		}
		heap.Push(h, reach{node: n.node, score: s, hops: r.hops + 1, reason: why})
	}
	return nil
}

func roundScore(s float64) float64 { return math.Round(s*1e4) / 1e4 }

// WriteMarkdown renders a context answer for a prompt: each learning with
// its title, status, anchor locations, body and the reason it was
// reached; stale learnings last, marked as not to be relied on.
func (r *Result) WriteMarkdown(out io.Writer) error {
	var b strings.Builder
	var args []string
	for _, t := range r.Targets {
		args = append(args, "`"+t.Arg+"`")
	}
	fmt.Fprintf(&b, "# What we know about %s\n\n", strings.Join(args, ", "))
	if len(r.Learnings) == 0 {
		b.WriteString("No learnings are anchored to or related to this code.\n")
	}
	for _, it := range r.Learnings {
		writeItemMarkdown(&b, it)
	}
	if len(r.Stale) > 0 {
		b.WriteString("## Stale (invalid: the code they describe is gone; do not rely on them)\n\n")
		for _, it := range r.Stale {
			fmt.Fprintf(&b, "- #%s %s — %s\n", it.ID, it.Title, it.Reason)
		}
		b.WriteString("\n")
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "> note: %s\n", n)
	}
	_, err := io.WriteString(out, b.String())
	return err
}

func writeItemMarkdown(b *strings.Builder, it Item) {
	status := it.Status
	switch it.Status {
	case StatusDrifted:
		status = "drifted — the code changed since this was written; check it still holds"
	case StatusUnverified:
		status = "not verified yet"
	}
	fmt.Fprintf(b, "## %s\n\n", it.Title)
	fmt.Fprintf(b, "- id: %s · status: %s · score: %.2f\n", it.ID, status, it.Score)
	if len(it.Tags) > 0 {
		fmt.Fprintf(b, "- tags: %s\n", strings.Join(it.Tags, ", "))
	}
	for _, a := range it.Anchors {
		loc := a.Spec
		if a.Lines != "" && !strings.Contains(a.Spec, "#L") {
			loc += " (lines " + a.Lines + ")"
		}
		fmt.Fprintf(b, "- anchor: %s\n", loc)
	}
	fmt.Fprintf(b, "- why: %s\n", it.Reason)
	if body := strings.TrimSpace(it.Body); body != "" {
		fmt.Fprintf(b, "\n%s\n", body)
	}
	b.WriteString("\n")
}

func learningNode(id string) string { return graph.NodeID(graph.TypeLearning, id) }

// learningOf returns the learning id of a learning:<id> node, or "".
func learningOf(node string) string { return graph.NodeName(node, graph.TypeLearning) }
