package graph

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func openMem(t testing.TB) *Store {
	t.Helper()
	s, err := Open("", Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mustUpsert(t testing.TB, s *Store, e Edge) Edge {
	t.Helper()
	out, err := s.UpsertEdge(e)
	if err != nil {
		t.Fatalf("upsert %s: %v", e.Key(), err)
	}
	return out
}

func TestRules(t *testing.T) {
	s := openMem(t)
	long := strings.Repeat("a", 65)
	cases := []struct {
		name string
		e    Edge
		want error
	}{
		{"self-link", Edge{Type: Imports, From: "file:a", To: "file:a", Weight: 1}, ErrSelfLink},
		{"negative weight", Edge{Type: Imports, From: "file:a", To: "file:b", Weight: -0.1}, ErrWeight},
		{"weight above 1", Edge{Type: Imports, From: "file:a", To: "file:b", Weight: 1.01}, ErrWeight},
		{"NaN weight", Edge{Type: Imports, From: "file:a", To: "file:b", Weight: math.NaN()}, ErrWeight},
		{"infinite weight", Edge{Type: Imports, From: "file:a", To: "file:b", Weight: math.Inf(1)}, ErrWeight},
		{"unknown type", Edge{Type: "FRIENDS_WITH", From: "file:a", To: "file:b", Weight: 1}, ErrEdgeType},
		{"lower-case type", Edge{Type: "imports", From: "file:a", To: "file:b", Weight: 1}, ErrEdgeType},
		{"relation on IMPORTS", Edge{Type: Imports, From: "file:a", To: "file:b", Relation: "x", Weight: 1}, ErrRelation},
		{"LINKS_TO without relation", Edge{Type: LinksTo, From: "learning:a", To: "learning:b", Weight: 1}, ErrRelation},
		{"relation too long", Edge{Type: LinksTo, From: "learning:a", To: "learning:b", Relation: long, Weight: 1}, ErrRelation},
		{"relation upper case", Edge{Type: LinksTo, From: "learning:a", To: "learning:b", Relation: "Caused_by", Weight: 1}, ErrRelation},
		{"relation with space", Edge{Type: LinksTo, From: "learning:a", To: "learning:b", Relation: "caused by", Weight: 1}, ErrRelation},
		{"untyped from", Edge{Type: Imports, From: "a.go", To: "file:b", Weight: 1}, ErrNodeID},
		{"unknown node type", Edge{Type: Imports, From: "dir:a", To: "file:b", Weight: 1}, ErrNodeID},
		{"empty name", Edge{Type: Imports, From: "file:", To: "file:b", Weight: 1}, ErrNodeID},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.UpsertEdge(c.e)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if err := c.e.Valid(); !errors.Is(err, c.want) {
				t.Fatalf("Valid: got %v, want %v", err, c.want)
			}
			if err := s.Batch(func(b *Batch) error { return b.UpsertEdge(c.e) }); !errors.Is(err, c.want) {
				t.Fatalf("batch: got %v, want %v", err, c.want)
			}
			if err := s.Load(context.Background(), nil, []Edge{c.e}); !errors.Is(err, c.want) {
				t.Fatalf("load: got %v, want %v", err, c.want)
			}
		})
	}
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Edges != 0 || st.Nodes != 0 {
		t.Fatalf("refused edges left traces: %+v", st)
	}
	for _, ok := range []string{"a", strings.Repeat("z", 64), "caused_by", "v1.2-x", "0"} {
		if err := ValidRelation(ok); err != nil {
			t.Errorf("ValidRelation(%q) = %v", ok, err)
		}
	}
	for _, w := range []float64{0, 1, 0.5} {
		if err := ValidWeight(w); err != nil {
			t.Errorf("ValidWeight(%v) = %v", w, err)
		}
	}
	if _, err := s.UpsertEdge(Edge{Type: LinksTo, From: "learning:a", To: "learning:b", Relation: strings.Repeat("z", 64), Weight: 0}); err != nil {
		t.Fatal(err)
	}
}

func TestUpsert(t *testing.T) {
	s := openMem(t)
	k := EdgeKey{Type: LinksTo, From: "learning:a", To: "learning:b", Relation: "caused_by"}
	e1 := mustUpsert(t, s, Edge{Type: k.Type, From: k.From, To: k.To, Relation: k.Relation, Weight: 0.8, Metadata: map[string]any{"note": "first"}})
	if e1.Version != 1 || e1.Mentions != 1 || e1.CreatedAt.IsZero() || !e1.CreatedAt.Equal(e1.UpdatedAt) {
		t.Fatalf("new edge: %+v", e1)
	}
	time.Sleep(time.Millisecond)
	e2 := mustUpsert(t, s, Edge{Type: k.Type, From: k.From, To: k.To, Relation: k.Relation, Weight: 0.3, Metadata: map[string]any{"note": "second"}})
	if e2.Version != 2 || e2.Mentions != 2 || !e2.CreatedAt.Equal(e1.CreatedAt) || !e2.UpdatedAt.After(e1.UpdatedAt) || e2.Weight != 0.3 || e2.Metadata["note"] != "second" {
		t.Fatalf("second upsert: %+v", e2)
	}
	e3 := mustUpsert(t, s, Edge{Type: k.Type, From: k.From, To: k.To, Relation: k.Relation, Weight: 0.4})
	if e3.Version != 3 || e3.Metadata["note"] != "second" {
		t.Fatalf("nil metadata must keep the old: %+v", e3)
	}
	got, err := s.Edge(k)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 3 || got.Weight != 0.4 {
		t.Fatalf("stored: %+v", got)
	}
	// Another relation is another edge.
	mustUpsert(t, s, Edge{Type: LinksTo, From: "learning:a", To: "learning:b", Relation: "implements", Weight: 1})
	es, err := s.Edges("learning:a", Out, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Relation != "caused_by" || es[1].Relation != "implements" {
		t.Fatalf("edges: %+v", es)
	}
	es, err = s.Edges("learning:a", Out, Filter{Relations: []string{"implements"}})
	if err != nil || len(es) != 1 {
		t.Fatalf("relation filter: %v %+v", err, es)
	}
	if _, err := s.Edge(EdgeKey{Type: Imports, From: "file:x", To: "file:y"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing edge: %v", err)
	}
	n, err := s.Node("learning:b")
	if err != nil || n.Type != TypeLearning {
		t.Fatalf("implicit node: %v %+v", err, n)
	}
	if err := s.UpsertNode(Node{ID: "learning:b", Attrs: map[string]string{"title": "B"}}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Node("learning:b"); n.Attrs["title"] != "B" {
		t.Fatalf("attrs: %+v", n)
	}
	if err := s.View(func(tx *Tx) error { return tx.UpsertNode(Node{ID: "file:z"}) }); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write in View: %v", err)
	}
}

func TestSymmetric(t *testing.T) {
	s := openMem(t)
	e := mustUpsert(t, s, Edge{Type: CoChangesWith, From: "file:b", To: "file:a", Weight: 0.5})
	if e.From != "file:a" || e.To != "file:b" {
		t.Fatalf("not canonical: %+v", e)
	}
	e = mustUpsert(t, s, Edge{Type: CoChangesWith, From: "file:a", To: "file:b", Weight: 0.6})
	if e.Version != 2 {
		t.Fatalf("both orders must be one edge: %+v", e)
	}
	for _, id := range []string{"file:a", "file:b"} {
		for _, d := range []Direction{Out, In, Both} {
			es, err := s.Edges(id, d, Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if len(es) != 1 || es[0].Weight != 0.6 || es[0].From != "file:a" {
				t.Fatalf("%s %s: %+v", id, d, es)
			}
		}
		other := map[string]string{"file:a": "file:b", "file:b": "file:a"}[id]
		for _, d := range []Direction{Out, In, Both} {
			rs, err := s.Traverse(context.Background(), TraverseOptions{Seeds: []string{id}, Direction: d})
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 1 || rs[0].Node != other || rs[0].Score != 0.6 {
				t.Fatalf("traverse %s %s: %+v", id, d, rs)
			}
		}
	}
	if _, err := s.Edge(EdgeKey{Type: CoChangesWith, From: "file:b", To: "file:a"}); err != nil {
		t.Fatalf("lookup in reverse order: %v", err)
	}
	st, _ := s.Stats()
	if st.Edges != 1 || st.EdgesByType[CoChangesWith] != 1 || st.NodesByType[TypeFile] != 2 {
		t.Fatalf("stats: %+v", st)
	}
	if err := s.RemoveEdge(EdgeKey{Type: CoChangesWith, From: "file:b", To: "file:a"}); err != nil {
		t.Fatal(err)
	}
	assertNoAdjacency(t, s)
}

// assertNoAdjacency checks that no adjacency key is left.
func assertNoAdjacency(t *testing.T, s *Store) {
	t.Helper()
	err := s.View(func(tx *Tx) error {
		for _, p := range []byte{prefixOut, prefixIn} {
			it := tx.txn.NewIterator(badgerPrefix(p))
			it.Seek([]byte{p})
			if it.ValidForPrefix([]byte{p}) {
				t.Errorf("stale adjacency key %q", it.Item().Key())
			}
			it.Close()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestInvalidateRestore(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	k := EdgeKey{Type: AnchoredTo, From: "learning:l1", To: "symbol:a.go::F"}
	mustUpsert(t, s, Edge{Type: k.Type, From: k.From, To: k.To, Weight: 1})
	mustUpsert(t, s, Edge{Type: SimilarTo, From: "learning:l1", To: "learning:l2", Weight: 0.5})
	if err := s.InvalidateEdge(k, "symbol deleted in abc123"); err != nil {
		t.Fatal(err)
	}
	e, err := s.Edge(k)
	if err != nil || e.InvalidatedAt == nil || e.InvalidReason != "symbol deleted in abc123" {
		t.Fatalf("invalidated: %v %+v", err, e)
	}
	es, _ := s.Edges("learning:l1", Both, Filter{})
	if len(es) != 1 || es[0].Type != SimilarTo {
		t.Fatalf("invalidated edge listed: %+v", es)
	}
	es, _ = s.Edges("learning:l1", Both, Filter{IncludeInvalidated: true})
	if len(es) != 2 {
		t.Fatalf("IncludeInvalidated: %+v", es)
	}
	rs, _ := s.Traverse(ctx, TraverseOptions{Seeds: []string{"symbol:a.go::F"}})
	if len(rs) != 0 {
		t.Fatalf("traversal crossed an invalidated edge: %+v", rs)
	}
	rs, _ = s.Traverse(ctx, TraverseOptions{Seeds: []string{"symbol:a.go::F"}, Filter: Filter{IncludeInvalidated: true}})
	if len(rs) != 2 {
		t.Fatalf("IncludeInvalidated traversal: %+v", rs)
	}
	if err := s.RestoreEdge(k); err != nil {
		t.Fatal(err)
	}
	e, _ = s.Edge(k)
	if e.InvalidatedAt != nil || e.InvalidReason != "" || e.Version != 1 {
		t.Fatalf("restored: %+v", e)
	}
	rs, _ = s.Traverse(ctx, TraverseOptions{Seeds: []string{"symbol:a.go::F"}})
	if len(rs) != 2 || rs[0].Node != "learning:l1" || rs[1].Node != "learning:l2" || rs[1].Score != 0.5 || rs[1].Depth != 2 {
		t.Fatalf("after restore: %+v", rs)
	}
	// Upserting an invalidated edge revives it.
	s.InvalidateEdge(k, "again")
	e = mustUpsert(t, s, Edge{Type: k.Type, From: k.From, To: k.To, Weight: 1})
	if e.Invalidated() || e.Version != 2 {
		t.Fatalf("upsert of invalidated: %+v", e)
	}
	if err := s.InvalidateEdge(EdgeKey{Type: Imports, From: "file:q", To: "file:r"}, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("invalidate missing: %v", err)
	}
	h, err := s.History(0)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, c := range h {
		ops = append(ops, string(c.Op))
	}
	if got := strings.Join(ops, " "); got != "upsert invalidate restore invalidate upsert upsert" {
		t.Fatalf("history newest first: %s", got)
	}
}

func TestRemoveNodeCascade(t *testing.T) {
	s := openMem(t)
	hub := "file:hub.go"
	for i := range 50 {
		f := "file:" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ".go"
		mustUpsert(t, s, Edge{Type: Imports, From: f, To: hub, Weight: 1})
		mustUpsert(t, s, Edge{Type: Imports, From: hub, To: f, Weight: 0.5})
		mustUpsert(t, s, Edge{Type: CoChangesWith, From: f, To: hub, Weight: 0.5})
	}
	mustUpsert(t, s, Edge{Type: Imports, From: "file:a.go", To: "file:b.go", Weight: 1})
	mustUpsert(t, s, Edge{Type: AnchoredTo, From: "learning:l", To: hub, Weight: 1})
	if err := s.RemoveNode(hub); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Node(hub); !errors.Is(err, ErrNotFound) {
		t.Fatalf("node still there: %v", err)
	}
	st, _ := s.Stats()
	if st.Edges != 1 || st.Nodes != 51 {
		t.Fatalf("stats after cascade: %+v", st)
	}
	es, _ := s.Edges("file:a.go", Both, Filter{IncludeInvalidated: true})
	if len(es) != 1 || es[0].To != "file:b.go" {
		t.Fatalf("neighbour kept stale edges: %+v", es)
	}
	h, _ := s.History(1)
	if len(h) != 1 || h[0].Op != OpRemove || !strings.Contains(h[0].Reason, hub) {
		t.Fatalf("history: %+v", h)
	}
	if err := s.RemoveNode(hub); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second removal: %v", err)
	}
	// A recreated node starts empty.
	mustUpsert(t, s, Edge{Type: Imports, From: "file:c.go", To: hub, Weight: 1})
	es, _ = s.Edges(hub, Both, Filter{})
	if len(es) != 1 {
		t.Fatalf("recreated: %+v", es)
	}
}

func TestSetOutEdges(t *testing.T) {
	s := openMem(t)
	from := "file:main.go"
	set := func(es ...Edge) {
		t.Helper()
		if err := s.SetOutEdges(from, Imports, es); err != nil {
			t.Fatal(err)
		}
	}
	set(Edge{To: "file:a.go", Weight: 1}, Edge{To: "file:b.go", Weight: 1}, Edge{To: "file:c.go", Weight: 1})
	mustUpsert(t, s, Edge{Type: AnchoredTo, From: "learning:x", To: from, Weight: 1})
	mustUpsert(t, s, Edge{Type: Imports, From: "file:z.go", To: from, Weight: 1})
	set(Edge{To: "file:a.go", Weight: 1}, Edge{To: "file:b.go", Weight: 0.5}, Edge{To: "file:d.go", Weight: 1})
	es, _ := s.Edges(from, Out, Filter{})
	var got []string
	for _, e := range es {
		got = append(got, e.To+"@v"+string(rune('0'+e.Version)))
	}
	if strings.Join(got, " ") != "file:a.go@v1 file:b.go@v2 file:d.go@v1" {
		t.Fatalf("out-edges: %v", got)
	}
	es, _ = s.Edges(from, In, Filter{})
	if len(es) != 2 {
		t.Fatalf("in-edges touched: %+v", es)
	}
	set()
	if es, _ := s.Edges(from, Out, Filter{}); len(es) != 0 {
		t.Fatalf("empty set: %+v", es)
	}
	// Symmetric: edges touching the node, whichever end is canonical.
	if err := s.SetOutEdges("file:m", CoChangesWith, []Edge{{To: "file:a", Weight: 0.5}, {To: "file:z", Weight: 0.5}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetOutEdges("file:m", CoChangesWith, []Edge{{To: "file:z", Weight: 0.5}}); err != nil {
		t.Fatal(err)
	}
	es, _ = s.Edges("file:m", Both, Filter{})
	if len(es) != 1 || es[0].To != "file:z" || es[0].Version != 1 {
		t.Fatalf("symmetric set: %+v", es)
	}
	if err := s.SetOutEdges(from, Imports, []Edge{{From: "file:other", To: "file:a", Weight: 1}}); err == nil {
		t.Fatal("foreign edge accepted")
	}
	if err := s.SetOutEdges(from, Imports, []Edge{{To: from, Weight: 1}}); !errors.Is(err, ErrSelfLink) {
		t.Fatalf("self-link: %v", err)
	}
}

func TestReplaceEdgesBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	s := openMem(t)
	ctx := context.Background()
	const n = 100_000
	mk := func(i int, w float64) Edge {
		return Edge{Type: CoChangesWith, From: fileID(i % 5000), To: fileID(5000 + i), Weight: w}
	}
	var es []Edge
	for i := range n {
		es = append(es, mk(i, 0.5))
	}
	mustUpsert(t, s, Edge{Type: Imports, From: fileID(1), To: fileID(2), Weight: 1})
	if err := s.ReplaceEdges(ctx, CoChangesWith, es); err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stats()
	if st.EdgesByType[CoChangesWith] != n || st.EdgesByType[Imports] != 1 {
		t.Fatalf("stats: %+v", st)
	}
	// Keep half, change a tenth, drop the rest.
	var next []Edge
	for i := range n / 2 {
		w := 0.5
		if i%10 == 0 {
			w = 0.25
		}
		next = append(next, mk(i, w))
	}
	if err := s.ReplaceEdges(ctx, CoChangesWith, next); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Stats()
	if st.EdgesByType[CoChangesWith] != n/2 || st.EdgesByType[Imports] != 1 {
		t.Fatalf("stats after replace: %+v", st)
	}
	for _, i := range []int{0, 1, 10, n/2 - 1} {
		e, err := s.Edge(mk(i, 0).Key())
		if err != nil {
			t.Fatal(err)
		}
		wantV, wantW := 1, 0.5
		if i%10 == 0 {
			wantV, wantW = 2, 0.25
		}
		if e.Version != wantV || e.Weight != wantW {
			t.Fatalf("edge %d: %+v", i, e)
		}
	}
	if _, err := s.Edge(mk(n/2, 0).Key()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("dropped edge: %v", err)
	}
	es2, _ := s.Edges(fileID(5000+n/2), Both, Filter{IncludeInvalidated: true})
	if len(es2) != 0 {
		t.Fatalf("stale adjacency: %+v", es2)
	}
}

func fileID(i int) string { return "file:f" + itoa(i) + ".go" }

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestRemoveHubBeyondOneTransaction(t *testing.T) {
	s, err := Open(t.TempDir(), Options{Schema: 1, MemTableSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hub := "file:hub.go"
	var es []Edge
	for i := range 2000 {
		es = append(es, Edge{Type: Imports, From: fileID(i), To: hub, Weight: 1})
		if i%2 == 0 {
			es = append(es, Edge{Type: CoChangesWith, From: fileID(i), To: hub, Weight: 0.5})
		}
	}
	es = append(es, Edge{Type: Imports, From: fileID(1), To: fileID(2), Weight: 1})
	if err := s.Load(context.Background(), nil, es); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveNode(hub); err == nil || !strings.Contains(err.Error(), "Batch") && !strings.Contains(err.Error(), "too big") {
		t.Fatalf("one transaction: got %v, want a too-big error", err)
	}
	if _, err := s.Node(hub); err != nil {
		t.Fatalf("failed removal must leave the node: %v", err)
	}
	if err := s.Batch(func(b *Batch) error { return b.RemoveNode(hub) }); err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stats()
	if st.Edges != 1 || st.Nodes != 2000 {
		t.Fatalf("after removal: %+v", st)
	}
	assertNoneTouch(t, s, fileID(0))
}

func assertNoneTouch(t *testing.T, s *Store, id string) {
	t.Helper()
	es, err := s.Edges(id, Both, Filter{IncludeInvalidated: true})
	if err != nil || len(es) != 0 {
		t.Fatalf("%s still has edges: %v %+v", id, err, es)
	}
}

func TestHistoryBounded(t *testing.T) {
	s, err := Open(t.TempDir(), Options{Schema: 1, HistoryLimit: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 12 {
		mustUpsert(t, s, Edge{Type: Imports, From: "file:a", To: fileID(i), Weight: 1})
	}
	if err := s.RemoveEdge(EdgeKey{Type: Imports, From: "file:a", To: fileID(3)}); err != nil {
		t.Fatal(err)
	}
	h, err := s.History(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 5 || h[0].Op != OpRemove || h[0].Edge.To != fileID(3) || h[4].Edge.To != fileID(8) {
		t.Fatalf("history: %+v", h)
	}
	// The removed edge can be put back from its history entry.
	if err := s.Load(context.Background(), nil, []Edge{h[0].Edge}); err != nil {
		t.Fatal(err)
	}
	if e, err := s.Edge(h[0].Edge.Key()); err != nil || !e.CreatedAt.Equal(h[0].Edge.CreatedAt) {
		t.Fatalf("restored from history: %v %+v", err, e)
	}
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	if h, _ := s.History(0); len(h) != 5 {
		t.Fatalf("after compact: %d entries", len(h))
	}
}
