package graph

import (
	"context"
	"errors"
	"time"

	"github.com/dgraph-io/badger/v4"
)

func (tx *Tx) writer() (*writer, error) {
	if !tx.write {
		return nil, ErrReadOnly
	}
	if tx.w == nil {
		tx.w = &writer{s: tx.s, txn: tx.txn}
	}
	tx.w.now = time.Now().UTC()
	return tx.w, nil
}

// UpsertNode creates the node or replaces its attributes.
func (tx *Tx) UpsertNode(n Node) error {
	w, err := tx.writer()
	if err != nil {
		return err
	}
	return w.upsertNode(n)
}

// UpsertEdge creates the edge (version 1, mentions 1) or, when an edge with
// the same (type, from, relation, to) exists, bumps its version and
// mentions, sets its weight, its metadata (when e.Metadata is not nil) and
// its update time, and clears an invalidation. Missing nodes are created.
// Only Type, From, To, Relation, Weight and Metadata of e are read. It
// returns the stored edge; a symmetric edge comes back with From < To.
func (tx *Tx) UpsertEdge(e Edge) (Edge, error) {
	w, err := tx.writer()
	if err != nil {
		return Edge{}, err
	}
	return w.upsertEdge(e)
}

// RemoveEdge deletes the edge, or returns ErrNotFound.
func (tx *Tx) RemoveEdge(k EdgeKey) error {
	w, err := tx.writer()
	if err != nil {
		return err
	}
	return w.removeEdge(k)
}

// InvalidateEdge soft-deletes the edge with a reason: it stays stored (and
// restorable) but traversals and edge lists skip it unless asked.
func (tx *Tx) InvalidateEdge(k EdgeKey, reason string) error {
	w, err := tx.writer()
	if err != nil {
		return err
	}
	_, err = w.setInvalid(k, true, reason)
	return err
}

// RestoreEdge undoes InvalidateEdge.
func (tx *Tx) RestoreEdge(k EdgeKey) error {
	w, err := tx.writer()
	if err != nil {
		return err
	}
	_, err = w.setInvalid(k, false, "")
	return err
}

// RemoveNode deletes the node and every edge touching it, in this
// transaction. A transaction holds a fraction of Options.MemTableSize, and
// each removed edge takes four to six entries (its keys and its history), so
// at the default size a node with more than about a thousand edges fails
// with a "too big" error and needs Batch.RemoveNode.
func (tx *Tx) RemoveNode(id string) error {
	w, err := tx.writer()
	if err != nil {
		return err
	}
	return w.removeNode(id)
}

// Prune removes every node of type typ (such as TypeSymbol) that no edge
// points to, with its out-edges, and returns how many it removed: nodes
// that exist only as the target of edges do not outlive them.
func (tx *Tx) Prune(typ string) (int, error) {
	w, err := tx.writer()
	if err != nil {
		return 0, err
	}
	return w.prune(typ)
}

// PruneNodes is Prune for the nodes of ids only: each that exists and that
// no edge points to is removed, with its out-edges.
func (tx *Tx) PruneNodes(ids []string) (int, error) {
	w, err := tx.writer()
	if err != nil {
		return 0, err
	}
	return w.pruneNodes(ids)
}

// SetOutEdges makes edges the complete set of from's out-edges of type typ
// (for a symmetric type: of edges touching from). Edges may leave From and
// Type empty. Edges that change are upserted, new ones created, missing
// ones removed; edges whose weight and metadata are unchanged (and that are
// valid) are left as they are, without a version bump.
func (tx *Tx) SetOutEdges(from string, typ EdgeType, edges []Edge) error {
	w, err := tx.writer()
	if err != nil {
		return err
	}
	return w.setOutEdges(from, typ, edges)
}

// ReplaceEdges makes edges the complete set of edges of type typ, with the
// same rules as SetOutEdges. For large sets use Batch.ReplaceEdges.
func (tx *Tx) ReplaceEdges(ctx context.Context, typ EdgeType, edges []Edge) error {
	if _, err := tx.writer(); err != nil {
		return err
	}
	return replaceEdges(ctx, tx.txn, typ, edges, func(op func(*writer) error) error {
		w, err := tx.writer()
		if err != nil {
			return err
		}
		return op(w)
	})
}

// UpsertNode is Tx.UpsertNode in the batch.
func (b *Batch) UpsertNode(n Node) error {
	return b.do(func(w *writer) error { return w.upsertNode(n) })
}

// UpsertEdge is Tx.UpsertEdge in the batch.
func (b *Batch) UpsertEdge(e Edge) error {
	return b.do(func(w *writer) error { _, err := w.upsertEdge(e); return err })
}

// RemoveEdge is Tx.RemoveEdge in the batch.
func (b *Batch) RemoveEdge(k EdgeKey) error {
	return b.do(func(w *writer) error { return w.removeEdge(k) })
}

// InvalidateEdge is Tx.InvalidateEdge in the batch.
func (b *Batch) InvalidateEdge(k EdgeKey, reason string) error {
	return b.do(func(w *writer) error { _, err := w.setInvalid(k, true, reason); return err })
}

// RestoreEdge is Tx.RestoreEdge in the batch.
func (b *Batch) RestoreEdge(k EdgeKey) error {
	return b.do(func(w *writer) error { _, err := w.setInvalid(k, false, ""); return err })
}

// RemoveNode is Tx.RemoveNode in the batch. A node with more edges than
// fit one transaction loses them in chunks, then goes itself.
func (b *Batch) RemoveNode(id string) error {
	err := b.do(func(w *writer) error { return w.removeNode(id) })
	if !errors.Is(err, badger.ErrTxnTooBig) {
		return err
	}
	var todo []adj // canonical (self=from, other=to)
	err = b.s.db.View(func(txn *badger.Txn) error {
		uid, err := lookupUID(txn, id)
		if err != nil {
			return err
		}
		for _, p := range []byte{prefixOut, prefixIn} {
			as, err := scanAdj(txn, putUID([]byte{p}, uid))
			if err != nil {
				return err
			}
			for _, a := range as {
				if a.flags&flagMirror != 0 {
					continue // reached again from its canonical entry
				}
				f, t := canonicalEnds(p, a)
				todo = append(todo, adj{self: f, other: t, typ: a.typ, rel: a.rel})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, a := range todo {
		err := b.do(func(w *writer) error { return w.removeAt(a.self, a.other, a.typ, a.rel, "node removed: "+id) })
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return b.do(func(w *writer) error { return w.removeNode(id) })
}

// SetOutEdges is Tx.SetOutEdges in the batch.
func (b *Batch) SetOutEdges(from string, typ EdgeType, edges []Edge) error {
	return b.do(func(w *writer) error { return w.setOutEdges(from, typ, edges) })
}

// ReplaceEdges is Tx.ReplaceEdges for sets of any size: changes are
// committed in chunks, so a crash midway leaves a mix that the next
// ReplaceEdges repairs.
func (b *Batch) ReplaceEdges(ctx context.Context, typ EdgeType, edges []Edge) error {
	if err := b.commit(); err != nil {
		return err
	}
	snap := b.s.db.NewTransaction(false)
	defer snap.Discard()
	return replaceEdges(ctx, snap, typ, edges, b.do)
}

// Store-level conveniences: each runs one transaction.

// UpsertEdge runs Tx.UpsertEdge in its own transaction.
func (s *Store) UpsertEdge(e Edge) (Edge, error) {
	var out Edge
	err := s.Update(func(tx *Tx) error {
		var err error
		out, err = tx.UpsertEdge(e)
		return err
	})
	return out, err
}

// UpsertNode runs Tx.UpsertNode in its own transaction.
func (s *Store) UpsertNode(n Node) error {
	return s.Update(func(tx *Tx) error { return tx.UpsertNode(n) })
}

// RemoveEdge runs Tx.RemoveEdge in its own transaction.
func (s *Store) RemoveEdge(k EdgeKey) error {
	return s.Update(func(tx *Tx) error { return tx.RemoveEdge(k) })
}

// InvalidateEdge runs Tx.InvalidateEdge in its own transaction.
func (s *Store) InvalidateEdge(k EdgeKey, reason string) error {
	return s.Update(func(tx *Tx) error { return tx.InvalidateEdge(k, reason) })
}

// RestoreEdge runs Tx.RestoreEdge in its own transaction.
func (s *Store) RestoreEdge(k EdgeKey) error {
	return s.Update(func(tx *Tx) error { return tx.RestoreEdge(k) })
}

// RemoveNode runs Tx.RemoveNode in its own transaction.
func (s *Store) RemoveNode(id string) error {
	return s.Update(func(tx *Tx) error { return tx.RemoveNode(id) })
}

// SetOutEdges runs Tx.SetOutEdges in its own transaction.
func (s *Store) SetOutEdges(from string, typ EdgeType, edges []Edge) error {
	return s.Update(func(tx *Tx) error { return tx.SetOutEdges(from, typ, edges) })
}

// ReplaceEdges runs Batch.ReplaceEdges.
func (s *Store) ReplaceEdges(ctx context.Context, typ EdgeType, edges []Edge) error {
	return s.Batch(func(b *Batch) error { return b.ReplaceEdges(ctx, typ, edges) })
}

// History returns up to limit edge changes, newest first.
func (s *Store) History(limit int) ([]Change, error) {
	var out []Change
	err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.History(limit)
		return err
	})
	return out, err
}

// Node runs Tx.Node in a read transaction.
func (s *Store) Node(id string) (Node, error) {
	var out Node
	err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.Node(id)
		return err
	})
	return out, err
}

// Edge runs Tx.Edge in a read transaction.
func (s *Store) Edge(k EdgeKey) (Edge, error) {
	var out Edge
	err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.Edge(k)
		return err
	})
	return out, err
}

// Edges runs Tx.Edges in a read transaction.
func (s *Store) Edges(id string, dir Direction, f Filter) ([]Edge, error) {
	var out []Edge
	err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.Edges(id, dir, f)
		return err
	})
	return out, err
}

// Traverse runs Tx.Traverse in a read transaction.
func (s *Store) Traverse(ctx context.Context, opts TraverseOptions) ([]Result, error) {
	var out []Result
	err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.Traverse(ctx, opts)
		return err
	})
	return out, err
}

// Neighborhood runs Tx.Neighborhood in a read transaction.
func (s *Store) Neighborhood(ctx context.Context, opts TraverseOptions) (*Subgraph, error) {
	var out *Subgraph
	err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.Neighborhood(ctx, opts)
		return err
	})
	return out, err
}

// NeighborhoodResults runs Tx.NeighborhoodResults in a read transaction.
func (s *Store) NeighborhoodResults(ctx context.Context, opts TraverseOptions) (*Subgraph, []Result, error) {
	var out *Subgraph
	var res []Result
	err := s.View(func(tx *Tx) error {
		var err error
		out, res, err = tx.NeighborhoodResults(ctx, opts)
		return err
	})
	return out, res, err
}

// Path runs Tx.Path in a read transaction.
func (s *Store) Path(ctx context.Context, to string, opts TraverseOptions) (Result, error) {
	var out Result
	err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.Path(ctx, to, opts)
		return err
	})
	return out, err
}

// Stats runs Tx.Stats in a read transaction.
func (s *Store) Stats() (Stats, error) {
	var out Stats
	err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.Stats()
		return err
	})
	return out, err
}
