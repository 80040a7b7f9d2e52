package anchors

import (
	"context"
	"path"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/lorehq/lore/analyzer"
)

// Doubts a careful reviewer keeps where the scores alone would follow a
// candidate: the change says something besides the bodies that makes the
// move no move at all, or one of several.

// copyLike is the least likeness of a rival copy that git's pairing of
// files alone cannot outweigh.
const copyLike = 0.9

// copyTie is how close two copies' likeness must be to tell nothing, and
// copyAhead how much more like the rival must be to outweigh the rest.
const (
	copyTie   = 0.01
	copyAhead = 0.02
)

// pairedOnly reports whether rival c, new code in another file, is as
// good a place for o's code as the best candidate b but for git's
// pairing of files: b is in another file than the anchor's, the one git
// paired with it (the diff of that pairing keeps the old lines in b).
// Git pairs a deleted file with the most like of the files added, or one
// of its base name, so a file copied to two places in one change (a
// frozen copy for old indexes in lucene's backward-codecs, the next
// version in core) is paired with one of them by a few lines. A reviewer
// follows the pairing only when the rest agrees: the rival did not keep
// the old name while b lost it, is not clearly more like, is not a tie
// under the same naming, and is not in the anchor's own directory while
// b left it (lucene f8be421ae1: CompressingTermVectorsReader became
// Lucene90CompressingTermVectorsReader beside it, git paired it with
// backward-codecs' Lucene50CompressingTermVectorsReader). Otherwise
// nobody can tell which copy the anchor should follow. Without history
// the score of the sketch stands for the body.
func pairedOnly(o origin, b, c candidate) bool {
	paired := b.keptKnown || o.renamedTo != "" && b.sym.Path == o.renamedTo
	if !paired || c.keptKnown || b.sameBody || b.sym.Path == o.a.Path() || c.sym.Path == b.sym.Path || c.sym.Path == o.renamedTo {
		return false
	}
	like := func(x candidate) float64 {
		if x.sketched {
			return x.score
		}
		return x.bodyLikeness()
	}
	lb, lc := like(b), like(c)
	if lc < copyLike {
		return false
	}
	dir := path.Dir(o.a.Path())
	switch {
	case c.sameName && !b.sameName, lc > lb+copyAhead:
		return true
	case c.sameName == b.sameName && lc >= lb-copyTie:
		return true
	}
	return path.Dir(c.sym.Path) == dir && path.Dir(b.sym.Path) != dir
}

// keepsRole reports whether s, the symbol now under the anchored one's
// name in its file f (bs of Base file bf before), is its declaration
// without a body, with the same parameters: a method made abstract,
// whose implementations are now the overrides (lucene c51fee9c1a:
// DataInput.skipBytes became abstract, its old body kept as
// skipBytesSlowly for subclasses to call). The name keeps its role; the
// old body under another name is one of its implementations at most,
// not where the anchor must go.
func (v *Verifier) keepsRole(bf *File, bs analyzer.Symbol, f *File, s analyzer.Symbol) bool {
	if !callableKind(s.Kind) || !callableKind(bs.Kind) || selectorOf(bf, bs) != selectorOf(f, s) {
		return false
	}
	return v.bodiless(f, s)
}

// bodiless reports whether s (of f) is a declaration without a body: as
// the parser says (see the function bodiless: a Kotlin interface's fun
// ends without a semicolon), or by its tokens, a header ending in one.
func (v *Verifier) bodiless(f *File, s analyzer.Symbol) bool {
	if bodiless(s) {
		return true
	}
	toks := v.symbolTokens(f, s)
	return len(toks) > 0 && toks[len(toks)-1] == ";" && !slices.Contains(toks, "{")
}

// absorbedBy returns the Base symbol of another name whose code the
// best candidate b, in the anchored symbol's own file, continues: b has
// that symbol's name (its parameters changed), and the diff of the file
// keeps at least half of its lines in b. The anchored code was then
// inlined into it rather than renamed (junit5 f6e73acdbe:
// convertToTargetType went into convert, which took a new parameter):
// a candidate, not a rename. "" when none.
func (v *Verifier) absorbedBy(o origin, b candidate) string {
	if !o.known() || b.sameName || b.sameBody || b.sym.Path != o.sym.Path || !callableKind(b.sym.Kind) {
		return ""
	}
	for _, x := range sameNamed(o.file, b.sym.FQName) {
		if x.StartLine == o.sym.StartLine || v.stillThere(o.file, x, b) {
			continue
		}
		if k, ok := v.linesKept(o.file, x, b.file, b.sym); ok && k >= 0.5 {
			_, fq, _ := cutFQ(x.FQName)
			return fq + selectorOf(o.file, x)
		}
	}
	return ""
}

// stillThere reports whether Base symbol x of bf is still in b's file
// under its name and parameters, as another symbol than b.
func (v *Verifier) stillThere(bf *File, x analyzer.Symbol, b candidate) bool {
	sel := selectorOf(bf, x)
	for _, y := range sameNamed(b.file, x.FQName) {
		if y.StartLine != b.sym.StartLine && selectorOf(b.file, y) == sel {
			return true
		}
	}
	return false
}

// outlineLike is the least body likeness a moved type that keeps its
// outline (see membersKept) must have: under it, it is another type of
// the same name and methods.
const outlineLike = 0.2

// minMembers is the fewest methods a type's outline must keep to speak
// for it.
const minMembers = 3

// membersKept reports whether type s (of cf) keeps the outline of o's
// type: every method o's type declared is declared in s under its name,
// at least minMembers of them. A class moved to another module while the
// stubs it held were implemented (flink 739bd337c6: StateFutureUtils left
// flink-core-api for flink-core, each
// `throw new UnsupportedOperationException("To be implemented.")` became
// code) keeps under a third of its tokens; a reviewer still reads the
// same class by its name and its methods, one by one. Parameters may
// change with the rest: fitnesse 62c8fe4f9e moved TestPage while its
// decorate(String) became decorate(WikiPage) among a dozen new helpers.
func membersKept(o origin, cf *File, s analyzer.Symbol) bool {
	if !o.known() {
		return false
	}
	now := map[string]bool{}
	for _, m := range members(cf, s) {
		now[m.Name] = true
	}
	old := members(o.file, o.sym)
	if len(old) < minMembers {
		return false
	}
	for _, m := range old {
		if !now[m.Name] {
			return false
		}
	}
	return true
}

// members lists the callables f declares directly in type t.
func members(f *File, t analyzer.Symbol) []analyzer.Symbol {
	var out []analyzer.Symbol
	for _, m := range f.Symbols {
		if callableKind(m.Kind) && outerName(m.FQName) == t.FQName {
			out = append(out, m)
		}
	}
	return out
}

// split reports a rival c in the best candidate b's file that holds a
// part of the old code as b does: a symbol split in two, and a reviewer
// cannot tell which part the anchor was about. Either
//   - the same code for either side, c as like by its body and as near
//     by its name, b ahead only by the diff, which pairs lines by their
//     place and so gives the first of the two no more than half of the
//     old lines (texar fb7b2f8211: text_tensor_name became
//     source_text_name and target_text_name); or
//   - the code itself divided: the diff keeps a third or more of the old
//     lines in c and under two thirds in b (jgit f5fe2dca3c: addObject
//     kept its guard for uninteresting objects as addResultOrBase, which
//     its callers now call, and handed the rest to the new addResult).
func split(o origin, b, c candidate) bool {
	if !b.keptKnown || !c.keptKnown || b.sameBody || c.sym.Path != b.sym.Path {
		return false
	}
	if b.kept <= 0.5 && c.kept < b.kept && !b.named && c.bodyLikeness() >= b.bodyLikeness()-copyTie && nameSimilarity(o.name, c.sym.Name) >= nameSimilarity(o.name, b.sym.Name) {
		return true
	}
	return !b.sameName && !c.sameName && c.kept >= 1.0/3 && b.kept < 2.0/3
}

// relatedCopy reports a rival c, nearly the anchored code, in a type up
// or down the anchored one's hierarchy, while the best candidate b has
// the very code under the same name in a type outside it: a method
// pulled up into an interface, where its modifiers change (public
// became default), and a copy added to an unrelated class in the same
// change (pmd fa60d0e8a7: ASTMethodDeclaration's isStatic went to
// ASTExecutableDeclaration, and ASTVariableId gained its own). The
// identical body says one thing, the hierarchy the other: c stays a
// rival. A b in a type of the anchored type's name is that type, not
// one outside the hierarchy (werkzeug cfebee06d2 split datastructures.py
// into modules: MultiDict's getlist moved unchanged beside its subclass's
// near copy).
func relatedCopy(o origin, b, c candidate) bool {
	return c.related && !b.related && c.sameName == b.sameName && c.bodyLikeness() >= copyLike && !ownType(o, b)
}

// hierarchyDisagrees reports a rival c up or down the anchored type's
// hierarchy that keeps the anchored method's name and half its code or
// more, while the best candidate b, of that name too, is in a type
// outside it: the body says b, the hierarchy c, and c stays a rival even
// when another anchor took it (BaseRecyclerViewAdapterHelper aa1ed6ebf8:
// TrailingLoadStateAdapter's two onCreateViewHolder overloads went into
// the one of its new subclass DefaultTrailingLoadStateAdapter, while
// DefaultLeadingLoadStateAdapter's, of another hierarchy, was built the
// way the old overload's short body was). A b in a type of the anchored
// type's name is that type, moved with its file, not a type outside its
// hierarchy (click 7239794a61 moved core.py to src/click/core.py: Group's
// list_commands stayed beside MultiCommand's).
func hierarchyDisagrees(o origin, b, c candidate) bool {
	return c.related && !b.related && b.sameName && c.sameName && c.bodyLikeness() >= 0.5 && !ownType(o, b)
}

// ownType reports a candidate in a type of the anchored symbol's outer
// name: that type itself, wherever it went, not a type outside its
// hierarchy.
func ownType(o origin, c candidate) bool {
	return o.outer != "" && sameOuter(o, c)
}

// sameOuter reports a candidate whose qualified name is the anchored
// one's but for its last part ("" for both at the top of a file).
func sameOuter(o origin, c candidate) bool {
	_, fq, _ := cutFQ(c.sym.FQName)
	return outerName(fq) == o.outer
}

// stayed reports whether c is a member of the anchored member's own type,
// in its own file, and the diff of that file keeps some of the anchored
// lines in it: renamed where it stood. A file that git renamed does not
// count: git pairs files by their likeness, which a file split in several
// makes a guess (checkstyle 7ddc532f01). A copy of its new code in another
// file, as like the old code, would have been moved as well as renamed:
// the same code written in several places does not say the anchored one
// left its own (DSpace 8db0faed33: every entity's getId became getID, and
// new getID methods with the same one-line body appeared in other
// classes).
func stayed(o origin, c candidate) bool {
	return c.keptKnown && c.kept > 0 && o.outer != "" && c.sym.Path == o.a.Path() && sameOuter(o, c)
}

// namesakeOfOwn reports whether rival c is b's namesake in another type
// of another file, no more like the old code than b, while b is in the
// anchored member's own type and file: the change wrote one method in
// several types, and the anchored type's own is where its code went
// (commercetools-sunrise-java ed5e4e2de4: each controller's
// handleFailedAction became its own handleClientErrorFailedAction, which
// the new controllers got too).
func namesakeOfOwn(o origin, b, c candidate) bool {
	return o.outer != "" && b.sym.Path == o.a.Path() && sameOuter(o, b) && !b.sameName &&
		c.sym.Name == b.sym.Name && c.sym.Path != b.sym.Path && !sameOuter(o, c) &&
		c.bodyLikeness() <= b.bodyLikeness()+0.02
}

// headerOnly reports a namesake b in an unrelated type of another file
// that is like the old code by its header and next to nothing else, under
// a name many types share (a short one 3, a longer one 10): a method whose
// name and parameters an interface gives (Rust's Display::fmt, Python's
// __repr__, Java's toString) in some other type, while the anchored one
// was deleted (ripgrep 4846d63539: DecompressionCommand::fmt read as the
// new InvalidPatternError::fmt, 85% alike by the header and `write!(f,`).
// Code moved to another type takes its body along; a name of its own
// (nakadi 25d26f5fdf's streamEventsFromPartition, moved and much edited;
// BaseRecyclerViewAdapterHelper 2587c1476e's setDragMoveFlags, in an
// interface and two builders), a supertype (a method pulled up and made
// general), a change that calls it by the name or sends the old name's
// uses there say more.
func (v *Verifier) headerOnly(ctx context.Context, a Anchor, o origin, b candidate) bool {
	if !o.known() || !b.sameName || b.sameBody || b.related || o.outer == "" || sameOuter(o, b) || !callableKind(b.sym.Kind) ||
		b.sym.Path == a.Path() || b.sym.Path == o.renamedTo || b.called || b.redirected {
		return false
	}
	was := bodyWords(o.toks, o.name, o.file.Lang)
	now := bodyWords(v.symbolTokens(b.file, b.sym), b.sym.Name, b.file.Lang)
	if len(was) < headerOnlyWords || len(now) == 0 || similarity(was, now) >= headerOnlyLike {
		return false
	}
	// Last, as it reads every symbol of the source.
	named, err := v.files.SymbolsNamed(ctx, b.sym.Name)
	return err == nil && len(named) >= sharedName && (!distinctive(b.sym.Name) || len(named) >= widelyShared)
}

// headerOnlyWords is the fewest words of a body that tell its code from
// another's: fewer (gwt-material 430fa65bf2's reset, `validatorMixin.reset()`
// pulled up as `getValidatorMixin().reset()`) say too little.
const headerOnlyWords = 6

// sharedName is how many symbols of a short name make it an interface's,
// not the author's; widelyShared, of a longer one (Java's toString).
const (
	sharedName   = 3
	widelyShared = 10
)

// headerOnlyLike is the likeness of the words of two bodies under one
// header below which they are other code.
const headerOnlyLike = 0.6

// bodyWords returns the words (names, keywords, literals) of a callable
// after its header: past its parameters, from the first "{" (Python:
// ":") on; nil when its name and parameters are not found.
func bodyWords(toks []string, name, lang string) []string {
	_, after := nameAt(toks, name, lang)
	if after < 0 || after >= len(toks) || toks[after] != "(" {
		return nil
	}
	open := "{"
	if lang == "python" {
		open = ":"
	}
	depth := 0
	for i := after; i < len(toks); i++ {
		switch t := toks[i]; {
		case t == "(":
			depth++
		case t == ")":
			depth--
		case t == open && depth == 0:
			var out []string
			for _, w := range toks[i+1:] {
				if r, _ := utf8.DecodeRuneInString(w); r == '_' || r == '"' || r == '\'' || r == '`' || unicode.IsLetter(r) || unicode.IsDigit(r) {
					out = append(out, w)
				}
			}
			return out
		}
	}
	return nil
}
