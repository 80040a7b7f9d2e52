package graph

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// The Go benchmarks run on a Barabási–Albert graph of benchNodes nodes
// with benchM edges each, on disk. bench/graph runs the full-size
// measurement (100,000 nodes, 1,000,000 edges) and prints percentiles.
const (
	benchNodes = 10_000
	benchM     = 10
)

func powerLaw(rng *rand.Rand, n, m int) []Edge {
	var ends []int
	edges := make([]Edge, 0, n*m)
	id := func(i int) string {
		if i%10 == 0 {
			return fmt.Sprintf("learning:l%07d", i)
		}
		return fmt.Sprintf("file:src/module%03d/file%06d.go", i%97, i)
	}
	for v := 1; v < n; v++ {
		seen := map[int]bool{}
		for len(seen) < min(m, v) {
			u := rng.IntN(v)
			if len(ends) > 0 && rng.IntN(10) != 0 {
				u = ends[rng.IntN(len(ends))]
			}
			if seen[u] || u == v {
				continue
			}
			seen[u] = true
			ends = append(ends, u, v)
			e := Edge{Type: Imports, From: id(v), To: id(u), Weight: 1}
			switch {
			case v%10 == 0 && u%10 == 0:
				e.Type, e.Relation, e.Weight = LinksTo, "relates_to", rng.Float64()
			case v%10 == 0 || u%10 == 0:
				e.Type = AnchoredTo
				if u%10 == 0 {
					e.From, e.To = e.To, e.From
				}
			case rng.IntN(4) == 0:
				e.Type, e.Weight = CoChangesWith, rng.Float64()
			}
			edges = append(edges, e)
		}
	}
	return edges
}

type benchGraph struct {
	s     *Store
	edges []Edge
	ids   []string
}

func openBench(b *testing.B) *benchGraph {
	b.Helper()
	dir := b.TempDir()
	s, err := Open(filepath.Join(dir, "db"), Options{Schema: 1, MemTableSize: 64 << 20})
	if err != nil {
		b.Fatal(err)
	}
	edges := powerLaw(rand.New(rand.NewPCG(1, 2)), benchNodes, benchM)
	if err := s.Load(context.Background(), nil, edges); err != nil {
		b.Fatal(err)
	}
	s.Close()
	if s, err = Open(filepath.Join(dir, "db"), Options{Schema: 1}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	seen := map[string]bool{}
	var ids []string
	for _, e := range edges {
		for _, id := range []string{e.From, e.To} {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return &benchGraph{s: s, edges: edges, ids: ids}
}

func BenchmarkLoad(b *testing.B) {
	edges := powerLaw(rand.New(rand.NewPCG(1, 2)), benchNodes, benchM)
	for b.Loop() {
		dir, err := os.MkdirTemp(b.TempDir(), "load")
		if err != nil {
			b.Fatal(err)
		}
		s, err := Open(dir, Options{Schema: 1, MemTableSize: 64 << 20})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Load(context.Background(), nil, edges); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
	b.ReportMetric(float64(len(edges)), "edges/op")
}

func BenchmarkQueries(b *testing.B) {
	g := openBench(b)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	seed := func() string { return g.ids[rng.IntN(len(g.ids))] }
	b.Run("UpsertEdge", func(b *testing.B) {
		for b.Loop() {
			e := g.edges[rng.IntN(len(g.edges))]
			if _, err := g.s.UpsertEdge(e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Neighborhood/depth2/both/limit100", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.s.Neighborhood(ctx, TraverseOptions{Seeds: []string{seed()}, Limit: 100}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Traverse/depth2/out/nolimit", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.s.Traverse(ctx, TraverseOptions{Seeds: []string{seed()}, Direction: Out}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Traverse/depth3/both/limit100", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.s.Traverse(ctx, TraverseOptions{Seeds: []string{seed()}, Depth: 3, Limit: 100}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Path", func(b *testing.B) {
		for b.Loop() {
			g.s.Path(ctx, seed(), TraverseOptions{Seeds: []string{seed()}, Depth: 3})
		}
	})
}

func BenchmarkExportImport10k(b *testing.B) {
	edges := powerLaw(rand.New(rand.NewPCG(1, 2)), 1100, 10)[:10_000]
	ctx := context.Background()
	s, err := Open(b.TempDir(), Options{Schema: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.Load(ctx, nil, edges); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	b.Run("Export", func(b *testing.B) {
		for b.Loop() {
			buf.Reset()
			if err := s.Export(ctx, &buf, JSON); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Import", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			t, err := Open(b.TempDir(), Options{Schema: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := t.Import(ctx, bytes.NewReader(buf.Bytes())); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			t.Close()
			b.StartTimer()
		}
	})
}

// BenchmarkRawScan is the floor under traversals: Badger iterating the
// in-adjacency keys of the whole graph, with and without reading values.
func BenchmarkRawScan(b *testing.B) {
	g := openBench(b)
	b.Logf("tables %v", g.s.Tables())
	for _, val := range []bool{false, true} {
		b.Run("value="+map[bool]string{false: "no", true: "yes"}[val], func(b *testing.B) {
			n := 0
			for b.Loop() {
				g.s.db.View(func(txn *badger.Txn) error {
					it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixIn}})
					defer it.Close()
					for it.Seek([]byte{prefixIn}); it.ValidForPrefix([]byte{prefixIn}); it.Next() {
						if val {
							it.Item().Value(func(v []byte) error { return nil })
						}
						n++
					}
					return nil
				})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/entry")
		})
	}
}
