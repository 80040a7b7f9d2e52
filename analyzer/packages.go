package analyzer

import (
	"context"
	"fmt"
	"path"
	"sort"

	"github.com/lorehq/lore/graph"
)

// packageNode is the node of the Go package whose directory is dir.
func packageNode(file string) string { return graph.NodeID(graph.TypePackage, path.Dir(file)) }

// packages makes the IN_PACKAGE edges those of the indexed Go files, each
// to the package of its directory, and removes packages left without
// files. A package's membership follows from paths alone, so only a run
// that changed the set of files (or that follows an interrupted one)
// writes them, and only the edges of the files that came, went or changed
// language, unless it follows an interrupted run.
func (u *indexRun) packages(ctx context.Context, b *graph.Batch) error {
	if !u.setChanged && !u.interrupted && !u.opts.Force {
		return nil
	}
	if len(u.old) == 0 {
		// A first index: nothing to replace, and a bulk load costs a
		// fraction of an upsert per edge. resolveFirst loaded them already,
		// with the IMPORTS edges.
		return nil
	}
	if u.interrupted || u.opts.Force {
		if err := b.ReplaceEdges(ctx, graph.InPackage, u.packageEdges()); err != nil {
			return fmt.Errorf("package edges: %w", err)
		}
		if _, err := b.Prune(graph.TypePackage); err != nil {
			return fmt.Errorf("package edges: %w", err)
		}
		return nil
	}
	var left []string // packages that lost a file
	set := func(p string, wasGo bool) error {
		m, ok := u.metas[p]
		isGo := ok && m.Lang == "go"
		if !isGo && !wasGo {
			return nil
		}
		var edges []graph.Edge
		if isGo {
			edges = append(edges, packageEdge(p))
		} else {
			left = append(left, packageNode(p))
		}
		if err := b.SetOutEdges(graph.NodeID(graph.TypeFile, p), graph.InPackage, edges); err != nil {
			return fmt.Errorf("package edges: %s: %w", p, err)
		}
		return nil
	}
	for _, p := range u.removed {
		if err := set(p, u.old[p].Lang == "go"); err != nil {
			return err
		}
	}
	for _, p := range u.joined {
		m, had := u.old[p]
		if err := set(p, had && m.Lang == "go"); err != nil {
			return err
		}
	}
	if _, err := b.PruneNodes(left); err != nil {
		return fmt.Errorf("package edges: %w", err)
	}
	return nil
}

// packageEdges are the IN_PACKAGE edges of every Go file indexed, in
// path order: a first index gives the nodes their uids in the order it
// meets them, which then does not vary from run to run.
func (u *indexRun) packageEdges() []graph.Edge {
	var paths []string
	for p, m := range u.metas {
		if m.Lang == "go" {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	edges := make([]graph.Edge, len(paths))
	for i, p := range paths {
		edges[i] = packageEdge(p)
	}
	return edges
}

func packageEdge(p string) graph.Edge {
	return graph.Edge{Type: graph.InPackage, From: graph.NodeID(graph.TypeFile, p), To: packageNode(p), Weight: 1}
}
