package lore

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

// RemoveAnchor removes one anchor of a learning, named by its 1-based
// position or its spec.
func (w *Workspace) RemoveAnchor(ctx context.Context, id, anchor string) (*Learning, error) {
	var out *Learning
	err := w.withWriter(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		fresh, err := w.readLearning(l)
		if err != nil {
			return err
		}
		i, err := anchorIndex(fresh, anchor)
		if err != nil {
			return err
		}
		fresh.Anchors = slices.Delete(fresh.Anchors, i, i+1)
		fresh.Updated = time.Now().UTC().Truncate(time.Second)
		if err := w.writeLearning(fresh); err != nil {
			return err
		}
		out = fresh
		return w.sync(ctx, st)
	})
	return out, err
}

// anchorIndex finds an anchor by 1-based position or spec.
func anchorIndex(l *Learning, ref string) (int, error) {
	if n, err := strconv.Atoi(ref); err == nil {
		if n < 1 || n > len(l.Anchors) {
			return 0, fmt.Errorf("learning %s has %d anchors; there is no anchor %d", l.ID, len(l.Anchors), n)
		}
		return n - 1, nil
	}
	for i, a := range l.Anchors {
		if a.Spec() == ref {
			return i, nil
		}
	}
	return 0, fmt.Errorf("learning %s has no anchor %s (see lore learn show %s)", l.ID, ref, l.ID)
}

// AcceptOptions select the anchors to accept.
type AcceptOptions struct {
	Learning string // id or prefix
	Anchor   int    // 1-based; 0 means every anchor that is not valid and unchanged
}

// Accept re-baselines anchors at their current location in the working
// tree after a person reviewed them: the way to accept drift. It returns
// the results that were accepted.
func (w *Workspace) Accept(ctx context.Context, opts AcceptOptions) ([]anchors.Result, error) {
	var accepted []anchors.Result
	err := w.withWriter(ctx, func(st *graph.Store) error {
		l, err := w.lookup(opts.Learning)
		if err != nil {
			return err
		}
		if opts.Anchor < 0 || opts.Anchor > len(l.Anchors) {
			return fmt.Errorf("learning %s has %d anchors; there is no anchor %d", l.ID, len(l.Anchors), opts.Anchor)
		}
		if _, err := w.index(ctx, st, IndexOptions{}); err != nil {
			return err
		}
		src, err := anchors.NewSource(source.Dir(w.root), anchors.SourceOptions{Index: st, Ignore: w.cfg.Ignore, MaxFileSize: w.cfg.MaxFileSize})
		if err != nil {
			return err
		}
		defer src.Close()
		v, err := anchors.NewVerifier(src, anchors.Options{Threshold: w.cfg.Verify.RelocationThreshold})
		if err != nil {
			return err
		}
		fresh, err := w.readLearning(l)
		if err != nil {
			return err
		}
		var rs []anchors.Result
		for i, a := range fresh.Anchors {
			if opts.Anchor != 0 && i+1 != opts.Anchor {
				continue
			}
			r := v.Verify(ctx, a)
			r.Learning, r.Anchor = l.ID, i+1
			if opts.Anchor == 0 && r.Status == anchors.Valid && r.Change == anchors.ChangeNone {
				continue
			}
			na, ok := anchors.Accept(r)
			if !ok {
				return fmt.Errorf("anchor %d (%s) of %s: %s; nothing to accept: remove it (lore anchor rm %s %d) or re-anchor it", i+1, a.Spec(), l.ID, r.Reason, l.ID, i+1)
			}
			fresh.Anchors[i] = na
			rs = append(rs, r)
		}
		if len(rs) == 0 {
			return nil
		}
		fresh.Updated = time.Now().UTC().Truncate(time.Second)
		if err := w.writeLearning(fresh); err != nil {
			return err
		}
		accepted = rs
		return w.sync(ctx, st)
	})
	return accepted, err
}
