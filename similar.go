package lore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
)

// Lexical similarity between learnings: TF-IDF vectors over title, tags,
// body and anchor locations, compared by cosine. SIMILAR_TO edges join a
// learning to its most similar others above a threshold, with the cosine
// as weight.
const (
	similarThreshold = 0.25
	similarMax       = 10 // edges kept per changed learning
	// similarBulk is how many changed learnings make a sync recompute
	// every SIMILAR_TO edge and replace them in bulk.
	similarBulk = 100
)

// SimilarLearning is a learning similar to another one.
type SimilarLearning struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Tags  []string `json:"tags"`
	Score float64  `json:"score"` // cosine similarity in (0, 1]
}

// Similar returns the learnings most similar to id (an id or unique
// prefix), best first; limit 0 means all that sync recorded.
func (w *Workspace) Similar(ctx context.Context, id string, limit int) ([]SimilarLearning, error) {
	if limit < 0 {
		return nil, errors.New("similar: limit must not be negative")
	}
	out := []SimilarLearning{}
	err := w.withStore(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		es, err := st.Edges(learningNode(l.ID), graph.Both, graph.Filter{Types: []graph.EdgeType{graph.SimilarTo}})
		if err != nil && !errors.Is(err, graph.ErrNotFound) {
			return fmt.Errorf("similar: %w", err)
		}
		for _, e := range es {
			other := learningOfNode(e.To)
			if other == l.ID {
				other = learningOfNode(e.From)
			}
			o := w.learnings.get(other)
			if o == nil {
				continue
			}
			tags := o.Tags
			if tags == nil {
				tags = []string{}
			}
			out = append(out, SimilarLearning{ID: o.ID, Title: o.Title, Tags: tags, Score: e.Weight})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// similarAfterSync recomputes the SIMILAR_TO edges of the learnings a sync
// added or changed. It does nothing when nothing changed, so that the
// common sync stays a stat of each file. When many changed (a fresh clone,
// a rebuilt store), it recomputes every edge and replaces the whole set in
// bulk.
func (w *Workspace) similarAfterSync(ctx context.Context, st *graph.Store, fresh []*learnfile.Learning) error {
	var changed []*learnfile.Learning
	for _, l := range fresh {
		if cur := w.learnings.get(l.ID); cur != nil {
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
	c := newCorpus(w.learnings, stored)
	if len(changed) <= similarBulk {
		return st.Update(func(tx *graph.Tx) error { return w.updateSimilar(tx, c, changed) })
	}
	seen := map[graph.EdgeKey]bool{}
	var all []graph.Edge
	for _, id := range w.learnings.ids {
		for _, m := range c.nearest(id, similarMax, similarThreshold) {
			a, b := learningNode(id), learningNode(m.id)
			if b < a {
				a, b = b, a
			}
			k := graph.EdgeKey{Type: graph.SimilarTo, From: a, To: b}
			if !seen[k] {
				seen[k] = true
				all = append(all, graph.Edge{Type: graph.SimilarTo, From: a, To: b, Weight: m.score})
			}
		}
	}
	return st.ReplaceEdges(ctx, graph.SimilarTo, all)
}

// updateSimilar recomputes SIMILAR_TO edges for the learnings that sync
// found added or changed, against every learning of the index.
func (w *Workspace) updateSimilar(g graphWriter, c *corpus, changed []*learnfile.Learning) error {
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
		for _, m := range c.nearest(l.ID, similarMax, similarThreshold) {
			edges = append(edges, graph.Edge{To: learningNode(m.id), Weight: m.score})
		}
		if err := g.SetOutEdges(learningNode(l.ID), graph.SimilarTo, edges); err != nil {
			return fmt.Errorf("similar %s: %w", l.ID, err)
		}
	}
	return nil
}

// corpus holds the TF-IDF vectors of every learning and an inverted index
// from term to the learnings that contain it. Learnings and terms are
// numbered: maps keyed by strings made recomputing every edge of 10,000
// learnings take seconds. nearest reuses its accumulator, so a corpus
// serves one goroutine.
type corpus struct {
	ids      []string       // learning number → id
	num      map[string]int // id → learning number
	vecs     [][]weight     // learning number → its terms' normalized weights
	postings [][]weight     // term → the learnings containing it, by number, with their weights
	acc      []float64
	touched  []int32
}

// weight is a term's weight in a learning; n is the term or the learning.
type weight struct {
	n int32
	w float64
}

type match struct {
	id    string
	score float64
}

// newCorpus builds the corpus of every learning of idx, from the stored
// term frequencies of its file (by file name) where there are, else from
// the learning itself.
func newCorpus(idx *learningIndex, stored map[string]string) *corpus {
	c := &corpus{ids: idx.ids, num: make(map[string]int, len(idx.ids)), vecs: make([][]weight, len(idx.ids)), acc: make([]float64, len(idx.ids))}
	term := map[string]int32{}
	var df []int
	for i, id := range idx.ids {
		c.num[id] = i
		var v []weight
		add := func(t string, f float64) {
			n, ok := term[t]
			if !ok {
				n = int32(len(df))
				term[t] = n
				df = append(df, 0)
			}
			df[n]++
			v = append(v, weight{n, f})
		}
		z := idx.byID[id]
		if enc, ok := stored[path.Base(z.Path)]; !ok || !eachTerm(enc, add) {
			for t, f := range termFreqs(z.get()) {
				add(t, f)
			}
		}
		c.vecs[i] = v
	}
	c.postings = make([][]weight, len(df))
	total := float64(len(idx.ids))
	for i, v := range c.vecs {
		norm := 0.0
		for j, tw := range v {
			x := (1 + math.Log(tw.w)) * math.Log(1+total/float64(df[tw.n]))
			v[j].w = x
			norm += x * x
		}
		if norm > 0 {
			norm = math.Sqrt(norm)
			for j := range v {
				v[j].w /= norm
			}
		}
		for _, tw := range v {
			c.postings[tw.n] = append(c.postings[tw.n], weight{int32(i), tw.w})
		}
	}
	return c
}

// nearest returns up to k learnings whose cosine with id is at least floor,
// best first (ties by id).
func (c *corpus) nearest(id string, k int, floor float64) []match {
	d, ok := c.num[id]
	if !ok {
		return nil
	}
	// Terms in more than a tenth of a large corpus weigh little (low IDF)
	// but would make every comparison visit most learnings: skipping them
	// keeps a full recomputation near-linear (10,000 learnings took a
	// minute with them).
	common := max(50, len(c.ids)/10)
	for _, tw := range c.vecs[d] {
		ps := c.postings[tw.n]
		if len(ps) > common {
			continue
		}
		for _, p := range ps {
			if int(p.n) == d {
				continue
			}
			if c.acc[p.n] == 0 {
				c.touched = append(c.touched, p.n)
			}
			c.acc[p.n] += tw.w * p.w
		}
	}
	var out []match
	for _, o := range c.touched {
		s := math.Round(c.acc[o]*1000) / 1000
		c.acc[o] = 0
		if s >= floor {
			out = append(out, match{c.ids[o], math.Min(s, 1)})
		}
	}
	c.touched = c.touched[:0]
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// similarityText is everything of a learning that termFreqs reads, so
// that a sync recomputes similarity only when it changed.
func similarityText(l *learnfile.Learning) string {
	var b strings.Builder
	b.WriteString(l.Title)
	for _, t := range l.Tags {
		b.WriteString("\x00" + t)
	}
	b.WriteString("\x00\x00" + l.Body)
	for _, a := range l.Anchors {
		b.WriteString("\x00" + a.Path() + "\x00" + a.Glob + "\x00" + a.FQName())
	}
	return b.String()
}

// termFreqs counts the terms of a learning: title and tags count twice,
// the body once, anchor locations (path segments, file names and symbol
// names) once. similarityText must name everything it reads.
func termFreqs(l *learnfile.Learning) map[string]float64 {
	tf := map[string]float64{}
	add := func(text string, w float64) {
		for _, t := range terms(text) {
			tf[t] += w
		}
	}
	add(l.Title, 2)
	for _, t := range l.Tags {
		add(t, 2)
	}
	add(l.Body, 1)
	for _, a := range l.Anchors {
		p := a.Path()
		if p == "" {
			p = a.Glob
		}
		add(strings.ReplaceAll(p, "/", " "), 1)
		base := path.Base(p)
		add(strings.TrimSuffix(base, path.Ext(base)), 1)
		if fq := a.FQName(); fq != "" {
			add(strings.ReplaceAll(fq, "::", " "), 1)
		}
	}
	return tf
}

// terms splits text into lower-case words of two or more letters or
// digits, splitting camelCase and snake_case too and keeping the whole
// identifier, without common English words.
func terms(text string) []string {
	var out []string
	for _, word := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		parts := splitIdent(word)
		if len(parts) > 1 {
			parts = append(parts, strings.ReplaceAll(word, "_", ""))
		}
		for _, p := range parts {
			p = strings.ToLower(p)
			if len(p) < 2 || stopword(p) || isNumber(p) {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}

// splitIdent splits validateToken, HTTPServer and max_retries into words.
func splitIdent(s string) []string {
	var out []string
	rs := []rune(s)
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, string(rs[start:end]))
		}
		start = end
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '_' {
			flush(i)
			start = i + 1
			continue
		}
		if i > start && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
			}
		}
	}
	flush(len(rs))
	return out
}

func isNumber(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func stopword(w string) bool {
	switch w {
	case "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for",
		"from", "has", "have", "if", "in", "into", "is", "it", "its", "not", "of", "on", "or",
		"so", "than", "that", "the", "then", "there", "these", "this", "to", "was", "we", "were",
		"when", "which", "while", "will", "with", "you", "must", "should", "only", "all", "any",
		"no", "our", "out", "up", "use", "used", "uses":
		return true
	}
	return false
}
