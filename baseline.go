package lore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
)

// baseline checks that a points at something in the working tree and
// records its fingerprints.
func (w *Workspace) baseline(ctx context.Context, st *graph.Store, a anchors.Anchor) (anchors.Anchor, error) {
	if p := a.Path(); p != "" {
		fi, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(p)))
		if err != nil || !fi.Mode().IsRegular() {
			return a, fmt.Errorf("anchor %s: no such file in the repository", a.Spec())
		}
	}
	return a, nil
}
