package lore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/learnfile"
)

// RelateOptions describe a link between two learnings.
type RelateOptions struct {
	From, To string  // ids or unique prefixes
	Type     string  // relation tag: 1..64 of [a-z0-9_.-]
	Weight   float64 // 0..1; zero means 1 unless WeightSet
	// WeightSet says Weight was given (so 0 is a real weight).
	WeightSet     bool
	Note          string
	Bidirectional bool // also link To → From
}

// Relate writes a link into From's learning file (and To's when
// bidirectional). Relating the same (from, to, type) again updates the
// weight and note; the graph edge's version rises.
func (w *Workspace) Relate(ctx context.Context, opts RelateOptions) ([]graph.Edge, error) {
	if opts.Type == "" {
		return nil, errors.New("a relation needs a type: pass --type such as caused_by")
	}
	if err := graph.ValidRelation(opts.Type); err != nil {
		return nil, err
	}
	if !opts.WeightSet && opts.Weight == 0 {
		opts.Weight = 1
	}
	if err := graph.ValidWeight(opts.Weight); err != nil {
		return nil, err
	}
	var out, written []graph.Edge
	err := w.withWriter(ctx, func(st *graph.Store) error {
		from, err := w.lookup(opts.From)
		if err != nil {
			return err
		}
		to, err := w.lookup(opts.To)
		if err != nil {
			return err
		}
		if from.ID == to.ID {
			return fmt.Errorf("learning %s cannot be related to itself", from.ID)
		}
		pairs := [][2]*learnfile.Learning{{from, to}}
		if opts.Bidirectional {
			pairs = append(pairs, [2]*learnfile.Learning{to, from})
		}
		var files []*learnfile.Learning
		for _, p := range pairs {
			fresh, err := w.readLearning(p[0])
			if err != nil {
				return err
			}
			lk := learnfile.Link{To: p[1].ID, Type: opts.Type, Weight: opts.Weight, Note: opts.Note}
			written = append(written, catalog.LinkEdge(p[0].ID, lk))
			i := slices.IndexFunc(fresh.Links, func(x learnfile.Link) bool { return x.To == lk.To && x.Type == lk.Type })
			if i >= 0 {
				fresh.Links[i] = lk
			} else {
				fresh.Links = append(fresh.Links, lk)
			}
			fresh.Updated = time.Now().UTC().Truncate(time.Second)
			files = append(files, fresh)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.writeLearnings(files); err != nil {
			return err
		}
		if err := w.learnings.Sync(ctx); err != nil {
			return err
		}
		for _, p := range pairs {
			e, err := st.Edge(graph.EdgeKey{Type: graph.LinksTo, From: learningNode(p[0].ID), Relation: opts.Type, To: learningNode(p[1].ID)})
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	if err == nil && len(out) < len(written) {
		out = written // the files were written; the store was not updated
	}
	return out, err
}

// UnrelateOptions select links to remove.
type UnrelateOptions struct {
	From, To      string
	Type          string // empty: every relation type
	Bidirectional bool   // also remove To → From
}

// Unrelate removes links from From's learning file (and To's when
// bidirectional). It returns how many links it removed.
func (w *Workspace) Unrelate(ctx context.Context, opts UnrelateOptions) (int, error) {
	n := 0
	err := w.withWriter(ctx, func(st *graph.Store) error {
		from, err := w.lookup(opts.From)
		if err != nil {
			return err
		}
		to, err := w.lookup(opts.To)
		if err != nil {
			return err
		}
		pairs := [][2]*learnfile.Learning{{from, to}}
		if opts.Bidirectional {
			pairs = append(pairs, [2]*learnfile.Learning{to, from})
		}
		var files []*learnfile.Learning
		for _, p := range pairs {
			fresh, err := w.readLearning(p[0])
			if err != nil {
				return err
			}
			before := len(fresh.Links)
			fresh.Links = slices.DeleteFunc(fresh.Links, func(x learnfile.Link) bool {
				return x.To == p[1].ID && (opts.Type == "" || x.Type == opts.Type)
			})
			if len(fresh.Links) != before {
				n += before - len(fresh.Links)
				fresh.Updated = time.Now().UTC().Truncate(time.Second)
				files = append(files, fresh)
			}
		}
		if n == 0 {
			return fmt.Errorf("no link from %s to %s%s: %w", from.ID, to.ID, typeSuffix(opts.Type), ErrNotFound)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.writeLearnings(files); err != nil {
			return err
		}
		return w.learnings.Sync(ctx)
	})
	return n, err
}

func typeSuffix(t string) string {
	if t == "" {
		return ""
	}
	return " of type " + t
}

// writeLearnings rewrites several learning files as one step (see
// catalog.WriteLearnings): the operation under way has then written what
// it had to (see wrote).
func (w *Workspace) writeLearnings(ls []*learnfile.Learning) error {
	if len(ls) == 0 {
		return nil
	}
	if err := catalog.WriteLearnings(w.root, ls); err != nil {
		return err
	}
	w.wroteLearnings(ls)
	return nil
}

// wroteLearnings records that the operation under way has written these
// learning files, all it had to (see wrote).
func (w *Workspace) wroteLearnings(ls []*learnfile.Learning) {
	var names []string
	for _, l := range ls {
		names = append(names, l.ID)
	}
	w.wrote("learning " + strings.Join(names, " and ") + " saved")
}

// RelationsOptions filter Relations.
type RelationsOptions struct {
	Learning string    // only links from or to this learning (id or prefix)
	Since    time.Time // only links updated at or after
	Limit    int       // 0: all
	Offset   int
}

// Relations lists LINKS_TO edges between learnings with the learnings they
// join, newest first.
func (w *Workspace) Relations(ctx context.Context, opts RelationsOptions) (*graph.Subgraph, error) {
	if opts.Limit < 0 || opts.Offset < 0 {
		return nil, errors.New("limit and offset must not be negative")
	}
	sub := &graph.Subgraph{Nodes: []graph.Node{}, Edges: []graph.Edge{}}
	err := w.withStore(ctx, func(st *graph.Store) error {
		var ids []string
		if opts.Learning != "" {
			l, err := w.lookup(opts.Learning)
			if err != nil {
				return err
			}
			ids = []string{l.ID}
		} else {
			ids = w.learnings.IDs()
		}
		dir := graph.Out
		if opts.Learning != "" {
			dir = graph.Both
		}
		var edges []graph.Edge
		for _, id := range ids {
			es, err := st.Edges(learningNode(id), dir, graph.Filter{Types: []graph.EdgeType{graph.LinksTo}})
			if err != nil && !errors.Is(err, graph.ErrNotFound) {
				return err
			}
			for _, e := range es {
				if !e.UpdatedAt.Before(opts.Since) {
					edges = append(edges, e)
				}
			}
		}
		sort.SliceStable(edges, func(i, j int) bool {
			if !edges[i].UpdatedAt.Equal(edges[j].UpdatedAt) {
				return edges[i].UpdatedAt.After(edges[j].UpdatedAt)
			}
			return edges[i].Key().String() < edges[j].Key().String()
		})
		if opts.Offset < len(edges) {
			edges = edges[opts.Offset:]
		} else {
			edges = nil
		}
		if opts.Limit > 0 && len(edges) > opts.Limit {
			edges = edges[:opts.Limit]
		}
		seen := map[string]bool{}
		for _, e := range edges {
			sub.Edges = append(sub.Edges, e)
			for _, n := range []string{e.From, e.To} {
				if seen[n] {
					continue
				}
				seen[n] = true
				node, err := st.Node(n)
				if err != nil {
					node = graph.Node{ID: n, Type: "learning"}
				}
				sub.Nodes = append(sub.Nodes, node)
			}
		}
		return nil
	})
	return sub, err
}

// learningOfNode returns the learning id of a learning:<id> node, or "".
func learningOf(n string) string {
	id, _ := strings.CutPrefix(n, "learning:")
	if id == n {
		return ""
	}
	return id
}
