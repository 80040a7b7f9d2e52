package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
)

func sample(t *testing.T, s *Store) {
	t.Helper()
	if err := s.UpsertNode(Node{ID: "learning:k3v9", Attrs: map[string]string{"title": `validateToken "must" check expiry`}}); err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, s, Edge{Type: AnchoredTo, From: "learning:k3v9", To: "symbol:src/auth.ts::AuthService::validateToken", Weight: 1})
	mustUpsert(t, s, Edge{Type: LinksTo, From: "learning:k3v9", To: "learning:p8d2", Relation: "caused_by", Weight: 0.8, Metadata: map[string]any{"note": "the expiry race", "n": 3.0}})
	mustUpsert(t, s, Edge{Type: LinksTo, From: "learning:k3v9", To: "learning:p8d2", Relation: "caused_by", Weight: 0.7})
	mustUpsert(t, s, Edge{Type: CoChangesWith, From: "file:src/jwt.ts", To: "file:src/auth.ts", Weight: 0.42})
	mustUpsert(t, s, Edge{Type: Imports, From: "file:src/auth.ts", To: "file:src/jwt.ts", Weight: 1})
	mustUpsert(t, s, Edge{Type: DerivedFrom, From: "learning:k3v9", To: "task:T-142", Weight: 1})
	mustUpsert(t, s, Edge{Type: UsedInRun, From: "learning:p8d2", To: "run:R-77", Weight: 0.1})
	mustUpsert(t, s, Edge{Type: InvalidatedBy, From: "learning:p8d2", To: "commit:abc123", Weight: 1})
	if err := s.InvalidateEdge(EdgeKey{Type: UsedInRun, From: "learning:p8d2", To: "run:R-77"}, "run was a dry run"); err != nil {
		t.Fatal(err)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	a := openMem(t)
	sample(t, a)
	var first bytes.Buffer
	if err := a.Export(ctx, &first, JSON); err != nil {
		t.Fatal(err)
	}
	b := openMem(t)
	if err := b.Import(ctx, bytes.NewReader(first.Bytes())); err != nil {
		t.Fatal(err)
	}
	var second bytes.Buffer
	if err := b.Export(ctx, &second, JSON); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Fatalf("round trip differs:\n%s\n---\n%s", first.String(), second.String())
	}
	g1, err := ReadJSON(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(g1.Nodes) != 8 || len(g1.Edges) != 7 {
		t.Fatalf("%d nodes, %d edges", len(g1.Nodes), len(g1.Edges))
	}
	for _, id := range []string{"learning:k3v9", "learning:p8d2", "file:src/auth.ts"} {
		e1, _ := a.Edges(id, Both, Filter{IncludeInvalidated: true})
		e2, _ := b.Edges(id, Both, Filter{IncludeInvalidated: true})
		if !reflect.DeepEqual(e1, e2) {
			t.Fatalf("edges of %s differ:\n%+v\n%+v", id, e1, e2)
		}
		n1, _ := a.Node(id)
		n2, _ := b.Node(id)
		if !reflect.DeepEqual(n1, n2) {
			t.Fatalf("node %s differs: %+v %+v", id, n1, n2)
		}
	}
	e, _ := b.Edge(EdgeKey{Type: LinksTo, From: "learning:k3v9", To: "learning:p8d2", Relation: "caused_by"})
	if e.Version != 2 || e.Mentions != 2 || e.Metadata["note"] != "the expiry race" || e.Weight != 0.7 {
		t.Fatalf("imported edge: %+v", e)
	}
	// The JSON field names are an API.
	var raw map[string][]map[string]any
	json.Unmarshal(first.Bytes(), &raw)
	for _, f := range []string{"type", "from", "to", "relation", "weight", "metadata", "created_at", "updated_at", "invalidated_at", "version", "mentions"} {
		if _, ok := raw["edges"][0][f]; !ok {
			t.Errorf("edge JSON lacks %q", f)
		}
	}
	for _, f := range []string{"id", "type", "attrs"} {
		if _, ok := raw["nodes"][0][f]; !ok {
			t.Errorf("node JSON lacks %q", f)
		}
	}
}

func TestImportMinimal(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	in := `{"edges":[{"type":"IMPORTS","from":"file:a","to":"file:b"},
	{"type":"LINKS_TO","from":"learning:x","to":"learning:y","relation":"implements","weight":0.25}]}`
	if err := s.Import(ctx, strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	e, err := s.Edge(EdgeKey{Type: Imports, From: "file:a", To: "file:b"})
	if err != nil || e.Weight != 1 || e.Version != 1 || e.Mentions != 1 || e.CreatedAt.IsZero() || e.UpdatedAt.IsZero() {
		t.Fatalf("defaults: %v %+v", err, e)
	}
	for in, want := range map[string]error{
		`{"edges":[{"type":"IMPORTS","from":"file:a"}]}`:                          nil,
		`{"edges":[{"type":"IMPORTS","from":"file:a","to":"file:a"}]}`:            ErrSelfLink,
		`{"edges":[{"type":"NOPE","from":"file:a","to":"file:b"}]}`:               ErrEdgeType,
		`{"edges":[{"type":"IMPORTS","from":"file:a","to":"file:b","weight":2}]}`: ErrWeight,
		`{"nodes":[{"id":"wat"}]}`:                                                ErrNodeID,
		`{"nodes":`:                                                               nil,
	} {
		err := s.Import(ctx, strings.NewReader(in))
		if err == nil || (want != nil && !errors.Is(err, want)) {
			t.Errorf("%s: got %v, want %v", in, err, want)
		}
	}
	if err := s.Import(ctx, strings.NewReader(`{"edges":[{"type":"IMPORTS","from":"file:a"}]}`)); !strings.Contains(err.Error(), "missing to") {
		t.Errorf("missing field not named: %v", err)
	}
	var buf bytes.Buffer
	empty := openMem(t)
	if err := empty.Export(ctx, &buf, JSON); err != nil || strings.TrimSpace(buf.String()) != `{"nodes":[],"edges":[]}` {
		t.Fatalf("empty export: %v %q", err, buf.String())
	}
}

func TestPictures(t *testing.T) {
	s := openMem(t)
	sample(t, s)
	ctx := context.Background()
	var dot, mer bytes.Buffer
	if err := s.Export(ctx, &dot, DOT); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"digraph lore {",
		`"learning:k3v9" [label="validateToken \"must\" check expiry\nlearning"`,
		`fillcolor="#fff3bf"`,
		`"learning:k3v9" -> "learning:p8d2" [label="caused_by 0.7"`,
		`[label="CO_CHANGES_WITH 0.42", penwidth=1.34, dir=none]`,
		`style=dashed`,
	} {
		if !strings.Contains(dot.String(), want) {
			t.Errorf("DOT lacks %s:\n%s", want, dot.String())
		}
	}
	if err := s.Export(ctx, &mer, Mermaid); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"flowchart LR",
		`n0["validateToken #quot;must#quot; check expiry<br/><small>learning</small>"]:::learning`,
		`-->|"IMPORTS 1"|`,
		`---|"CO_CHANGES_WITH 0.42"|`,
		`-.->|"USED_IN_RUN 0.1"|`,
		"classDef file fill:#d0ebff",
	} {
		if !strings.Contains(mer.String(), want) {
			t.Errorf("Mermaid lacks %s:\n%s", want, mer.String())
		}
	}
	g, err := s.Neighborhood(ctx, TraverseOptions{Seeds: []string{"learning:k3v9"}, Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	var sub bytes.Buffer
	if err := g.Write(&sub, DOT); err != nil || !strings.Contains(sub.String(), "ANCHORED_TO 1") {
		t.Fatalf("subgraph DOT: %v\n%s", err, sub.String())
	}
	if _, err := ParseFormat("svg"); err == nil {
		t.Fatal("svg accepted")
	}
}

// TestConcurrentReaders checks that readers never see half a write: each
// transaction adds a chain a→b→c whose edges appear together or not at all.
func TestConcurrentReaders(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	const n = 300
	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				err := s.View(func(tx *Tx) error {
					st, err := tx.Stats()
					if err != nil {
						return err
					}
					if st.Edges%3 != 0 {
						return errors.New("saw a partial transaction in Stats")
					}
					for i := range 5 {
						rs, err := tx.Traverse(ctx, TraverseOptions{Seeds: []string{fileID(i * 3)}, Direction: Out, Depth: 3})
						if errors.Is(err, ErrNotFound) {
							continue
						}
						if err != nil {
							return err
						}
						if len(rs) != 3 {
							return errors.New("saw a partial chain")
						}
					}
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range n {
		err := s.Update(func(tx *Tx) error {
			a, b, c, d := fileID(i*3), fileID(i*3+1), fileID(i*3+2), "file:sink"
			for _, e := range [][2]string{{a, b}, {b, c}, {c, d}} {
				if _, err := tx.UpsertEdge(Edge{Type: Imports, From: e[0], To: e[1], Weight: 1}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if i == n/2 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestLoadPaths loads the same graph into an empty on-disk store (stream
// writer), a non-empty one (write batch) and memory, and compares.
func TestLoadPaths(t *testing.T) {
	ctx := context.Background()
	src := openMem(t)
	sample(t, src)
	var want bytes.Buffer
	if err := src.Export(ctx, &want, JSON); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"empty", "non-empty", "memory"} {
		opts := Options{Schema: 3}
		if name == "memory" {
			opts.InMemory = true
		}
		s, err := Open(filepath.Join(dir, name), opts)
		if err != nil {
			t.Fatal(err)
		}
		s.streamMin = 0
		if name == "non-empty" {
			s.Update(func(tx *Tx) error { return tx.Set("ns", "k", []byte("v")) })
		}
		if err := s.Import(ctx, bytes.NewReader(want.Bytes())); err != nil {
			t.Fatal(err)
		}
		check := func(when string) {
			var got bytes.Buffer
			if err := s.Export(ctx, &got, JSON); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Fatalf("%s %s: export differs:\n%s\n---\n%s", name, when, got.String(), want.String())
			}
		}
		check("after load")
		// The store keeps working: writes, schema, reopen.
		mustUpsert(t, s, Edge{Type: Imports, From: "file:x", To: "file:y", Weight: 1})
		if _, err := s.Node("learning:k3v9"); err != nil {
			t.Fatal(err)
		}
		if !opts.InMemory {
			s.Close()
			if s, err = Open(filepath.Join(dir, name), opts); err != nil {
				t.Fatal(err)
			}
			if s.Rebuilt() {
				t.Fatalf("%s: schema lost by the load", name)
			}
			if es, err := s.Edges("file:x", Out, Filter{}); err != nil || len(es) != 1 {
				t.Fatalf("%s after reopen: %v %v", name, err, es)
			}
			if name == "non-empty" {
				s.View(func(tx *Tx) error {
					if v, err := tx.Get("ns", "k"); string(v) != "v" {
						t.Errorf("KV lost: %v", err)
					}
					return nil
				})
			}
		}
		s.Close()
	}
}

// TestLoadBesideReader loads into an empty store while a read transaction
// is open: the stream writer must not run under it, the write batch does.
func TestLoadBesideReader(t *testing.T) {
	s, err := Open(t.TempDir(), Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.streamMin = 0
	err = s.View(func(tx *Tx) error {
		if err := s.Load(context.Background(), nil, []Edge{{Type: Imports, From: "file:a", To: "file:b", Weight: 1}}); err != nil {
			return err
		}
		if _, err := tx.Node("file:a"); !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("the open snapshot saw the load: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Node("file:a"); err != nil {
		t.Fatal(err)
	}
}

func TestReadJSONEmptyObjectsAndSizes(t *testing.T) {
	doc := `{"nodes":[{"id":"file:a","attrs":{ }},{"id":"file:b","attrs":{"k":"v"}},{"id":"file:c","attrs":null}],
"edges":[{"type":"IMPORTS","from":"file:a","to":"file:b","metadata":{}},{"type":"IMPORTS","from":"file:b","to":"file:c","metadata":{"n":1}}]}`
	for name, r := range map[string]io.Reader{
		"sized":    strings.NewReader(doc),
		"unsized":  io.MultiReader(strings.NewReader(doc[:10]), strings.NewReader(doc[10:])),
		"one byte": iotest.OneByteReader(strings.NewReader(doc)),
		"grown":    shortLen{strings.NewReader(doc), 20}, // says 20 bytes, has more
	} {
		g, err := ReadJSON(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if g.Nodes[0].Attrs != nil || g.Nodes[2].Attrs != nil || g.Nodes[1].Attrs["k"] != "v" {
			t.Errorf("%s: attrs %v, %v, %v", name, g.Nodes[0].Attrs, g.Nodes[1].Attrs, g.Nodes[2].Attrs)
		}
		if g.Edges[0].Metadata != nil || g.Edges[1].Metadata["n"] != float64(1) {
			t.Errorf("%s: metadata %v, %v", name, g.Edges[0].Metadata, g.Edges[1].Metadata)
		}
	}
	for _, bad := range []string{`{"nodes":[{"id":"file:a","attrs":{"k":1}}]}`, `{"nodes":[{"id":"file:a","attrs":[]}]}`} {
		if _, err := ReadJSON(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadJSON(%s) accepted attrs that are not strings", bad)
		}
	}
}

// TestReadJSONStream covers what the element-by-element reader must
// refuse or skip: truncation anywhere, trailing data, members of other
// names, nulls, strings holding brackets and escaped quotes.
func TestReadJSONStream(t *testing.T) {
	doc := `{"version": 2, "nodes": [{"id": "file:a\"]}", "attrs": {"k": "}{"}}], "extra": {"x": [1, "]"]}, ` +
		`"edges": [{"type": "IMPORTS", "from": "file:a\"]}", "to": "file:b", "weight": 0.5}]}`
	g, err := ReadJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 1 || g.Nodes[0].ID != `file:a"]}` || g.Nodes[0].Attrs["k"] != "}{" || len(g.Edges) != 1 || g.Edges[0].Weight != 0.5 {
		t.Fatalf("read %+v", g)
	}
	for i := 0; i < len(doc)-1; i++ {
		if _, err := ReadJSON(strings.NewReader(doc[:i])); err == nil {
			t.Fatalf("a graph cut at byte %d was accepted: %q", i, doc[:i])
		}
	}
	for _, bad := range []string{doc + "x", `[]`, `{"nodes": {}}`, `{"nodes": [1 2]}`, `{"edges": [{"type": "IMPORTS"}]}`, `{nodes: []}`} {
		if _, err := ReadJSON(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadJSON(%s) accepted it", bad)
		}
	}
	for _, good := range []string{`{}`, `{"nodes": null, "edges": []}`, " {\n} \n"} {
		if _, err := ReadJSON(strings.NewReader(good)); err != nil {
			t.Errorf("ReadJSON(%q): %v", good, err)
		}
	}
}

// shortLen is a reader whose Len is smaller than what it holds, like a
// file that grew after its size was read.
type shortLen struct {
	io.Reader
	n int
}

func (s shortLen) Len() int { return s.n }
