package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestTraverseShapes(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	// A cycle a → b → c → a, a hub h imported by twenty files, and a
	// disconnected pair x – y.
	mustUpsert(t, s, Edge{Type: Imports, From: "file:a", To: "file:b", Weight: 0.5})
	mustUpsert(t, s, Edge{Type: Imports, From: "file:b", To: "file:c", Weight: 0.5})
	mustUpsert(t, s, Edge{Type: Imports, From: "file:c", To: "file:a", Weight: 0.5})
	for i := range 20 {
		mustUpsert(t, s, Edge{Type: Imports, From: fmt.Sprintf("file:s%02d", i), To: "file:h", Weight: float64(i+1) / 20})
	}
	mustUpsert(t, s, Edge{Type: Imports, From: "file:c", To: "file:h", Weight: 1})
	mustUpsert(t, s, Edge{Type: SimilarTo, From: "learning:x", To: "learning:y", Weight: 1})

	t.Run("cycle", func(t *testing.T) {
		rs, err := s.Traverse(ctx, TraverseOptions{Seeds: []string{"file:a"}, Direction: Out, Depth: 5})
		if err != nil {
			t.Fatal(err)
		}
		got := summary(rs)
		if got != "file:b 0.5 d1, file:c 0.25 d2, file:h 0.25 d3, " {
			t.Fatalf("got %s", got)
		}
		if p := strings.Join(rs[2].Path, ">"); p != "file:a>file:b>file:c>file:h" {
			t.Fatalf("path %s", p)
		}
		if rs[0].Direction != Out || rs[0].Steps[0].Type != Imports {
			t.Fatalf("first hop: %+v", rs[0])
		}
	})
	t.Run("depth default and cap", func(t *testing.T) {
		rs, _ := s.Traverse(ctx, TraverseOptions{Seeds: []string{"file:a"}, Direction: Out})
		if summary(rs) != "file:b 0.5 d1, file:c 0.25 d2, " {
			t.Fatalf("default depth: %s", summary(rs))
		}
		rs, _ = s.Traverse(ctx, TraverseOptions{Seeds: []string{"file:s00"}, Direction: Both, Depth: 99})
		if len(rs) != 23 { // everything but x, y and the seed
			t.Fatalf("capped depth reached %d nodes", len(rs))
		}
	})
	t.Run("hub with limit", func(t *testing.T) {
		rs, _ := s.Traverse(ctx, TraverseOptions{Seeds: []string{"file:h"}, Direction: In, Depth: 1, Limit: 3})
		if summary(rs) != "file:c 1 d1, file:s19 1 d1, file:s18 0.95 d1, " {
			t.Fatalf("got %s", summary(rs))
		}
		all, _ := s.Traverse(ctx, TraverseOptions{Seeds: []string{"file:h"}, Direction: In, Depth: 1})
		if len(all) != 21 || summary(all[:3]) != summary(rs) {
			t.Fatalf("limit is not the top of the unlimited result")
		}
		rs, _ = s.Traverse(ctx, TraverseOptions{Seeds: []string{"file:h"}, Direction: In, Depth: 1, Filter: Filter{MinWeight: 0.9}})
		if len(rs) != 4 {
			t.Fatalf("min weight: %s", summary(rs))
		}
	})
	t.Run("disconnected", func(t *testing.T) {
		rs, _ := s.Traverse(ctx, TraverseOptions{Seeds: []string{"learning:x"}, Depth: 5})
		if summary(rs) != "learning:y 1 d1, " {
			t.Fatalf("got %s", summary(rs))
		}
		if _, err := s.Path(ctx, "file:a", TraverseOptions{Seeds: []string{"learning:x"}}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("path across components: %v", err)
		}
		if _, err := s.Traverse(ctx, TraverseOptions{Seeds: []string{"file:nope"}}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown seed: %v", err)
		}
	})
	t.Run("types and many seeds", func(t *testing.T) {
		rs, _ := s.Traverse(ctx, TraverseOptions{Seeds: []string{"file:a", "learning:x"}, Filter: Filter{Types: []EdgeType{SimilarTo}}})
		if summary(rs) != "learning:y 1 d1, " {
			t.Fatalf("got %s", summary(rs))
		}
	})
	t.Run("path", func(t *testing.T) {
		p, err := s.Path(ctx, "file:s19", TraverseOptions{Seeds: []string{"file:a"}})
		if err != nil {
			t.Fatal(err)
		}
		// a ← c (in, 0.5) → h (1) ← s19 (0.95... weight 1): score 0.5.
		if strings.Join(p.Path, ">") != "file:a>file:c>file:h>file:s19" || p.Score != 0.5 || p.Depth != 3 {
			t.Fatalf("path %+v", p)
		}
		if p.Steps[0].Direction != In || p.Steps[1].Direction != Out || p.Steps[2].Direction != In {
			t.Fatalf("steps %+v", p.Steps)
		}
	})
	t.Run("neighbourhood", func(t *testing.T) {
		g, err := s.Neighborhood(ctx, TraverseOptions{Seeds: []string{"file:a"}, Direction: Out, Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, n := range g.Nodes {
			ids = append(ids, n.ID)
		}
		// Every edge among a, b, c: the whole cycle, including c → a.
		if strings.Join(ids, " ") != "file:a file:b file:c" || len(g.Edges) != 3 {
			t.Fatalf("neighbourhood %v %+v", ids, g.Edges)
		}
	})
}

func summary(rs []Result) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s %v d%d, ", r.Node, r.Score, r.Depth)
	}
	return b.String()
}

// refEdge is an edge of the reference graph.
type refEdge struct {
	typ      EdgeType
	from, to string
	rel      string
	w        float64
	invalid  bool
}

// refTraverse is the obvious implementation: best[k][v] is the best score
// of a walk of at most k hops from a seed, by dynamic programming.
func refTraverse(edges []refEdge, o TraverseOptions) map[string][2]float64 {
	depth := o.depth(DefaultDepth)
	seeds := map[string]bool{}
	best := map[string]float64{}
	for _, s := range o.Seeds {
		seeds[s] = true
		best[s] = 1
	}
	hops := map[string]int{}
	for k := 1; k <= depth; k++ {
		next := map[string]float64{}
		for v, sc := range best {
			next[v] = sc
		}
		for _, e := range edges {
			if !refMatch(e, o) {
				continue
			}
			try := func(u, v string) {
				if sc, ok := best[u]; ok && !seeds[v] {
					if s := sc * e.w; s > next[v] || !has(next, v) {
						next[v] = s
					}
				}
			}
			if o.Direction != In || e.typ.Symmetric() {
				try(e.from, e.to)
			}
			if o.Direction != Out || e.typ.Symmetric() {
				try(e.to, e.from)
			}
		}
		for v, sc := range next {
			if old, ok := best[v]; !ok || sc > old {
				hops[v] = k
			}
		}
		best = next
	}
	out := map[string][2]float64{}
	for v, sc := range best {
		if !seeds[v] {
			out[v] = [2]float64{sc, float64(hops[v])}
		}
	}
	return out
}

func has(m map[string]float64, k string) bool { _, ok := m[k]; return ok }

func refMatch(e refEdge, o TraverseOptions) bool {
	if e.invalid && !o.IncludeInvalidated {
		return false
	}
	if e.w < o.MinWeight {
		return false
	}
	if len(o.Types) > 0 && !slices.Contains(o.Types, e.typ) {
		return false
	}
	if len(o.Relations) > 0 && e.typ == LinksTo && !slices.Contains(o.Relations, e.rel) {
		return false
	}
	return true
}

func TestTraverseMatchesReference(t *testing.T) {
	ctx := context.Background()
	rounds := 40
	if testing.Short() {
		rounds = 8
	}
	weights := []float64{0, 0.25, 0.5, 0.75, 1, 1}
	types := []EdgeType{Imports, CoChangesWith, LinksTo, SimilarTo}
	for round := range rounds {
		rng := rand.New(rand.NewPCG(uint64(round), 7))
		s := openMem(t)
		n := 5 + rng.IntN(40)
		m := rng.IntN(4 * n)
		node := func() string {
			if rng.IntN(2) == 0 {
				return fmt.Sprintf("file:%d", rng.IntN(n))
			}
			return fmt.Sprintf("learning:%d", rng.IntN(n))
		}
		stored := map[EdgeKey]*refEdge{}
		for range m {
			e := refEdge{typ: types[rng.IntN(len(types))], from: node(), to: node(), w: weights[rng.IntN(len(weights))]}
			if e.from == e.to {
				continue
			}
			if e.typ == LinksTo {
				e.rel = []string{"a", "b"}[rng.IntN(2)]
			}
			if e.typ.Symmetric() && e.to < e.from {
				e.from, e.to = e.to, e.from
			}
			k := EdgeKey{Type: e.typ, From: e.from, To: e.to, Relation: e.rel}
			mustUpsert(t, s, Edge{Type: e.typ, From: e.from, To: e.to, Relation: e.rel, Weight: e.w})
			if rng.IntN(8) == 0 {
				if err := s.InvalidateEdge(k, "r"); err != nil {
					t.Fatal(err)
				}
				e.invalid = true
			}
			stored[k] = &e
		}
		var edges []refEdge
		for _, e := range stored {
			edges = append(edges, *e)
		}
		st, _ := s.Stats()
		for q := range 30 {
			o := TraverseOptions{Depth: 1 + rng.IntN(5), Direction: Direction(rng.IntN(3))}
			for range 1 + rng.IntN(3) {
				if id := node(); !slices.Contains(o.Seeds, id) {
					if _, err := s.Node(id); err == nil {
						o.Seeds = append(o.Seeds, id)
					}
				}
			}
			if len(o.Seeds) == 0 {
				continue
			}
			if rng.IntN(3) == 0 {
				o.Types = []EdgeType{types[rng.IntN(len(types))], types[rng.IntN(len(types))]}
			}
			if rng.IntN(4) == 0 {
				o.Relations = []string{"a"}
			}
			if rng.IntN(4) == 0 {
				o.MinWeight = 0.5
			}
			o.IncludeInvalidated = rng.IntN(4) == 0
			if rng.IntN(2) == 0 {
				o.Limit = 1 + rng.IntN(6)
			}
			want := refTraverse(edges, o)
			got, err := s.Traverse(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			type kv struct {
				id string
				v  [2]float64
			}
			var ws []kv
			for id, v := range want {
				ws = append(ws, kv{id, v})
			}
			slices.SortFunc(ws, func(a, b kv) int {
				return cmp.Or(cmp.Compare(b.v[0], a.v[0]), cmp.Compare(a.v[1], b.v[1]), strings.Compare(a.id, b.id))
			})
			if o.Limit > 0 && len(ws) > o.Limit {
				ws = ws[:o.Limit]
			}
			fail := func(f string, args ...any) {
				t.Helper()
				t.Fatalf("round %d query %d (%d nodes, %d edges) %+v: %s", round, q, st.Nodes, st.Edges, o, fmt.Sprintf(f, args...))
			}
			if len(got) != len(ws) {
				fail("got %d results, want %d\ngot  %s\nwant %v", len(got), len(ws), summary(got), ws)
			}
			for i, r := range got {
				if r.Node != ws[i].id || r.Score != ws[i].v[0] || r.Depth != int(ws[i].v[1]) {
					fail("result %d: got %s %v d%d, want %s %v d%v", i, r.Node, r.Score, r.Depth, ws[i].id, ws[i].v[0], ws[i].v[1])
				}
				checkPath(t, stored, o, r, fail)
			}
			// Path agrees with an unlimited traversal at the same depth.
			if len(got) > 0 {
				target := got[len(got)-1]
				p, err := s.Path(ctx, target.Node, TraverseOptions{Seeds: o.Seeds, Direction: o.Direction, Filter: o.Filter, Depth: o.depth(DefaultDepth)})
				if err != nil || p.Score != target.Score || p.Depth != target.Depth {
					fail("path to %s: %v %+v, want score %v depth %d", target.Node, err, p, target.Score, target.Depth)
				}
				checkPath(t, stored, o, p, fail)
			}
		}
	}
}

// checkPath verifies that r's path exists, obeys the options and has r's
// score and depth.
func checkPath(t *testing.T, stored map[EdgeKey]*refEdge, o TraverseOptions, r Result, fail func(string, ...any)) {
	t.Helper()
	if len(r.Path) != r.Depth+1 || len(r.Steps) != r.Depth || !slices.Contains(o.Seeds, r.Path[0]) || r.Path[r.Depth] != r.Node {
		fail("malformed path %+v", r)
	}
	score := 1.0
	for i, st := range r.Steps {
		from, to := r.Path[i], r.Path[i+1]
		if st.Direction == In {
			from, to = to, from
		}
		k := EdgeKey{Type: st.Type, From: from, To: to, Relation: st.Relation}.canonical()
		e, ok := stored[k]
		if !ok || e.w != st.Weight || !refMatch(*e, o) {
			fail("step %d of %+v is not an edge the query may follow", i, r)
		}
		if o.Direction != Both && st.Direction != o.Direction && !st.Type.Symmetric() {
			fail("step %d goes %s", i, st.Direction)
		}
		score *= st.Weight
	}
	if score != r.Score {
		fail("path product %v != score %v", score, r.Score)
	}
	if r.Depth > 0 && r.Direction != r.Steps[0].Direction {
		fail("direction of first hop")
	}
}

// TestNeighborhoodMatchesReference checks on random graphs that a
// neighbourhood holds the seeds, the traversal's results and exactly the
// stored edges among them that pass the filter.
func TestNeighborhoodMatchesReference(t *testing.T) {
	ctx := context.Background()
	types := []EdgeType{Imports, CoChangesWith, LinksTo, AnchoredTo}
	for round := range 25 {
		rng := rand.New(rand.NewPCG(uint64(round), 99))
		s := openMem(t)
		n := 5 + rng.IntN(30)
		node := func() string { return fmt.Sprintf("file:%d", rng.IntN(n)) }
		for range rng.IntN(5 * n) {
			e := Edge{Type: types[rng.IntN(len(types))], From: node(), To: node(), Weight: []float64{0.25, 0.5, 1}[rng.IntN(3)]}
			if e.Type == LinksTo {
				e.Relation = "r"
			}
			if e.From == e.To {
				continue
			}
			mustUpsert(t, s, e)
			if rng.IntN(6) == 0 {
				s.InvalidateEdge(e.Key(), "x")
			}
		}
		var buf strings.Builder
		if err := s.Export(ctx, &buf, JSON); err != nil {
			t.Fatal(err)
		}
		all, err := ReadJSON(strings.NewReader(buf.String()))
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			seed := node()
			if _, err := s.Node(seed); err != nil {
				continue
			}
			o := TraverseOptions{Seeds: []string{seed}, Direction: Direction(rng.IntN(3)), Depth: 1 + rng.IntN(3)}
			if rng.IntN(2) == 0 {
				o.Limit = 1 + rng.IntN(8)
			}
			if rng.IntN(3) == 0 {
				o.Types = []EdgeType{types[rng.IntN(len(types))]}
			}
			o.IncludeInvalidated = rng.IntN(3) == 0
			rs, err := s.Traverse(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Neighborhood(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			in := map[string]bool{seed: true}
			want := []string{seed}
			for _, r := range rs {
				in[r.Node] = true
				want = append(want, r.Node)
			}
			var gotIDs []string
			for _, nd := range got.Nodes {
				gotIDs = append(gotIDs, nd.ID)
			}
			if strings.Join(gotIDs, " ") != strings.Join(want, " ") {
				t.Fatalf("round %d %+v: nodes %v, want %v", round, o, gotIDs, want)
			}
			var wantEdges []Edge
			for _, e := range all.Edges {
				if in[e.From] && in[e.To] && (len(o.Types) == 0 || e.Type == o.Types[0]) && (o.IncludeInvalidated || e.InvalidatedAt == nil) {
					wantEdges = append(wantEdges, e)
				}
			}
			sortEdges(wantEdges)
			if len(wantEdges) != len(got.Edges) {
				t.Fatalf("round %d %+v: %d edges, want %d", round, o, len(got.Edges), len(wantEdges))
			}
			for i := range wantEdges {
				if wantEdges[i].Key() != got.Edges[i].Key() || wantEdges[i].Weight != got.Edges[i].Weight {
					t.Fatalf("round %d: edge %d: %+v, want %+v", round, i, got.Edges[i], wantEdges[i])
				}
			}
		}
	}
}
