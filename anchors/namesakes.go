package anchors

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// A method rewritten as it was renamed keeps too little of its code for
// any likeness to find it (jbpm 3815f293ba: queryNodeInstanceLogs became
// a generic queryLogs; commons-io 59129bcf28: freeSpaceOS became
// getFreeSpace). A reviewer looking for where it went reads the names of
// what is new beside it. Such a symbol is offered, never followed: a
// name without the code is a hint.

// maxNamesakes is how many namesakes are offered at most.
const maxNamesakes = 2

// namesakeLike is how alike by their words (see nameSimilarity, plurals
// folded) the old name and a namesake's must be.
const namesakeLike = 0.4

// listNamesakes adds to the candidates of r, with history and while
// they are fewer than three, the symbols new in f (the anchored file now)
// in the anchored symbol's type, of a compatible kind, whose names are
// like its old one (see namesake), most alike first.
func (v *Verifier) listNamesakes(ctx context.Context, a Anchor, o origin, f *File, r *Result) {
	if !o.known() || f == nil || len(r.Candidates) >= 3 {
		return
	}
	type found struct {
		c    candidate
		like float64
	}
	var all []found
	for _, s := range f.Symbols {
		_, fq, _ := cutFQ(s.FQName)
		if !kindsCompatible(a.Kind, s.Kind) || outerName(fq) != o.outer || listedAt(r, f, s) {
			continue
		}
		like, ok := namesake(o.name, s.Name, o.outer)
		if !ok || v.hadName(ctx, f, s) {
			continue
		}
		c, _ := v.score(ctx, o, f, s, nil)
		all = append(all, found{c, like})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].like > all[j].like })
	for i, x := range all {
		if i == maxNamesakes || len(r.Candidates) >= 3 {
			break
		}
		v.listWith(a, o, x.c, "; new in its type, its name like the old one", r)
	}
}

// listedAt reports whether the candidates of r hold symbol s of f.
func listedAt(r *Result, f *File, s analyzer.Symbol) bool {
	at := symLocation(f, s)
	for _, c := range r.Candidates {
		if c.Location.FQName == at.FQName && c.Location.Lines == at.Lines {
			return true
		}
	}
	return false
}

// namesake reports whether name now is like old: alike by their words
// (plurals folded) at least namesakeLike, sharing a word of four letters
// or more that the enclosing type's name does not hold (FooTest's test
// methods all say test). It returns their likeness.
func namesake(old, now, outer string) (float64, bool) {
	ow, nw := foldedWords(old), foldedWords(now)
	like := bagSimilarity(ow, nw)
	if like < namesakeLike || old == now {
		return like, false
	}
	typeWords := foldedWords(lastName(outer))
	for _, w := range ow {
		if len(w) >= 4 && slices.Contains(nw, w) && !slices.Contains(typeWords, w) {
			return like, true
		}
	}
	return like, false
}

// foldedWords returns the words of an identifier (see words), a plural's
// trailing s dropped from words of five letters or more.
func foldedWords(name string) []string {
	ws := words(name)
	for i, w := range ws {
		if len(w) >= 5 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			ws[i] = w[:len(w)-1]
		}
	}
	return ws
}
