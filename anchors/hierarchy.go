package anchors

import (
	"context"
	"slices"

	"github.com/lorehq/lore/analyzer"
)

// maxAncestry bounds how many levels up a type's hierarchy relatedTypes
// looks through types declared in the source.
const maxAncestry = 4

// ancestors returns the full names (path::Type) of the types that type
// fq of f extends or implements, directly or through types between them
// declared in the source, up to maxAncestry levels: a method pulled up
// into an interface that the anchored class implements through its
// abstract superclass (pmd fa60d0e8a7: ASTMethodDeclaration extends
// AbstractExecutableDeclaration, which implements
// ASTExecutableDeclaration). A name is followed only where it names one
// type of the source that f can refer to (see typeDeclared). Cached for
// the run.
func (v *Verifier) ancestors(ctx context.Context, f *File, fq string) map[string]bool {
	key := f.Path + "\x00" + f.Hash + "\x00" + fq
	if x, ok := v.lineage.Load(key); ok {
		return x.(map[string]bool)
	}
	type typeAt struct {
		f  *File
		fq string
	}
	out := map[string]bool{}
	level := []typeAt{{f, fq}}
	for depth := 0; depth < maxAncestry && len(level) > 0; depth++ {
		var next []typeAt
		for _, t := range level {
			for name := range supertypes(t.f, t.fq) {
				decl, ok := v.typeDeclared(ctx, t.f, name)
				if !ok || out[decl.FQName] {
					continue
				}
				out[decl.FQName] = true
				if df := v.fileOrNil(ctx, decl.Path); df != nil {
					next = append(next, typeAt{df, decl.FQName})
				}
			}
		}
		level = next
	}
	v.lineage.Store(key, out)
	return out
}

// typeDeclared returns the one type of the source named name that file
// f can refer to by that name (see refersTo); ok is false when there is
// none or more than one.
func (v *Verifier) typeDeclared(ctx context.Context, f *File, name string) (analyzer.Symbol, bool) {
	named, err := v.files.SymbolsNamed(ctx, name)
	if err != nil {
		return analyzer.Symbol{}, false
	}
	var found []analyzer.Symbol
	for _, s := range named {
		if typeKind(s.Kind) && refersTo(f, name, s.Path) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		return analyzer.Symbol{}, false
	}
	return found[0], true
}

// toldRenameJava is toldRenamePyJS's first sign for Java: candidate c is
// o's method renamed in its own type, a third alike or more, and the
// same rename happened in a super or subtype (see renamedInHierarchy).
// An interface's declaration and its implementation renamed together
// keep too little to speak alone, the declaration having no body and the
// implementation's being rewritten (BuildCraft a5cdd8c4b1:
// IRequestProvider.getAvailableRequest and TileBuilder's became
// getRequest, both returning another type).
func (v *Verifier) toldRenameJava(ctx context.Context, o origin, c *candidate) bool {
	if c.file.Lang != "java" || c.likeness() < rewrittenLike || !v.renamedInItsPlace(ctx, o, c.file, c.sym) || !v.renamedInHierarchy(ctx, o, c.file, c.sym) {
		return false
	}
	c.named = true
	return true
}

// renamedInHierarchy reports whether the rename of o's method to s (in
// o's type) happened as well in a super or subtype in the same change: a
// method of s's name new there, where a method of o's name vanished. s
// must take o's parameters, perhaps more after them (a parameter with a
// default added: is_event(event) became has_event(event, null=True)).
// In Java, which has no defaults, the same parameters, and the pairing
// the related type's only rename of that signature (see soleRenameOf).
func (v *Verifier) renamedInHierarchy(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	if o.outer == "" || o.sym.Kind != analyzer.KindMethod {
		return false
	}
	old, ok1 := params(o.file, o.sym)
	now, ok2 := params(cf, s)
	if !ok1 || !ok2 || len(now) < len(old) || !slices.Equal(now[:len(old)], old) {
		return false
	}
	java := cf.Lang == "java"
	if java && len(now) != len(old) {
		return false // no defaults in Java: another parameter is another signature
	}
	named, err := v.files.SymbolsNamed(ctx, s.Name)
	if err != nil {
		return false
	}
	for _, x := range named {
		if x.Kind != s.Kind || x.Path == s.Path && x.StartLine == s.StartLine {
			continue
		}
		xf := v.fileOrNil(ctx, x.Path)
		_, xfq, _ := cutFQ(x.FQName)
		xOuter := outerName(xfq)
		if xf == nil || xf.Lang != cf.Lang || xOuter == "" || xOuter == o.outer || !v.relatedTypes(ctx, o, xf, x) || v.hadName(ctx, xf, x) {
			continue
		}
		for _, d := range v.vanished(ctx, x.Path) {
			if _, dfq, _ := cutFQ(d.FQName); d.Name == o.name && d.Kind == o.sym.Kind && outerName(dfq) == xOuter {
				return !java || v.soleRenameOf(ctx, xf, xOuter, old)
			}
		}
	}
	return false
}

// soleRenameOf reports whether, in type outer of xf, one callable taking
// parameters ps vanished and one taking them is new: the type's only
// rename of that signature. An interface often renames several methods
// at once (BuildCraft a5cdd8c4b1: getAvailableRequest(int) became
// getRequest(int), provideItemsForRequest(int, ItemStack) offerItem), and
// only the signatures pair them.
func (v *Verifier) soleRenameOf(ctx context.Context, xf *File, outer string, ps []string) bool {
	bf, err := v.opts.Base.File(ctx, xf.Path)
	if err != nil {
		return false
	}
	takes := func(f *File, xs []analyzer.Symbol) int {
		n := 0
		for _, x := range xs {
			if p, ok := params(f, x); ok && slices.Equal(p, ps) {
				n++
			}
		}
		return n
	}
	return takes(bf, v.vanishedCallables(ctx, xf.Path, outer)) == 1 && takes(xf, v.newCallables(ctx, xf, outer)) == 1
}

// supertypes reads the names a type declaration of f (full name fq)
// extends or implements: the last segment of each, without type
// arguments. Each language's header says it its own way: Java,
// TypeScript, PHP and Scala with keywords (extends, implements, with),
// Python in parentheses, Ruby after "<", and Kotlin, C#, Swift and C++
// after a colon (Kotlin after the primary constructor).
func supertypes(f *File, fq string) map[string]bool {
	out := map[string]bool{}
	for _, t := range sameNamed(f, fq) {
		toks := headerTokens(f, t)
		at := -1
		for i, x := range toks {
			if x == t.Name && i > 0 && declaresType(toks[i-1]) {
				at = i
				break
			}
		}
		if at < 0 {
			continue
		}
		rest := toks[at+1:]
		switch f.Lang {
		case "python":
			pythonBases(rest, out)
		case "ruby":
			rubySuperclass(rest, out)
		case "kotlin", "csharp", "swift", "cpp":
			colonBases(rest, out)
		default:
			keywordBases(rest, out)
		}
	}
	return out
}

// declaresType reports a keyword that a type's name follows in its
// declaration.
func declaresType(kw string) bool {
	switch kw {
	case "class", "interface", "enum", "record", "struct", "object", "protocol":
		return true
	}
	return false
}

// keywordBases reads the names after extends, implements or with, up to
// the body, without their type arguments.
func keywordBases(toks []string, out map[string]bool) {
	depth, listing := 0, false
	for i, x := range toks {
		switch {
		case x == "{":
			return
		case x == "<" || x == "[" || x == "(":
			depth++
		case x == ">" || x == "]" || x == ")":
			depth--
		case x == "extends" || x == "implements" || x == "with":
			listing = true
		case listing && depth == 0 && lastSegment(toks, i):
			out[x] = true
		}
	}
}

// pythonBases reads the bases in the parentheses after a class's name.
func pythonBases(toks []string, out map[string]bool) {
	depth := 0
	for i, x := range toks {
		switch {
		case x == ":" && depth <= 1:
			return
		case x == "<" || x == "[" || x == "(":
			depth++
		case x == ">" || x == "]" || x == ")":
			depth--
		case depth <= 1 && lastSegment(toks, i):
			out[x] = true
		}
	}
}

// rubySuperclass reads the constant after "<" (class A < Base::B).
func rubySuperclass(toks []string, out map[string]bool) {
	if len(toks) < 2 || toks[0] != "<" {
		return
	}
	for i := 1; i < len(toks) && isIdent(toks[i]); i += 2 {
		if lastSegment(toks, i) {
			out[toks[i]] = true
			return
		}
	}
}

// colonBases reads the list after the colon that follows a type's name,
// its type parameters and (Kotlin) its primary constructor: up to the
// body or a where clause. Access words (C++'s public B) and the delegate
// of Kotlin's "C by impl" are not types.
func colonBases(toks []string, out map[string]bool) {
	depth, listing := 0, false
	for i, x := range toks {
		switch {
		case depth == 0 && (x == "{" || x == "where" || x == ";"):
			return
		case x == "<" || x == "[" || x == "(":
			depth++
		case x == ">" || x == "]" || x == ")":
			depth--
		case depth == 0 && x == ":":
			listing = true
		case !listing || depth != 0 || i > 0 && toks[i-1] == "by":
		case x == "public" || x == "private" || x == "protected" || x == "virtual" || x == "by":
		case lastSegment(toks, i):
			out[x] = true
		}
	}
}

// lastSegment reports whether toks[i] is a name and the last segment of
// a qualified one (a.b.C, a::b::C).
func lastSegment(toks []string, i int) bool {
	return isIdent(toks[i]) && (i+1 >= len(toks) || toks[i+1] != "." && toks[i+1] != "::")
}
