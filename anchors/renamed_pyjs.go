package anchors

import (
	"context"

	"github.com/lorehq/lore/analyzer"
)

// Python and JavaScript callables renamed in place while their body
// changed much keep too little of it for the body alone to speak. A
// reviewer still reads them as renamed when the change says so beside the
// body, in one of three ways (with history only):
//
//   - the body was rewritten, and the two are each other's only match
//     among what vanished from the type (or module) and what appeared in
//     it, their names sharing their main words (test_filter_with_select
//     became test_filter_with_selector, the helper it called inlined in
//     it: see rewrittenInPlace, which reads Java this way);
//   - the same rename happened in a super or subtype in the same change
//     (BaseDistribution.is_event and its override Distribution.is_event
//     both became has_event): two places give the same old and new
//     names, which says more than a stub's body can;
//   - a new callable of the type takes its place with its parameters,
//     the uses of the old name in its file now call it, and nothing else
//     that vanished went into it (specialized_doctest became
//     custom_doctest, which hands the work to a function elsewhere).

// toldRenamePyJS reports whether candidate c (scored so far) is o's
// Python or JavaScript callable renamed in its own type or module, as the
// change says beside the body (see above). It marks c named when the
// change names it outright (the rename repeated in the hierarchy, or the
// uses redirected to it): then a rival elsewhere that holds more of the
// old body is where part of it went, not a reason to doubt.
func (v *Verifier) toldRenamePyJS(ctx context.Context, o origin, c *candidate) bool {
	cf, s := c.file, c.sym
	if !pyjsLang(cf.Lang) || c.likeness() < rewrittenLike || !v.renamedInItsPlace(ctx, o, cf, s) {
		return false
	}
	if v.renamedInHierarchy(ctx, o, cf, s) || v.redirectedSuccessor(ctx, o, cf, s) {
		c.named = true
		return true
	}
	return v.rewrittenPyJS(ctx, o, cf, s, c.sim, c.kept, c.keptKnown)
}

// rewrittenPyJS is rewrittenInPlace for Python and JavaScript, in a type
// or at the top of a module: names sharing their main words, one more
// sign (a name all but the same, the diff keeping lines there, or the
// same parameters), and each other's only match (see onlyPair, where a
// helper the old code called and that vanished with it was inlined, not
// renamed).
func (v *Verifier) rewrittenPyJS(ctx context.Context, o origin, cf *File, s analyzer.Symbol, sim, kept float64, keptKnown bool) bool {
	names := nameSimilarity(o.name, s.Name)
	if sim < rewrittenLike || names < 0.5 || tinyPair(o, v.symbolTokens(cf, s)) {
		return false
	}
	return renameSigns(o, cf, s, names, kept, keptKnown) > 0 && v.onlyPair(ctx, o, cf, s, sim)
}

// renameSigns counts what says that s (of cf) is o's callable renamed in
// place beside its body: a name all but the same (names: how alike the
// two are), the diff of the file keeping its lines there (kept), the
// same parameters (Python's self or cls aside: a method of none says
// nothing by them).
func renameSigns(o origin, cf *File, s analyzer.Symbol, names, kept float64, keptKnown bool) int {
	signs := 0
	if names >= 0.75 {
		signs++
	}
	if keptKnown && kept >= 0.3 {
		signs++
	}
	if ps, ok := params(o.file, o.sym); ok && len(ownParams(o.file.Lang, ps)) > 0 && selectorOf(o.file, o.sym) == selectorOf(cf, s) {
		signs++
	}
	return signs
}

// ownParams drops Python's self or cls from a parameter list.
func ownParams(lang string, ps []string) []string {
	if lang == "python" && len(ps) > 0 && (ps[0] == "self" || ps[0] == "cls") {
		return ps[1:]
	}
	return ps
}

// inlinedInto reports whether vanished symbol d (of o's Base file) was a
// helper o's old code called, in Python or JavaScript: gone with the
// change, its code went into what o became, which makes it no rival of o.
func inlinedInto(o origin, d analyzer.Symbol) bool {
	return pyjsLang(o.file.Lang) && calledHelper(o, d)
}

// calledHelper reports whether d, another callable, is one o's old code
// called.
func calledHelper(o origin, d analyzer.Symbol) bool {
	return callableKind(d.Kind) && d.Name != o.name && calls(o.toks, d.Name)
}

// redirectedSuccessor reports whether s is o's successor in place (see
// successor: new in its type, the same parameters) and the file o's
// symbol left now calls s where it called o (see redirected), and o
// alone went into s (see mergedToo).
func (v *Verifier) redirectedSuccessor(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	x, ok := successor(o.file, o.sym, cf)
	if !ok || x.StartLine != s.StartLine || x.FQName != s.FQName {
		return false
	}
	var before []string
	return v.redirected(ctx, o, candidate{sym: s, file: cf}, &before) && !v.mergedToo(ctx, o, cf, s)
}

// mergedToo reports another callable that vanished from o's file, was
// called there beside o, is called there no more, and whose code is like
// s's: several were merged into s (getBoxWidth and getBoxHeight became
// getBoxSize; calculateBarBase and calculateBarY became
// calculateBarValuePixels), which no single anchor follows. A helper
// only o called went with o (see inlinedInto).
func (v *Verifier) mergedToo(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	f := v.fileOrNil(ctx, o.a.Path())
	if f == nil {
		return false
	}
	skipStart, skipEnd := 0, -1
	if s.Path == f.Path {
		skipStart, skipEnd = s.StartLine, s.EndLine
	}
	var now []string // f's tokens outside s, read once
	sToks := normalize(v.symbolTokens(cf, s), s.Name, o.outer)
	for _, d := range v.vanished(ctx, o.sym.Path) {
		if d.StartLine == o.sym.StartLine || d.Name == o.name || !callableKind(d.Kind) {
			continue
		}
		if countOf(outsideTokens(o.file, d.StartLine, d.EndLine), d.Name) <= countOf(o.toks, d.Name) {
			continue // called nowhere but in o
		}
		if now == nil {
			now = outsideTokens(f, skipStart, skipEnd)
		}
		if countOf(now, d.Name) > 0 {
			continue
		}
		if similarity(normalize(v.symbolTokens(o.file, d), d.Name, o.outer), sToks) >= rewrittenLike {
			return true
		}
	}
	return false
}
