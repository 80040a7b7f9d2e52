package lore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lorehq/lore/graph"
)

// ResolveNode turns what a person types into a graph node id: a typed id
// (learning:…, file:…, symbol:…, task:…, run:…, commit:…) as is (learning
// ids by unique prefix), path::Symbol as a symbol, a learning id or prefix,
// or a repository path as a file.
func (w *Workspace) ResolveNode(ctx context.Context, arg string) (string, error) {
	var id string
	err := w.withStore(ctx, func(*graph.Store) error {
		var err error
		id, err = w.resolveNode(arg)
		return err
	})
	return id, err
}

func (w *Workspace) resolveNode(arg string) (string, error) {
	if arg == "" {
		return "", errors.New("empty node: give a learning id, a path, path::Symbol or a typed id such as file:a.go")
	}
	if rest, ok := strings.CutPrefix(arg, "learning:"); ok {
		l, err := w.lookup(rest)
		if err != nil {
			return "", err
		}
		return learningNode(l.ID), nil
	}
	if _, err := graph.NodeType(arg); err == nil {
		return arg, nil
	}
	if strings.Contains(arg, "::") {
		p, fq, _ := strings.Cut(arg, "::")
		rel, err := w.RelPath(p)
		if err != nil {
			return "", err
		}
		return "symbol:" + rel + "::" + fq, nil
	}
	rel, relErr := w.RelPath(arg)
	isFile := false
	if relErr == nil {
		_, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(rel)))
		isFile = err == nil
	}
	if l, err := w.lookup(arg); err == nil && !isFile {
		return learningNode(l.ID), nil
	}
	if isFile {
		return "file:" + rel, nil
	}
	if relErr != nil {
		return "", relErr
	}
	return "", fmt.Errorf("%s is neither a learning id nor a file in the repository: %w", arg, ErrNotFound)
}

// NodeInfo is a node with its edges.
type NodeInfo struct {
	Node  graph.Node   `json:"node"`
	Edges []graph.Edge `json:"edges"`
}

// Node returns a node and every edge touching it.
func (w *Workspace) Node(ctx context.Context, arg string, includeInvalidated bool) (*NodeInfo, error) {
	var info *NodeInfo
	err := w.withStore(ctx, func(st *graph.Store) error {
		id, err := w.resolveNode(arg)
		if err != nil {
			return err
		}
		n, err := st.Node(id)
		if errors.Is(err, graph.ErrNotFound) {
			return fmt.Errorf("no node %s in the graph (run lore index for files and symbols): %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		es, err := st.Edges(id, graph.Both, graph.Filter{IncludeInvalidated: includeInvalidated})
		if err != nil {
			return err
		}
		if es == nil {
			es = []graph.Edge{}
		}
		info = &NodeInfo{Node: n, Edges: es}
		return nil
	})
	return info, err
}

// NeighborsOptions are graph.TraverseOptions with seeds as people type
// them (resolved with ResolveNode).
type NeighborsOptions struct {
	Seeds []string
	graph.TraverseOptions
}

// Neighbors returns the neighbourhood of the seeds: the nodes reached and
// every edge among them.
func (w *Workspace) Neighbors(ctx context.Context, opts NeighborsOptions) (*graph.Subgraph, []graph.Result, error) {
	var sub *graph.Subgraph
	var res []graph.Result
	err := w.withStore(ctx, func(st *graph.Store) error {
		to := opts.TraverseOptions
		to.Seeds = nil
		for _, s := range opts.Seeds {
			id, err := w.resolveNode(s)
			if err != nil {
				return err
			}
			if _, err := st.Node(id); errors.Is(err, graph.ErrNotFound) {
				return fmt.Errorf("no node %s in the graph: %w", id, ErrNotFound)
			}
			to.Seeds = append(to.Seeds, id)
		}
		var err error
		sub, res, err = st.NeighborhoodResults(ctx, to)
		return err
	})
	return sub, res, err
}

// Path returns the highest-scoring path between two nodes.
func (w *Workspace) Path(ctx context.Context, from, to string, opts graph.TraverseOptions) (graph.Result, error) {
	var res graph.Result
	err := w.withStore(ctx, func(st *graph.Store) error {
		a, err := w.resolveNode(from)
		if err != nil {
			return err
		}
		b, err := w.resolveNode(to)
		if err != nil {
			return err
		}
		opts.Seeds = []string{a}
		res, err = st.Path(ctx, b, opts)
		if errors.Is(err, graph.ErrNotFound) {
			return fmt.Errorf("no path from %s to %s within depth %d: %w", a, b, max(opts.Depth, graph.DefaultDepth), ErrNotFound)
		}
		return err
	})
	return res, err
}

// GraphStats counts nodes and edges by type.
func (w *Workspace) GraphStats(ctx context.Context) (graph.Stats, error) {
	var s graph.Stats
	err := w.withStore(ctx, func(st *graph.Store) error {
		var err error
		s, err = st.Stats()
		return err
	})
	return s, err
}

// ExportGraph writes the whole graph in a format: json, dot or mermaid.
func (w *Workspace) ExportGraph(ctx context.Context, out io.Writer, format graph.Format) error {
	return w.withStore(ctx, func(st *graph.Store) error { return st.Export(ctx, out, format) })
}

// ImportGraph adds nodes and edges from graph JSON (an export of another
// store, feedback from elsewhere). What the learning files author is not
// imported, since no file would back it: learning nodes and their anchors,
// links and provenance (ANCHORED_TO, LINKS_TO, DERIVED_FROM edges) come
// from the files; a notice counts what was left out.
func (w *Workspace) ImportGraph(ctx context.Context, in io.Reader) error {
	sub, err := graph.ReadJSON(in)
	if err != nil {
		return err
	}
	nodes, edges := sub.Nodes[:0], sub.Edges[:0]
	skipped := 0
	for _, n := range sub.Nodes {
		if t, _ := graph.NodeType(n.ID); t == graph.TypeLearning {
			skipped++
			continue
		}
		nodes = append(nodes, n)
	}
	for _, e := range sub.Edges {
		switch e.Type {
		case graph.AnchoredTo, graph.LinksTo, graph.DerivedFrom:
			skipped++
			continue
		}
		edges = append(edges, e)
	}
	if skipped > 0 {
		w.notify("left out %d learning nodes and ANCHORED_TO, LINKS_TO and DERIVED_FROM edges: the learning files author them (lore learn add, lore anchor add, lore relate)", skipped)
	}
	return w.withWriter(ctx, func(st *graph.Store) error { return st.Load(ctx, nodes, edges) })
}
