package anchors

import "context"

// A word renamed across a type's names: spring-boot 9411a4ce99 made
// every "runner" of ExtractCommandTests' test names "application"
// (extractLibrariesAndCreatesRunner became
// extractLibrariesAndCreatesApplication, runnerContainsManifestEntries
// applicationContainsManifestEntries), and junit4 627b85abfd every
// "expect" of AssertionTest's "assert". Sibling tests are near copies,
// so a renamed test's body can be as like a sibling's new name as its
// own; a reviewer reads the rename the whole change applied, word for
// word, and takes the name it gives. lore does so when the same word
// swap turns at least swapSupport other names that vanished from the
// type into names new in it.

// swapSupport is how many other vanished names of the type a word swap
// must turn into new ones to count as the change's rename.
const swapSupport = 2

// swapLike is the least body likeness the name the swap gives must have:
// the name says where the symbol went, the body must agree.
const swapLike = 0.75

// swappedName returns the name new in o's type that o's name becomes
// under a word swap the change applied to at least swapSupport other
// names of the type (see above); "" when there is none, or more than
// one. With history only.
func (v *Verifier) swappedName(ctx context.Context, o origin) string {
	if !o.known() || v.opts.Base == nil || !callableKind(o.sym.Kind) {
		return ""
	}
	cf := v.fileOrNil(ctx, o.sym.Path)
	if cf == nil {
		return ""
	}
	var news [][]string
	var names []string
	for _, x := range v.newCallables(ctx, cf, o.outer) {
		news = append(news, words(x.Name))
		names = append(names, x.Name)
	}
	if len(news) == 0 {
		return ""
	}
	support := map[[2]string]int{}
	for _, d := range v.vanishedCallables(ctx, o.sym.Path, o.outer) {
		if d.StartLine == o.sym.StartLine || d.Name == o.name {
			continue
		}
		dw := words(d.Name)
		seen := map[[2]string]bool{}
		for _, nw := range news {
			if k, ok := swap(dw, nw); ok && !seen[k] {
				seen[k] = true
				support[k]++
			}
		}
	}
	ow := words(o.name)
	found := ""
	for i, nw := range news {
		if k, ok := swap(ow, nw); ok && support[k] >= swapSupport {
			if found != "" && found != names[i] {
				return "" // two names the change's swaps give: nobody can tell
			}
			found = names[i]
		}
	}
	return found
}

// swap reports the one word a and b differ by, in the same place (old
// word, new word), when they differ by exactly one.
func swap(a, b []string) ([2]string, bool) {
	if len(a) != len(b) || len(a) < 2 {
		return [2]string{}, false
	}
	at := -1
	for i := range a {
		if a[i] != b[i] {
			if at >= 0 {
				return [2]string{}, false
			}
			at = i
		}
	}
	if at < 0 {
		return [2]string{}, false
	}
	return [2]string{a[at], b[at]}, true
}

// swapNamed reports whether c is the symbol of o's type (in o's file)
// named swapped, the name the change's word swap gives o (see
// swappedName).
func swapNamed(o origin, c candidate, swapped string) bool {
	if swapped == "" || c.sym.Name != swapped || c.sym.Path != o.sym.Path {
		return false
	}
	_, fq, _ := cutFQ(c.sym.FQName)
	return outerName(fq) == o.outer
}

// swapKeeper returns the candidate to weigh as the best: the one named
// by the change's word swap (see swapNamed) when it is like enough and
// close to the best, else best.
func swapKeeper(o origin, cands []candidate, best int, swapped string) int {
	if swapped == "" || swapNamed(o, cands[best], swapped) {
		return best
	}
	for i, c := range cands {
		if c.claimedBy == "" && swapNamed(o, c, swapped) && c.likeness() >= swapLike && c.score >= cands[best].score-closeGap {
			return i
		}
	}
	return best
}
