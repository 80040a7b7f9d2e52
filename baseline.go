package lore

import (
	"context"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

// baseline checks that a points at something in the working tree and
// records its fingerprints.
func (w *Workspace) baseline(ctx context.Context, st *graph.Store, a anchors.Anchor) (anchors.Anchor, error) {
	src, err := anchors.NewSource(source.Dir(w.root), anchors.SourceOptions{Ignore: w.cfg.Ignore, MaxFileSize: w.cfg.MaxFileSize})
	if err != nil {
		return a, err
	}
	defer src.Close()
	return anchors.Baseline(ctx, src, a)
}
