package anchors

import (
	"context"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// A name fixed for its spelling (mockito's
// shouldGiveExplantionOnStaticMocking… became
// shouldGiveExplanationOnStaticMocking…) is the same name to a reader,
// whatever else the change did to the body: the test was rewritten in
// the same commit, and a sibling test as like it, also respelled, was a
// rival by its body. lore reads such a rename in the symbol's own type
// from the names: written alike, or a letter apart in a long enough
// word (see respelling), a callable's parameters the same, and neither
// name as close to another one that appeared or vanished there.

// respelledLike is the least body likeness a respelled symbol keeps:
// under it the name alone would speak, and a name is not a body.
const respelledLike = 0.4

// respelled reports whether s (of cf) is o's symbol under its name
// respelled, where it was: new in o's type (see newInItsPlace), its
// name the old one respelled (see respelling), a callable's parameters
// the same, and no other new symbol of the type, nor another vanished
// one, as close.
func (v *Verifier) respelled(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	if !respelling(o.name, s.Name) || !distinctive(o.name) && spelling(o.name) != spelling(s.Name) || !v.newInItsPlace(ctx, o, cf, s) {
		return false // a short name a letter apart is another word; in another case it is the same (teardown, tearDown)
	}
	if callableKind(s.Kind) && selectorOf(o.file, o.sym) != selectorOf(cf, s) {
		return false // parseValue(String) and parseValues(Reader): another function
	}
	_, sfq, _ := cutFQ(s.FQName)
	for _, x := range cf.Symbols {
		if _, xfq, _ := cutFQ(x.FQName); x.Name != s.Name && x.Name != o.name && outerName(xfq) == o.outer && respelling(o.name, x.Name) && !v.hadName(ctx, cf, x) {
			return false // two new names as close: a reader cannot tell
		}
	}
	for _, x := range v.vanished(ctx, o.file.Path) {
		if _, xfq, _ := cutFQ(x.FQName); x.Name != o.name && outerName(xfq) == outerName(sfq) && respelling(x.Name, s.Name) {
			return false // another vanished name as close to the new one
		}
	}
	return true
}

// respelling reports whether name b is name a written otherwise: the
// same letters but for case and separators (get_url, getURL, getUrl), or
// the same words but one (two in names of 16 letters or more), each of
// five letters or more, with a letter added, dropped or changed, or two
// neighbours swapped: Explantion, Explanation. Digits stay the same
// (test1, test2), and no word is made plural or singular (getValue,
// getValues); short words are words of their own (get, set; Async,
// Sync), and two letters make another word (enable, disable).
func respelling(a, b string) bool {
	if a == b {
		return false
	}
	x, y := spelling(a), spelling(b)
	if x == y {
		return true
	}
	if digits(x) != digits(y) {
		return false
	}
	wa, wb := words(a), words(b)
	if len(wa) != len(wb) {
		return false
	}
	most := 1
	if min(len(x), len(y)) >= 16 {
		most = 2
	}
	changed := 0
	for i := range wa {
		u, w := wa[i], wb[i]
		if u == w {
			continue
		}
		if len(u) < 5 || len(w) < 5 || u+"s" == w || w+"s" == u || editDistance(u, w, 1) > 1 {
			return false
		}
		changed++
	}
	return changed <= most
}

// spelling is a name's letters and digits, in lower case.
func spelling(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		case r == '_' || r == '$' || r == '-':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// digits is the digits of s, in order.
func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// editDistance is the optimal string alignment distance of a and b
// (insertions, deletions, substitutions and swaps of two neighbours),
// or limit+1 once it must exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			low = min(low, d)
		}
		if low > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
