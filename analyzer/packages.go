package analyzer

import (
	"context"
	"fmt"
	"path"

	"github.com/lorehq/lore/graph"
)

// packageNode is the node of the Go package whose directory is dir.
func packageNode(file string) string { return graph.NodeID(graph.TypePackage, path.Dir(file)) }

// packages makes the IN_PACKAGE edges those of the indexed Go files, each
// to the package of its directory, and removes packages left without
// files. A package's membership follows from paths alone, so only a run
// that changed the set of files (or that follows an interrupted one)
// writes them.
func (u *indexRun) packages(ctx context.Context, b *graph.Batch) error {
	if !u.setChanged && !u.interrupted && !u.opts.Force {
		return nil
	}
	var edges []graph.Edge
	for p, m := range u.metas {
		if m.Lang == "go" {
			edges = append(edges, graph.Edge{Type: graph.InPackage, From: graph.NodeID(graph.TypeFile, p), To: packageNode(p), Weight: 1})
		}
	}
	if len(u.old) == 0 {
		// A first index: nothing to replace, and a bulk load costs a
		// fraction of an upsert per edge.
		if err := u.store.Load(ctx, nil, edges); err != nil {
			return fmt.Errorf("package edges: %w", err)
		}
		return nil
	}
	if err := b.ReplaceEdges(ctx, graph.InPackage, edges); err != nil {
		return fmt.Errorf("package edges: %w", err)
	}
	if _, err := b.Prune(graph.TypePackage); err != nil {
		return fmt.Errorf("package edges: %w", err)
	}
	return nil
}
