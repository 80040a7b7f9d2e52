package anchors

import (
	"context"
	"fmt"
	"slices"

	"github.com/lorehq/lore/analyzer"
)

// Copies in one change: the same code in several places, each of which
// vanished, and new symbols holding it. A reviewer gives each copy the
// new symbol that continues it where it was (its own type, its lines
// kept there by the diff), and does not let a copy that went somewhere
// unchanged lay claim to anything else.

// sameCode reports whether the tokens of two symbols are equal once the
// second one's own name and outer name read as the first one's.
func sameCode(toks []string, name, outer string, xtoks []string, xname, xouter string) bool {
	if len(toks) != len(xtoks) {
		return false
	}
	m := map[string]string{xname: name}
	if xouter != "" && outer != "" {
		m[lastName(xouter)] = lastName(outer)
	}
	return slices.Equal(substitute(xtoks, m), toks)
}

// copyOwner returns the full name of the symbol of Base that candidate
// c, the anchored code unchanged, continues in its own file: a symbol
// that vanished from that file, in c's type, with c's code, whose lines
// the diff of the file keeps in c, while the anchored symbol was in
// another file ("" if none). A class copied from another keeps its
// copies of that one's methods; when both are renamed, each copy's new
// name belongs to the copy that was there (texar fb7b2f8211:
// PairedTextData, written from MonoTextData, lost text_tensor_name as
// MonoTextData did; MonoTextData's text_name, unchanged, is not where
// PairedTextData's went).
func (v *Verifier) copyOwner(ctx context.Context, o origin, c candidate) string {
	p := c.sym.Path
	if !o.known() || p == o.sym.Path || p == o.renamedTo {
		return ""
	}
	bf, err := v.opts.Base.File(ctx, p)
	if err != nil {
		return ""
	}
	_, cfq, _ := cutFQ(c.sym.FQName)
	outer := outerName(cfq)
	ctoks := v.symbolTokens(c.file, c.sym)
	for _, d := range v.vanished(ctx, p) {
		_, dfq, _ := cutFQ(d.FQName)
		if outerName(dfq) != outer || !kindsCompatible(d.Kind, c.sym.Kind) {
			continue
		}
		if !sameCode(v.symbolTokens(bf, d), d.Name, outer, ctoks, c.sym.Name, outer) {
			continue
		}
		if k, ok := v.linesKept(bf, d, c.file, c.sym); ok && k >= 0.5 {
			return dfq
		}
	}
	return ""
}

// wentWhole returns where d, a symbol of Base file bf that vanished,
// went unchanged: the one symbol new in its file (or the file it was
// renamed to) under another name with d's code (junit4 f7d4f2835e:
// UsesErrorCollector became AddSingleError as it was, while
// UsesErrorCollectorCheckThat was split in three, one of which, where
// the diff keeps its lines, reads a little more like the former). ok is
// false when there is none, or more than one. Cached for the run.
func (v *Verifier) wentWhole(ctx context.Context, bf *File, d analyzer.Symbol) (at analyzer.Symbol, ok bool) {
	type whole struct {
		at analyzer.Symbol
		ok bool
	}
	key := fmt.Sprintf("%s#%d#%s", d.Path, d.StartLine, bf.Hash)
	if x, found := v.whole.Load(key); found {
		w := x.(whole)
		return w.at, w.ok
	}
	_, dfq, _ := cutFQ(d.FQName)
	dtoks := v.symbolTokens(bf, d)
	n := 0
	for _, p := range []string{d.Path, v.renamedTo(ctx, d.Path)} {
		cf := v.fileOrNil(ctx, p)
		if cf == nil {
			continue
		}
		for _, x := range cf.Symbols {
			_, xfq, _ := cutFQ(x.FQName)
			if x.Name == d.Name || !kindsCompatible(d.Kind, x.Kind) || len(sameNamed(bf, bf.Path+"::"+xfq)) > 0 {
				continue // not new in the file
			}
			if sameCode(dtoks, d.Name, outerName(dfq), v.symbolTokens(cf, x), x.Name, outerName(xfq)) {
				at = x
				n++
			}
		}
	}
	// Two such places (siblings whose code is their own name: isalpha
	// returning data.isalpha()) tell nothing of where it went.
	ok = n == 1
	v.whole.Store(key, whole{at, ok})
	return at, ok
}

// keptFrom reports whether candidate c continues o's symbol as the diff
// of its file reads it (it keeps at least half of the old lines) while
// d, another symbol that vanished and that c is like, went unchanged to
// another place (see wentWhole): then d lays no claim to c. A sibling
// merely renamed says nothing of where the anchored one went; a sibling
// that was also copied into a near twin beside its new name still
// claims the twin, which the diff does not give the anchored one
// (spring-boot ba3602b8b7).
func (v *Verifier) keptFrom(ctx context.Context, o origin, c candidate, d analyzer.Symbol) bool {
	if !c.keptKnown || c.kept < 0.5 {
		return false
	}
	bf, err := v.opts.Base.File(ctx, d.Path)
	if err != nil {
		return false
	}
	at, ok := v.wentWhole(ctx, bf, d)
	return ok && !(at.Path == c.sym.Path && at.StartLine == c.sym.StartLine)
}
