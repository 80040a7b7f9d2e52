package anchors

import (
	"context"

	"github.com/lorehq/lore/analyzer"
)

// Siblings renamed together in one change: a test class rewritten so
// that fieldsAreProperlyClosed became
// fieldsAreProperlyClosedWithInstancePerMethodTestClass while its sibling
// instancePerClass became fieldsAreProperlyClosedWithInstancePerClassTestClass
// (junit5 89a0201073). Each old method is like both new ones, so each
// sees the other's new name as a close rival, and the diff of the file,
// which keeps half of instancePerClass's lines in the wrong one, even
// puts that one first. A reviewer pairs what vanished with what appeared
// over the whole change, reading the bodies and the names: the pairing
// both favour, or one favours clearly and the other does not oppose,
// decides; when they oppose each other, nobody can tell. markClaims
// weighs one vanished symbol against one candidate; this weighs two
// pairs at once.

// pairScan bounds how many vanished symbols of a file markPairs weighs: a
// file rewritten wholesale pairs nothing.
const pairScan = 40

// pairLike is the least body likeness a vanished symbol must have to the
// candidate it takes for the pairing to count: it must be renamed there,
// not merely alike.
const pairLike = 0.75

// markPairs marks as claimed the best candidate, or a close rival of it,
// that another symbol which vanished from o's file goes to when the two
// are paired as a whole (with history only). With b the best candidate
// not claimed, c a close rival and d vanished, the bodies and the names
// each vote on pairing o with b and d with c against the crossed pairing
// (see pairVote): when the votes take the straight pairing c is d's, when
// they take the crossed one b is d's and the rival is weighed again as
// the best, and when they disagree both b and c are marked doubted, so
// that neither is followed. Both pairs of a pairing must be renames: the
// crossed one needs o pairLike like c as it needs d like b (geoserver
// e78cda0fcf: the vanished setter setGdalData reads as like
// setOgrExecutable's new name as setOgrExecutable does, which does not
// send setOgrExecutable to an interface's declaration of that name, 61%
// like it). A vanished symbol went to one place: once a pairing gives it
// a candidate, it weighs no other, nor does one renamed to another new
// symbol of its type (see home).
func (v *Verifier) markPairs(ctx context.Context, o origin, cands []candidate) {
	if !o.known() || v.opts.Base == nil || !closeRival(cands) {
		return
	}
	type other struct {
		sym      analyzer.Symbol
		fq, name string
		toks     []string // normalized
	}
	var others []other
	for _, d := range v.vanished(ctx, o.sym.Path) {
		if d.StartLine == o.sym.StartLine || !kindsCompatible(d.Kind, o.sym.Kind) || d.Name == o.name {
			continue
		}
		if v.keptItsName(ctx, d) {
			continue
		}
		if len(others) == pairScan {
			return
		}
		_, dfq, _ := cutFQ(d.FQName)
		others = append(others, other{d, dfq, d.Name, normalize(v.symbolTokens(o.file, d), d.Name, outerName(dfq))})
	}
	if len(others) == 0 {
		return
	}
	norm := map[int][]string{} // by index into cands
	like := func(d other, i int) float64 {
		now, ok := norm[i]
		if !ok {
			c := cands[i]
			_, cfq, _ := cutFQ(c.sym.FQName)
			now = normalize(v.symbolTokens(c.file, c.sym), c.sym.Name, outerName(cfq))
			norm[i] = now
		}
		if bagSimilarity(d.toks, now) < pairLike {
			return 0 // cannot be like enough: spare the exact measure
		}
		return similarity(d.toks, now)
	}
	// elsewhere reports whether d went to a new symbol of its own type
	// other than b and c (see home), found once per d.
	now := v.fileOrNil(ctx, o.sym.Path)
	type place struct {
		sym  *analyzer.Symbol
		like float64
	}
	homes := map[string]place{}
	elsewhere := func(d other, b, c analyzer.Symbol, db, dc float64) bool {
		h, ok := homes[d.fq]
		if !ok {
			h.sym, h.like = v.home(ctx, now, outerName(d.fq), d.toks)
			homes[d.fq] = h
		}
		return h.sym != nil && !sameSymbol(*h.sym, b) && !sameSymbol(*h.sym, c) && h.like > max(db, dc) &&
			nameSimilarity(d.name, h.sym.Name) >= max(nameSimilarity(d.name, b.Name), nameSimilarity(d.name, c.Name))
	}
	// The vanished symbols a pairing gave a candidate: weighed again
	// against the next rival, one not like that rival at all would take
	// the best too (paired with the best against each rival in turn, it
	// claims them one by one and leaves o the last).
	paired := map[string]bool{}
	for round := 0; round < 3; round++ {
		best := -1
		for i, c := range cands {
			if c.claimedBy == "" {
				best = i
				break
			}
		}
		if best < 0 || cands[best].sameBody || !cands[best].simKnown {
			return
		}
		b := &cands[best]
		again := false
		for i := range cands {
			c := &cands[i]
			if i == best || c.claimedBy != "" || c.sameBody || !c.simKnown || c.sketched {
				continue
			}
			if c.score < b.score-closeGap {
				break
			}
			for _, d := range others {
				if paired[d.fq] {
					continue
				}
				db, dc := like(d, best), like(d, i)
				if db < pairLike && dc < pairLike {
					continue // d is like neither: no pairing to weigh
				}
				if elsewhere(d, b.sym, c.sym, db, dc) {
					continue // d went to a new name of its own type: see home
				}
				body := b.sim + dc - c.sim - db
				names := nameSimilarity(o.name, b.sym.Name) + nameSimilarity(d.name, c.sym.Name) -
					nameSimilarity(o.name, c.sym.Name) - nameSimilarity(d.name, b.sym.Name)
				switch pairVote(body, names) {
				case pairStraight:
					if dc >= pairLike {
						c.claimedBy, paired[d.fq] = d.fq, true
					}
				case pairCrossed:
					if db >= pairLike && c.sim >= pairLike && !v.keptFrom(ctx, o, *b, d.sym) {
						b.claimedBy, paired[d.fq] = d.fq, true
						again = true
					}
				case pairDoubt:
					b.doubted, c.doubted = true, true
					return
				}
				if c.claimedBy != "" || again {
					break
				}
			}
			if again {
				break
			}
		}
		if !again {
			return
		}
	}
}

// The votes of pairVote.
const (
	pairNone     = iota // no pairing clear enough: the scores decide
	pairStraight        // o with b, d with c
	pairCrossed         // o with c, d with b
	pairDoubt           // the bodies take one pairing, the names the other
)

// pairVote weighs two siblings renamed together as a reviewer does, the
// bodies and the names alike. body is how much better the straight
// pairing (the anchored symbol with the best candidate, the other
// vanished symbol with the rival) matches than the crossed one, summed
// over both pairs (positive: straight); names is the same over the
// words of their names (see nameSimilarity): a prefix renamed in every
// sibling (expectThrows… became assertThrows…) counts alike in both
// pairings, so the words that tell the siblings apart decide. Each
// takes a side when it leans by swapGain. A pairing is taken when
// neither takes the other side and together they lean its way by
// swapGain: bodies that clearly decide while the names say nothing, or
// names that tell the pairing between near copies whose bodies differ
// by less than that (sibling tests that differ in a type or two). When
// the bodies take one side and the names the other, nobody can tell:
// pairDoubt, and lore lists the candidates instead of guessing.
func pairVote(body, names float64) int {
	switch {
	case body >= swapGain && names <= -swapGain, body <= -swapGain && names >= swapGain:
		return pairDoubt
	case body+names >= swapGain && body > -swapGain && names > -swapGain:
		return pairStraight
	case body+names <= -swapGain && body < swapGain && names < swapGain:
		return pairCrossed
	}
	return pairNone
}

// closeRival reports whether the best candidate not claimed, known by
// its body, has a rival of the same sort within closeGap: only then can
// a pairing change anything.
func closeRival(cands []candidate) bool {
	best := -1
	for i, c := range cands {
		switch {
		case c.claimedBy != "" || c.sameBody || !c.simKnown || c.sketched:
			if best < 0 && c.claimedBy == "" {
				return false // the best is certain, or known by its sketch only
			}
		case best < 0:
			best = i
		case c.score >= cands[best].score-closeGap:
			return true
		default:
			return false
		}
	}
	return false
}

// keptItsName reports whether d, a symbol that vanished from its file,
// went where its name is: a symbol of its name and a compatible kind in a
// file the change touched, new there, with about its code (pairLike). It
// pairs with no candidate of another name (presto 364f50274d:
// getPartition and getPartitionCount, both `return field;`, were pulled
// up side by side, and each read as like the other's new place as its
// own).
func (v *Verifier) keptItsName(ctx context.Context, d analyzer.Symbol) bool {
	named, err := v.files.SymbolsNamed(ctx, d.Name)
	if err != nil {
		return false
	}
	bf, err := v.opts.Base.File(ctx, d.Path)
	if err != nil {
		return false
	}
	_, dfq, _ := cutFQ(d.FQName)
	old := normalize(v.symbolTokens(bf, d), d.Name, outerName(dfq))
	for _, x := range named {
		if !kindsCompatible(d.Kind, x.Kind) || v.settled(ctx, x.Path) {
			continue
		}
		xf := v.fileOrNil(ctx, x.Path)
		if xf == nil || v.hadName(ctx, xf, x) {
			continue
		}
		_, xfq, _ := cutFQ(x.FQName)
		if similarity(old, normalize(v.symbolTokens(xf, x), x.Name, outerName(xfq))) >= pairLike {
			return true
		}
	}
	return false
}

// home returns the callable new in type outer of cf (o's file as it is
// now) most like old, the normalized tokens of a vanished symbol of that
// type, and how like it is; nil when none is pairLike. A sibling that was
// renamed in its own type, to a name as like its own as the candidates'
// and a body more like it, weighs in no other pairing: spring-boot
// 9411a4ce99 renamed extractLibrariesAndCreatesRunner to
// extractLibrariesAndCreatesApplication in each of two nested test
// classes, and the one of the other class, as like the anchored
// sibling's new name by its body, read as a reason to doubt it.
func (v *Verifier) home(ctx context.Context, cf *File, outer string, old []string) (*analyzer.Symbol, float64) {
	if cf == nil {
		return nil, 0
	}
	var best *analyzer.Symbol
	bestLike := 0.0
	for _, x := range v.newCallables(ctx, cf, outer) {
		now := normalize(v.symbolTokens(cf, x), x.Name, outer)
		if bagSimilarity(old, now) < pairLike {
			continue
		}
		if like := similarity(old, now); like >= pairLike && like > bestLike {
			best, bestLike = &x, like
		}
	}
	return best, bestLike
}

// sameSymbol reports whether x and y are one declaration.
func sameSymbol(x, y analyzer.Symbol) bool {
	return x.Path == y.Path && x.StartLine == y.StartLine && x.FQName == y.FQName
}
