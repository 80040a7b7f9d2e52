package anchors

import (
	"context"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// Java methods renamed while their body was rewritten keep too little of
// it for the body alone to speak (validateNonOverlappingAndReturnSortedRanges
// became validateAndSortRanges, taking a new parameter, its loop replaced
// by a stream). A reviewer reads such a change from several things
// together: the method that vanished from a type and the one that appeared
// in it pair with nothing else there, their names share their main words,
// and their signatures, or the diff of the file, agree.

// rewrittenLike is the least body likeness a rewritten rename keeps:
// under it, a new method is new code.
const rewrittenLike = 0.3

// rewrittenPairMargin is how much less like than the pair another
// vanished or new method of the type must be for the pairing to be the
// only one.
const rewrittenPairMargin = 0.05

// rewrittenInPlace reports whether s (of cf, sim like o's old code) is
// o's Java method renamed in its own type while its body was rewritten:
// new in the type, its name sharing the old one's main words, the two
// each other's best match among what vanished from the type and what
// appeared in it, and one more sign besides (the same parameters or
// return type, the diff of the file keeping its lines there, or a name
// all but the same).
func (v *Verifier) rewrittenInPlace(ctx context.Context, o origin, cf *File, s analyzer.Symbol, sim, kept float64, keptKnown bool) bool {
	if cf.Lang != "java" || sim < rewrittenLike || o.outer == "" || !v.renamedInItsPlace(ctx, o, cf, s) {
		return false
	}
	names := nameSimilarity(o.name, s.Name)
	if names < 0.5 || tinyPair(o, v.symbolTokens(cf, s)) {
		return false
	}
	signs := renameSigns(o, cf, s, names, kept, keptKnown)
	if rt := javaReturnType(o.file, o.sym); rt != "" && rt != "void" && rt == javaReturnType(cf, s) {
		signs++
	}
	if signs == 0 {
		return false
	}
	return v.onlyPair(ctx, o, cf, s, sim)
}

// renamedInItsPlace reports whether s (of cf) could be o's callable
// renamed where it was, as the in-place rules read it: with history, a
// callable of o's kind and language under another name, in o's file (or
// the one it was renamed to) and type, whose name is new there.
func (v *Verifier) renamedInItsPlace(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	return callableKind(s.Kind) && v.newInItsPlace(ctx, o, cf, s)
}

// newInItsPlace reports whether s (of cf) could be o's symbol renamed
// where it was: with history, a symbol of o's kind and language under
// another name, in o's file (or the one it was renamed to) and type,
// whose name is new there.
func (v *Verifier) newInItsPlace(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	if !o.known() || v.opts.Base == nil || cf.Lang != o.file.Lang || s.Kind != o.sym.Kind || s.Name == o.name {
		return false
	}
	if s.Path != o.sym.Path && s.Path != o.renamedTo {
		return false
	}
	_, sfq, _ := cutFQ(s.FQName)
	return outerName(sfq) == o.outer && !v.hadName(ctx, cf, s)
}

// rewrittenScope bounds how many methods new in a type, or vanished from
// it, onlyPair weighs: a type rewritten wholesale pairs nothing.
const rewrittenScope = 40

// onlyPair reports whether o's method and s (of cf, sim like it) are each
// other's best match among the methods that vanished from the type and
// those new in it, as a reviewer pairs them: no other new method is about
// as like o's old code unless another vanished method is clearly more
// like it (its own rename: selectTwoMethodWithTwoParameters became
// selectTwoMethodsWithTwoParameters beside the rewritten
// selectOneMethodWithOneParameter), and no other vanished method is about
// as like s unless it has a new method clearly more like it. A new
// method that s calls is a helper written for it, no rival: a small body
// rewritten with guards that call new helpers keeps less of the old code
// than the helpers' bare syntax shares with it (junit5 65501fcc71:
// isMethodShadowedBy became isMethodOverriddenBy, which calls the new
// isPackagePrivate and declaredInSamePackage).
func (v *Verifier) onlyPair(ctx context.Context, o origin, cf *File, s analyzer.Symbol, sim float64) bool {
	news, olds := v.typeChanges(ctx, o, cf, s)
	old := normalize(o.toks, o.name, o.outer)
	now := normalize(v.symbolTokens(cf, s), s.Name, o.outer)
	type rival struct {
		toks []string
		like float64 // its likeness to the other side of the pair
	}
	var rivalNew, rivalOld []rival
	for _, x := range news {
		if like := similarity(old, x); like >= sim-rewrittenPairMargin {
			rivalNew = append(rivalNew, rival{x, like})
		}
	}
	for _, d := range olds {
		if like := similarity(d, now); like >= sim-rewrittenPairMargin {
			rivalOld = append(rivalOld, rival{d, like})
		}
	}
	if len(rivalNew)+len(rivalOld) > 0 && (len(news) > rewrittenScope || len(olds) > rewrittenScope) {
		return false
	}
	for _, r := range rivalNew {
		if !pairedElsewhere(r.toks, r.like, olds) {
			return false
		}
	}
	for _, r := range rivalOld {
		if !pairedElsewhere(r.toks, r.like, news) {
			return false
		}
	}
	return true
}

// typeChanges returns, normalized, the callables new in o's type of cf
// but s and the helpers s calls (written for it, no rivals), and those
// that vanished from it but o's symbol and helpers it inlined (see
// inlinedInto): what a reviewer pairs s and o against.
func (v *Verifier) typeChanges(ctx context.Context, o origin, cf *File, s analyzer.Symbol) (news, olds [][]string) {
	sToks := v.symbolTokens(cf, s)
	for _, x := range v.newCallables(ctx, cf, o.outer) {
		if x.StartLine != s.StartLine && !calls(sToks, x.Name) {
			news = append(news, normalize(v.symbolTokens(cf, x), x.Name, o.outer))
		}
	}
	for _, d := range v.vanishedCallables(ctx, o.sym.Path, o.outer) {
		if d.StartLine != o.sym.StartLine && !inlinedInto(o, d) {
			olds = append(olds, normalize(v.symbolTokens(o.file, d), d.Name, o.outer))
		}
	}
	return news, olds
}

// pairedElsewhere reports whether one of others is clearly more like x
// than mine, the likeness of o's old code (or s) to x.
func pairedElsewhere(x []string, mine float64, others [][]string) bool {
	for _, y := range others {
		if similarity(y, x) > mine+rewrittenPairMargin {
			return true
		}
	}
	return false
}

// javaReturnType reads the return type of Java method s of f: the
// tokens of its header between its modifiers (and annotations) and its
// name, each type without its package or outer type, as selectors write
// parameters (org.apache.flink.core.execution.CheckpointingMode, spelt
// out while another CheckpointingMode was imported, is CheckpointingMode
// once the import changed); "" when none can be read (a constructor).
func javaReturnType(f *File, s analyzer.Symbol) string {
	toks := headerTokens(f, s)
	at, _ := nameAt(toks, s.Name, f.Lang)
	if at <= 0 {
		return ""
	}
	head := dropAnnotations(toks[:at])
	start := 0
	for i, t := range head {
		switch t {
		case "public", "protected", "private", "static", "final", "abstract", "synchronized", "native", "default", "strictfp", ";", "}", "{":
			start = i + 1
		}
	}
	var out []string
	for i := start; i < len(head); i++ {
		if head[i] == "." || i+1 < len(head) && head[i+1] == "." && isIdent(head[i]) {
			continue // a qualifier
		}
		out = append(out, head[i])
	}
	return strings.Join(out, " ")
}

// javaTypeRenameTold reports whether a Java type moved and renamed to b
// (n tokens before, m after) says by its names what a small body cannot:
// a name all but the same (PojoMassIndexingIdentifierLoadingContext
// became PojoMassIdentifierLoadingContext, an interface of a few
// methods), or a nested type made top-level under the words of its
// enclosing type and its own (StandalonePojoEntityTypeMetadataProvider's
// EntityDefinition became StandalonePojoEntityTypeMetadata).
func javaTypeRenameTold(o origin, b candidate, n, m int) bool {
	if o.file == nil || o.file.Lang != "java" || b.file.Lang != "java" || !typeKind(o.sym.Kind) || b.sym.Kind != o.sym.Kind {
		return false
	}
	if nameSimilarity(o.name, b.sym.Name) >= 0.75 && n >= 20 && m >= 20 {
		return true
	}
	_, bfq, _ := cutFQ(b.sym.FQName)
	return o.outer != "" && outerName(bfq) == "" && n >= 40 && m >= 40 && nameSimilarity(lastName(o.outer)+o.name, b.sym.Name) >= 0.6
}

func typeKind(k string) bool {
	switch k {
	case analyzer.KindClass, analyzer.KindInterface, analyzer.KindEnum, analyzer.KindType:
		return true
	}
	return false
}

// calls reports whether toks (a callable's) call name: name followed by
// an opening parenthesis.
func calls(toks []string, name string) bool {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] == name && toks[i+1] == "(" {
			return true
		}
	}
	return false
}
