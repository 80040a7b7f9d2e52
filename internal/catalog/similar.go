package catalog

import (
	"context"
	"fmt"
	"path"
	"sort"

	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/rank"
)

// similarBulk is how many changed learnings make a sync recompute every
// SIMILAR_TO edge and replace them in bulk.
const similarBulk = 100

// similarAfterSync recomputes the SIMILAR_TO edges of the learnings a sync
// added or changed. It does nothing when nothing changed, so that the
// common sync stays a stat of each file. When many changed (a fresh clone,
// a rebuilt store), it recomputes every edge and replaces the whole set in
// bulk.
func (c *Learnings) similarAfterSync(ctx context.Context, fresh []*learnfile.Learning) error {
	st := c.st
	var changed []*learnfile.Learning
	for _, l := range fresh {
		if cur := c.Learning(l.ID); cur != nil {
			changed = append(changed, cur)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	stored := map[string]string{} // learning file name -> its encoded terms
	err := st.View(func(tx *graph.Tx) error {
		return tx.Scan(nsTerms, "", func(k string, v []byte) error {
			stored[k] = string(v)
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("read terms: %w", err)
	}
	corpus := rank.NewCorpus(c.ids, func(id string, add func(string, float64)) {
		z := c.byID[id]
		if enc, ok := stored[path.Base(z.Path)]; !ok || !eachTerm(enc, add) {
			for t, f := range rank.TermFreqs(z.get()) {
				add(t, f)
			}
		}
	})
	if len(changed) <= similarBulk {
		return st.Update(func(tx *graph.Tx) error { return updateSimilar(tx, corpus, changed) })
	}
	seen := map[graph.EdgeKey]bool{}
	var all []graph.Edge
	for _, id := range c.ids {
		for _, m := range corpus.Nearest(id) {
			a, b := learningNode(id), learningNode(m.ID)
			if b < a {
				a, b = b, a
			}
			k := graph.EdgeKey{Type: graph.SimilarTo, From: a, To: b}
			if !seen[k] {
				seen[k] = true
				all = append(all, graph.Edge{Type: graph.SimilarTo, From: a, To: b, Weight: m.Score})
			}
		}
	}
	return st.ReplaceEdges(ctx, graph.SimilarTo, all)
}

// updateSimilar recomputes SIMILAR_TO edges for the learnings that sync
// found added or changed, against every learning of the index.
func updateSimilar(g graphWriter, c *rank.Corpus, changed []*learnfile.Learning) error {
	if len(changed) == 0 {
		return nil
	}
	sort.Slice(changed, func(i, j int) bool { return changed[i].ID < changed[j].ID })
	seen := map[string]bool{}
	for _, l := range changed {
		if seen[l.ID] {
			continue
		}
		seen[l.ID] = true
		var edges []graph.Edge
		for _, m := range c.Nearest(l.ID) {
			edges = append(edges, graph.Edge{To: learningNode(m.ID), Weight: m.Score})
		}
		if err := g.SetOutEdges(learningNode(l.ID), graph.SimilarTo, edges); err != nil {
			return fmt.Errorf("similar %s: %w", l.ID, err)
		}
	}
	return nil
}
