package anchors

import (
	"context"

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
