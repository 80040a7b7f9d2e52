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
// what is new beside it, then elsewhere in the change (neo4j 021d17c823:
// EntityReadOperations.nodeHasLabel became NodeItem.hasLabel). Such a
// symbol is offered, never followed: a name without the code is a hint.

// maxNamesakes is how many namesakes are offered at most.
const maxNamesakes = 2

// namesakeLike is how alike by their words (see nameSimilarity, plurals
// folded) the old name and a namesake's in the anchored symbol's type
// must be; farNamesakeLike, one's in another type or file.
const (
	namesakeLike    = 0.4
	farNamesakeLike = 0.5
)

// copyFound is the confidence of a candidate that holds the old code or
// nearly: beside one, names are no further hint.
const copyFound = 0.95

// listNamesakes adds to the candidates of r, with history and while
// they are fewer than three, symbols new in the change, of a compatible
// kind, whose names are like the anchored one's old name (see namesake):
// first those in its type in its file, then those elsewhere in the file,
// then those in the other files the change touched (production code
// only for a production anchor), most alike first within each.
func (v *Verifier) listNamesakes(ctx context.Context, a Anchor, o origin, f *File, r *Result) {
	if !o.known() || len(r.Candidates) >= 3 {
		return
	}
	for _, c := range r.Candidates {
		if c.Confidence >= copyFound {
			return // the code is there: which copy, not which name, is the question
		}
	}
	type found struct {
		file *File
		sym  analyzer.Symbol
		far  int // 0: in its type, 1: in its file, 2: elsewhere
		like float64
	}
	var all []found
	common := commonWords(o.file, o.outer)
	consider := func(cf *File, s analyzer.Symbol) {
		_, fq, _ := cutFQ(s.FQName)
		far := 0
		switch {
		case cf.Path != a.Path():
			far = 2
		case outerName(fq) != o.outer:
			far = 1
		}
		if !kindsCompatible(a.Kind, s.Kind) || far == 2 && isTestPath(s.Path) && !o.test || listedAt(r, symLocation(cf, s)) >= 0 {
			return
		}
		like, ok := namesake(o.name, s.Name, common)
		if !ok || far > 0 && like < farNamesakeLike || far < 2 && !v.isNew(ctx, cf, s) {
			return
		}
		all = append(all, found{cf, s, far, like})
	}
	if f != nil {
		for _, s := range f.Symbols {
			consider(f, s)
		}
	}
	for _, x := range v.arrivals(ctx) {
		if x.file.Path != a.Path() {
			consider(x.file, x.sym)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].far != all[j].far {
			return all[i].far < all[j].far
		}
		return all[i].like > all[j].like
	})
	for i, x := range all {
		if i == maxNamesakes || len(r.Candidates) >= 3 {
			break
		}
		c, _ := v.score(ctx, o, x.file, x.sym, nil)
		v.listWith(a, o, c, "; new in the change, its name like the old one", r)
	}
}

// arrival is a symbol new in the change (see arrivals).
type arrival struct {
	file *File
	sym  analyzer.Symbol
}

// arrivals lists the symbols new in the files the change touched (see
// isNew), read once per run.
func (v *Verifier) arrivals(ctx context.Context) []arrival {
	if x, ok := v.newcomers.Load(""); ok {
		return x.([]arrival)
	}
	var out []arrival
	for _, p := range v.changeOf(ctx).files {
		cf := v.fileOrNil(ctx, p)
		if cf == nil {
			continue
		}
		for _, s := range cf.Symbols {
			if v.isNew(ctx, cf, s) {
				out = append(out, arrival{cf, s})
			}
		}
	}
	v.newcomers.Store("", out)
	return out
}

// isNew reports whether symbol s of cf is new in the change: its name
// was not in Base, in its file or in the file git renamed to it.
func (v *Verifier) isNew(ctx context.Context, cf *File, s analyzer.Symbol) bool {
	if v.hadName(ctx, cf, s) {
		return false
	}
	from := v.movesOf(ctx).from[cf.Path]
	if from == "" {
		return true
	}
	bf, err := v.opts.Base.File(ctx, from)
	return err != nil || len(sameNamed(bf, from+s.FQName[len(cf.Path):])) == 0
}

// likeNamed reports whether candidate b's name is like o's old one (see
// namesake).
func likeNamed(o origin, b candidate) bool {
	_, ok := namesake(o.name, b.sym.Name, commonWords(o.file, o.outer))
	return ok
}

// listedAt returns the index of the candidate of r at location at, -1
// when none is there.
func listedAt(r *Result, at *Location) int {
	return slices.IndexFunc(r.Candidates, func(c Candidate) bool {
		return c.Location.FQName == at.FQName && c.Location.Lines == at.Lines
	})
}

// namesake reports whether name now is like old: alike by their words
// (plurals folded) at least namesakeLike, sharing a word of four letters
// or more that is not common (in old's type, see commonWords: the tests
// of FooTest all say test). It returns their likeness.
func namesake(old, now string, common map[string]bool) (float64, bool) {
	ow, nw := foldedWords(old), foldedWords(now)
	like := bagSimilarity(ow, nw)
	if like < namesakeLike || old == now {
		return like, false
	}
	for _, w := range ow {
		if len(w) >= 4 && slices.Contains(nw, w) && !common[w] {
			return like, true
		}
	}
	return like, false
}

// commonWords returns the words (see foldedWords) of more than half of
// the names of f's symbols directly in outer, its top level when "";
// none below three names, too few to say what is common.
func commonWords(f *File, outer string) map[string]bool {
	count, n := map[string]int{}, 0
	for _, s := range f.Symbols {
		if _, fq, _ := cutFQ(s.FQName); outerName(fq) != outer {
			continue
		}
		n++
		seen := map[string]bool{}
		for _, w := range foldedWords(s.Name) {
			if !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	out := map[string]bool{}
	if n < 3 {
		return out
	}
	for w, k := range count {
		if 2*k > n {
			out[w] = true
		}
	}
	return out
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
