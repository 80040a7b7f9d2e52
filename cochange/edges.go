package cochange

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lorehq/lore/graph"
)

// FileNode is the graph node id of a repository path.
func FileNode(path string) string { return "file:" + path }

func pairEdge(p Pair) graph.Edge {
	return graph.Edge{
		Type:   graph.CoChangesWith,
		From:   FileNode(p.A),
		To:     FileNode(p.B),
		Weight: p.Score,
		Metadata: map[string]any{
			"shared":           p.Shared,
			"revs_a":           p.RevsA,
			"revs_b":           p.RevsB,
			"last_commit_time": time.Unix(p.Last, 0).UTC().Format(time.RFC3339),
		},
	}
}

// writeEdges makes pairs the complete set of CO_CHANGES_WITH edges.
func writeEdges(ctx context.Context, s *graph.Store, pairs []Pair) error {
	edges := make([]graph.Edge, 0, len(pairs))
	for _, p := range pairs {
		edges = append(edges, pairEdge(p))
	}
	if err := s.ReplaceEdges(ctx, graph.CoChangesWith, edges); err != nil {
		return fmt.Errorf("store %s edges: %w", graph.CoChangesWith, err)
	}
	return nil
}

// updateEdges turns the edges of the old pairs into those of the new ones,
// touching only the pairs that changed.
func updateEdges(ctx context.Context, s *graph.Store, old, pairs []Pair) error {
	type key struct{ a, b string }
	prev := make(map[key]Pair, len(old))
	for _, p := range old {
		prev[key{p.A, p.B}] = p
	}
	err := s.Batch(func(b *graph.Batch) error {
		for i, p := range pairs {
			if i%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			k := key{p.A, p.B}
			o, ok := prev[k]
			delete(prev, k)
			if ok && o == p {
				continue
			}
			if err := b.UpsertEdge(pairEdge(p)); err != nil {
				return err
			}
		}
		for k := range prev {
			err := b.RemoveEdge(graph.EdgeKey{Type: graph.CoChangesWith, From: FileNode(k.a), To: FileNode(k.b)})
			if err != nil && !errors.Is(err, graph.ErrNotFound) {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store %s edges: %w", graph.CoChangesWith, err)
	}
	return nil
}
