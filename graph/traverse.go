package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Depth limits of traversals.
const (
	DefaultDepth = 2
	MaxDepth     = 5
)

// TraverseOptions configure Traverse, Neighborhood and Path.
type TraverseOptions struct {
	// Seeds are the node ids to start from (at least one).
	Seeds []string
	// Direction of the edges followed (default Both). Symmetric edges are
	// followed in every direction.
	Direction Direction
	// Filter selects the edges followed.
	Filter
	// Depth is the most hops from a seed: default DefaultDepth, at most
	// MaxDepth.
	Depth int
	// Limit is the most results (0: all). With a limit, the search is
	// best-first and stops once the limit is certain.
	Limit int
}

// Step is one hop of a path.
type Step struct {
	Type      EdgeType  `json:"type"`
	Relation  string    `json:"relation,omitempty"`
	Direction Direction `json:"direction"` // Out: followed from→to; In: to→from
	Weight    float64   `json:"weight"`
}

// Result is a node reached by a traversal.
type Result struct {
	Node string `json:"node"`
	// Depth is the number of hops of the best path.
	Depth int `json:"depth"`
	// Score is the product of the weights along the best path: the path
	// with the highest product, and of those the one with fewest hops.
	Score float64 `json:"score"`
	// Path holds the node ids of the best path, from a seed to Node.
	Path []string `json:"path"`
	// Steps holds the edges of the best path (len(Path)-1 of them).
	Steps []Step `json:"steps"`
	// Direction is the direction of the first hop.
	Direction Direction `json:"direction"`
}

// label is a search state: a node reached by some path.
type label struct {
	uid    uint64
	score  float64
	parent int32 // index in labels, -1 for a seed
	depth  int8
	dir    Direction
	typ    byte
	rel    string
	weight float64
}

// queue is a binary heap of label indices ordered by score desc, depth
// asc, uid asc (typed, to push without boxing).
type queue struct {
	ls  *[]label
	idx []int32
}

func (q *queue) less(i, j int32) bool {
	a, b := &(*q.ls)[i], &(*q.ls)[j]
	if a.score != b.score {
		return a.score > b.score
	}
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	return a.uid < b.uid
}

func (q *queue) Len() int { return len(q.idx) }

func (q *queue) push(x int32) {
	q.idx = append(q.idx, x)
	h := q.idx
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *queue) pop() int32 {
	h := q.idx
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && q.less(h[r], h[l]) {
			c = r
		}
		if !q.less(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	q.idx = h
	return top
}

// CheckDepth refuses a depth that a caller gave outside 1..MaxDepth. Every
// driver (command line, HTTP, MCP) checks depths with it, so that limits
// and messages agree.
func CheckDepth(d int) error {
	if d < 1 || d > MaxDepth {
		return fmt.Errorf("depth %d: want 1..%d", d, MaxDepth)
	}
	return nil
}

func (o TraverseOptions) depth(def int) int {
	d := o.Depth
	if d <= 0 {
		d = def
	}
	return min(d, MaxDepth)
}

// search is one best-first run.
type search struct {
	r       *reader
	opts    TraverseOptions
	filter  compiled
	labels  []label
	found   []int32 // first label popped for each reached node, in pop order
	seeds   map[uint64]bool
	settled map[uint64]int8 // smallest depth popped so far per node
	heap    []int32
	pool    *sync.Pool // where the buffers go back
	// With a limit: how many distinct nodes wait (pushed, not found) at
	// each rank, and at which ranks each node waits.
	ties    map[tieKey]int32
	waiting map[uint64][]tieKey
}

func (s *search) release() {
	buffers := s.pool
	s.r.close()
	s.r, s.opts = nil, TraverseOptions{}
	s.labels, s.found, s.heap = s.labels[:0], s.found[:0], s.heap[:0]
	clear(s.settled)
	clear(s.ties)
	clear(s.waiting)
	buffers.Put(s)
}

// tieKey is the rank of a label without its node.
type tieKey struct {
	score float64
	depth int8
}

// wait counts node u as waiting (pushed, not yet found) at rank k, once.
func (s *search) wait(u uint64, k tieKey) {
	if _, ok := s.settled[u]; ok {
		return
	}
	ks := s.waiting[u]
	if slices.Contains(ks, k) {
		return
	}
	s.waiting[u] = append(ks, k)
	s.ties[k]++
}

// settle stops counting node u as waiting: it is found.
func (s *search) settle(u uint64) {
	for _, k := range s.waiting[u] {
		s.ties[k]--
	}
	delete(s.waiting, u)
}

// run explores from the seeds. It stops after target is reached (when
// target != 0) or once the first limit results are certain.
func (s *search) run(ctx context.Context, maxDepth int, target uint64) error {
	s.seeds = map[uint64]bool{}
	if s.settled == nil {
		s.settled = map[uint64]int8{}
		s.ties = map[tieKey]int32{}
		s.waiting = map[uint64][]tieKey{}
	}
	q := &queue{ls: &s.labels, idx: s.heap[:0]}
	defer func() { s.heap = q.idx }()
	for _, id := range s.opts.Seeds {
		u, err := s.r.uid(id)
		if err != nil {
			return fmt.Errorf("traverse from %s: %w", id, err)
		}
		if s.seeds[u] {
			continue
		}
		s.seeds[u] = true
		s.labels = append(s.labels, label{uid: u, score: 1, parent: -1})
		q.push(int32(len(s.labels) - 1))
	}
	if len(s.seeds) == 0 {
		return errors.New("traverse: no seed")
	}
	limit := s.opts.Limit
	if target != 0 {
		limit = 0
	}
	prefixes := prefixesFor(s.opts.Direction)
	pops := 0
	done := false // no expansion can change the results any more
	for q.Len() > 0 {
		i := q.pop()
		l := s.labels[i]
		if pops++; pops%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if limit > 0 && len(s.found) >= limit {
			// The limit is reached: only labels tied with the last
			// result (same score and depth, another id) can still
			// enter, and none of their children can.
			last := s.labels[s.found[len(s.found)-1]]
			if l.score != last.score || l.depth != last.depth {
				break
			}
			if _, ok := s.settled[l.uid]; !ok {
				s.settled[l.uid] = l.depth
				s.found = append(s.found, i)
			}
			continue
		}
		if d, ok := s.settled[l.uid]; ok && d <= l.depth {
			continue // an earlier path scored at least as well in no more hops
		}
		_, again := s.settled[l.uid]
		s.settled[l.uid] = l.depth
		if !again && !s.seeds[l.uid] {
			s.found = append(s.found, i)
			if l.uid == target {
				return nil
			}
			s.settle(l.uid)
		}
		if int(l.depth) >= maxDepth || done {
			continue
		}
		if limit > 0 && len(s.found)+int(s.ties[tieKey{l.score, l.depth}]) >= limit {
			// The results so far and the nodes waiting at exactly this
			// score and depth fill the limit, and all of them rank above
			// any child of this label or of a later one: stop expanding.
			done = true
			continue
		}
		for _, p := range prefixes {
			dir := Out
			if p == prefixIn {
				dir = In
			}
			err := s.r.adjacent(p, l.uid, s.filter.codes, func(a *adj) error {
				if !s.filter.match(a) {
					return nil
				}
				if dir == In && len(prefixes) == 2 && typeOf(a.typ).Symmetric() {
					return nil // already followed as an out-edge
				}
				if s.seeds[a.other] {
					return nil
				}
				d := l.depth + 1
				if sd, ok := s.settled[a.other]; ok && sd <= d {
					return nil
				}
				s.labels = append(s.labels, label{uid: a.other, score: l.score * a.weight, parent: i, depth: d, dir: dir, typ: a.typ, rel: a.rel, weight: a.weight})
				q.push(int32(len(s.labels) - 1))
				if limit > 0 {
					s.wait(a.other, tieKey{l.score * a.weight, d})
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// result turns the label at i into a Result.
func (s *search) result(i int32) (Result, error) {
	l := s.labels[i]
	res := Result{Depth: int(l.depth), Score: l.score}
	var chain []int32
	for j := i; j >= 0; j = s.labels[j].parent {
		chain = append(chain, j)
	}
	slices.Reverse(chain)
	for k, j := range chain {
		lj := s.labels[j]
		id, err := s.r.name(lj.uid)
		if err != nil {
			return res, err
		}
		res.Path = append(res.Path, id)
		if k > 0 {
			res.Steps = append(res.Steps, Step{Type: typeOf(lj.typ), Relation: lj.rel, Direction: lj.dir, Weight: lj.weight})
		}
	}
	res.Node = res.Path[len(res.Path)-1]
	if len(res.Steps) > 0 {
		res.Direction = res.Steps[0].Direction
	}
	return res, nil
}

func (tx *Tx) search(opts TraverseOptions) (*search, error) {
	c, err := opts.Filter.compile()
	if err != nil {
		return nil, err
	}
	s, _ := tx.s.searches.Get().(*search)
	if s == nil {
		s = &search{pool: &tx.s.searches}
	}
	s.r, s.opts, s.filter = newReader(tx.s, tx.txn), opts, c
	return s, nil
}

// hit is a result with its node's uid.
type hit struct {
	Result
	uid uint64
}

// traverse runs Traverse and keeps the search (its reader is open). Without
// paths, results carry no Path and Steps.
func (tx *Tx) traverse(ctx context.Context, opts TraverseOptions, paths bool) (*search, []hit, error) {
	s, err := tx.search(opts)
	if err != nil {
		return nil, nil, err
	}
	if err := s.run(ctx, opts.depth(DefaultDepth), 0); err != nil {
		s.release()
		return nil, nil, err
	}
	// Order by score, depth and id (ids only matter among equals), then
	// build paths for the results kept.
	type ranked struct {
		score float64
		depth int8
		i     int32
		name  string
	}
	found := make([]ranked, len(s.found))
	for k, i := range s.found {
		l := &s.labels[i]
		id, err := s.r.name(l.uid)
		if err != nil {
			s.release()
			return nil, nil, err
		}
		found[k] = ranked{l.score, l.depth, i, id}
	}
	slices.SortFunc(found, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.depth, b.depth), strings.Compare(a.name, b.name))
	})
	if opts.Limit > 0 && len(found) > opts.Limit {
		found = found[:opts.Limit]
	}
	out := make([]hit, 0, len(found))
	for _, f := range found {
		l := &s.labels[f.i]
		if !paths {
			out = append(out, hit{Result{Node: f.name, Depth: int(l.depth), Score: l.score}, l.uid})
			continue
		}
		r, err := s.result(f.i)
		if err != nil {
			s.release()
			return nil, nil, err
		}
		out = append(out, hit{r, l.uid})
	}
	return s, out, nil
}

// Traverse returns the nodes reachable from the seeds within the depth,
// each with its best path, ordered by score (highest first), then depth
// (nearest first), then id. Seeds are not part of the results.
//
// Scores never grow along a path (weights are at most 1), so the search
// is best-first: with a Limit it stops as soon as the first Limit results
// are certain, which the depth tie-break makes early even where many
// edges weigh 1.
func (tx *Tx) Traverse(ctx context.Context, opts TraverseOptions) ([]Result, error) {
	s, hits, err := tx.traverse(ctx, opts, true)
	if err != nil {
		return nil, err
	}
	s.release()
	out := make([]Result, len(hits))
	for i, h := range hits {
		out[i] = h.Result
	}
	return out, nil
}

// Path returns the highest-scoring path from opts.Seeds to the node to (of
// fewest hops among equals), within opts.Depth hops (default MaxDepth), or
// ErrNotFound. opts.Limit is ignored.
func (tx *Tx) Path(ctx context.Context, to string, opts TraverseOptions) (Result, error) {
	s, err := tx.search(opts)
	if err != nil {
		return Result{}, err
	}
	defer s.release()
	t, err := s.r.uid(to)
	if err != nil {
		return Result{}, err
	}
	if slices.Contains(opts.Seeds, to) {
		return Result{Node: to, Score: 1, Path: []string{to}}, nil
	}
	if err := s.run(ctx, opts.depth(MaxDepth), t); err != nil {
		return Result{}, err
	}
	if n := len(s.found); n > 0 && s.labels[s.found[n-1]].uid == t {
		return s.result(s.found[n-1])
	}
	return Result{}, fmt.Errorf("path to %s: %w", to, ErrNotFound)
}

// Subgraph is a set of nodes and edges: the shape of a neighbourhood and of
// lore's graph JSON (DESIGN.md §5).
type Subgraph struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// Neighborhood returns the seeds and the nodes Traverse reaches, with every
// edge among them that passes opts.Filter (in any direction). Nodes are in
// traversal order (seeds first), edges sorted by type, from, to, relation.
func (tx *Tx) Neighborhood(ctx context.Context, opts TraverseOptions) (*Subgraph, error) {
	g, _, err := tx.neighborhood(ctx, opts, false)
	return g, err
}

// NeighborhoodResults is Neighborhood that also returns the traversal's
// results (with paths), from one search instead of a Traverse and a
// Neighborhood.
func (tx *Tx) NeighborhoodResults(ctx context.Context, opts TraverseOptions) (*Subgraph, []Result, error) {
	return tx.neighborhood(ctx, opts, true)
}

func (tx *Tx) neighborhood(ctx context.Context, opts TraverseOptions, paths bool) (*Subgraph, []Result, error) {
	s, hits, err := tx.traverse(ctx, opts, paths)
	if err != nil {
		return nil, nil, err
	}
	r := s.r
	defer s.release()
	in := map[uint64]bool{}
	var uids []uint64
	for _, id := range opts.Seeds {
		u, err := r.uid(id)
		if err != nil {
			return nil, nil, err
		}
		if !in[u] {
			in[u] = true
			uids = append(uids, u)
		}
	}
	for _, h := range hits {
		if !in[h.uid] {
			in[h.uid] = true
			uids = append(uids, h.uid)
		}
	}
	// Read in uid order, i.e. key order: consecutive reads then touch
	// neighbouring table blocks.
	byKey := slices.Clone(uids)
	slices.Sort(byKey)
	nodes := make(map[uint64]Node, len(uids))
	for _, u := range byKey {
		n, err := r.node(u)
		if err != nil {
			return nil, nil, err
		}
		nodes[u] = n
	}
	g := &Subgraph{Nodes: make([]Node, 0, len(uids)), Edges: []Edge{}}
	for _, u := range uids {
		g.Nodes = append(g.Nodes, nodes[u])
	}
	for _, u := range byKey {
		err := r.adjacent(prefixOut, u, s.filter.codes, func(a *adj) error {
			if a.flags&flagMirror != 0 || !in[a.other] || !s.filter.match(a) {
				return nil
			}
			rec, err := decodeRecord(a.raw)
			if err != nil {
				return err
			}
			e, err := rec.edge(EdgeKey{Type: typeOf(a.typ), From: r.names[u], To: r.names[a.other], Relation: a.rel})
			if err != nil {
				return err
			}
			g.Edges = append(g.Edges, e)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	sortEdges(g.Edges)
	var res []Result
	if paths {
		res = make([]Result, len(hits))
		for i, h := range hits {
			res[i] = h.Result
		}
	}
	return g, res, nil
}
