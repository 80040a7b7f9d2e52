package lore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
)

// AddAnchor anchors a learning (id or unique prefix) to one more place:
// spec is path, path::Symbol, path#L10-L24 or glob:pattern. Its baseline
// is recorded now. Adding an anchor the learning already has changes
// nothing. It returns the learning as written.
func (w *Workspace) AddAnchor(ctx context.Context, id, spec string) (*learnfile.Learning, error) {
	var out *learnfile.Learning
	err := w.withWriter(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		a, err := w.newAnchor(ctx, st, spec)
		if err != nil {
			return err
		}
		fresh, err := w.readLearning(l)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(fresh.Anchors, func(x anchors.Anchor) bool { return x.Spec() == a.Spec() }) {
			out = fresh
			return nil
		}
		fresh.Anchors = append(fresh.Anchors, a)
		fresh.Updated = time.Now().UTC().Truncate(time.Second)
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.writeLearning(fresh); err != nil {
			return fmt.Errorf("anchor %s: %w", l.ID, err)
		}
		out = fresh
		return w.learnings.Sync(ctx)
	})
	return out, err
}
