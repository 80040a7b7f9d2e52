package rank

import (
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
	similarMax       = 10 // edges kept per learning
)

// SimilarLearning is a learning similar to another one.
type SimilarLearning struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Tags  []string `json:"tags"`
	Score float64  `json:"score"` // cosine similarity in (0, 1]
}

// Similar returns the learnings most similar to learning id, best first,
// from the SIMILAR_TO edges the store keeps; limit 0 means all of them.
func Similar(st *graph.Store, v View, id string, limit int) ([]SimilarLearning, error) {
	if limit < 0 {
		return nil, errors.New("similar: limit must not be negative")
	}
	out := []SimilarLearning{}
	es, err := st.Edges(learningNode(id), graph.Both, graph.Filter{Types: []graph.EdgeType{graph.SimilarTo}})
	if err != nil && !errors.Is(err, graph.ErrNotFound) {
		return nil, fmt.Errorf("similar: %w", err)
	}
	for _, e := range es {
		other := learningOf(e.To)
		if other == id {
			other = learningOf(e.From)
		}
		o := v.Learning(other)
		if o == nil {
			continue
		}
		tags := o.Tags
		if tags == nil {
			tags = []string{}
		}
		out = append(out, SimilarLearning{ID: o.ID, Title: o.Title, Tags: tags, Score: e.Weight})
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

// Corpus holds the TF-IDF vectors of every learning and an inverted index
// from term to the learnings that contain it. Learnings and terms are
// numbered: maps keyed by strings made recomputing every edge of a large
// workspace slow. Nearest reuses its accumulator, so a Corpus serves one
// goroutine.
type Corpus struct {
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

// Neighbor is a learning near another one, with their cosine similarity.
type Neighbor struct {
	ID    string
	Score float64
}

// NewCorpus builds the corpus of the learnings ids (sorted), whose term
// frequencies terms gives to add, as TermFreqs counts them.
func NewCorpus(ids []string, terms func(id string, add func(term string, f float64))) *Corpus {
	c := &Corpus{ids: ids, num: make(map[string]int, len(ids)), vecs: make([][]weight, len(ids)), acc: make([]float64, len(ids))}
	term := map[string]int32{}
	var df []int
	for i, id := range ids {
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
		terms(id, add)
		c.vecs[i] = v
	}
	c.postings = make([][]weight, len(df))
	total := float64(len(ids))
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

// Nearest returns the learnings most similar to id, best first (ties by
// id): the few above the threshold that makes them a SIMILAR_TO edge.
func (c *Corpus) Nearest(id string) []Neighbor {
	k, floor := similarMax, similarThreshold
	d, ok := c.num[id]
	if !ok {
		return nil
	}
	// Terms in more than a tenth of a large corpus weigh little (low IDF)
	// but would make every comparison visit most learnings: skipping them
	// keeps a full recomputation near-linear.
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
	var out []Neighbor
	for _, o := range c.touched {
		s := math.Round(c.acc[o]*1000) / 1000
		c.acc[o] = 0
		if s >= floor {
			out = append(out, Neighbor{c.ids[o], math.Min(s, 1)})
		}
	}
	c.touched = c.touched[:0]
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// SimilarityText is everything of a learning that TermFreqs reads, so
// that a sync recomputes similarity only when it changed.
func SimilarityText(l *learnfile.Learning) string {
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

// TermFreqs counts the terms of a learning: title and tags count twice,
// the body once, anchor locations (path segments, file names and symbol
// names) once. SimilarityText must name everything it reads.
func TermFreqs(l *learnfile.Learning) map[string]float64 {
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
