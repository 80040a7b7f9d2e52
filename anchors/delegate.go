package anchors

import (
	"context"
	"fmt"
	"sync"

	"github.com/lorehq/lore/analyzer"
)

// The anchored method's code and its role may part ways in one change:
// its body goes to a method with other parameters while a method with
// its old header, renamed like it or pulled up, now calls that one. A
// reviewer reading the change sees both: the code went one way, the API
// the other. The anchor may be about either, so neither is followed and
// both are offered.

// delegation is a method with the anchored one's header that calls a
// candidate.
type delegation struct {
	file *File
	sym  analyzer.Symbol
}

// markDelegates marks each candidate that could be followed (scoring
// the threshold, or the best one not claimed, which the change may still
// point to: see confidence) holding the code under another header than
// the anchored method's, by its name or, with history, its parameters,
// that a delegate calls: a method new or changed in the change (with
// history), with the old header up to its name, in the anchored symbol's
// file (a candidate or not), a type up or down its hierarchy (with
// history), or the candidate's own type (an overload), whose body calls
// the candidate.
// junit4 627b85abfd: expectThrows(Class, ThrowingRunnable) became
// assertThrows(String, Class, ThrowingRunnable), and the overload
// assertThrows(Class, ThrowingRunnable) took its header and now calls
// it; hibernate-orm b4c1b636c5: isReactiveSession() was pulled up from
// two subclasses as isReactiveSessionAccess(), which calls the static
// usingReactiveSessionAccess(String) that took the code; drill
// c1b847acdc: a test's addMiniDfsBasedStorage() went up into its base
// class as addMiniDfsBasedStorage(Map), which the test's new setup(),
// with the old header, calls.
func (v *Verifier) markDelegates(ctx context.Context, o origin, cands []candidate) {
	if !callableKind(o.a.Kind) || o.a.Sig == "" {
		return
	}
	sel := ""
	if o.known() {
		sel = selectorOf(o.file, o.sym)
	}
	// The methods new in the anchored one's type: a delegate need not be
	// a candidate. Read when a candidate needs them.
	home := sync.OnceValue(func() []delegation {
		var out []delegation
		if !o.known() {
			return nil
		}
		p := o.a.Path()
		if o.renamedTo != "" {
			p = o.renamedTo
		}
		if hf := v.fileOrNil(ctx, p); hf != nil {
			for _, x := range v.newCallables(ctx, hf, o.outer) {
				out = append(out, delegation{hf, x})
			}
		}
		return out
	})
	first := true
	for i := range cands {
		c := &cands[i]
		followable := c.score >= v.opts.Threshold || first && c.claimedBy == ""
		if c.claimedBy == "" {
			first = false
		}
		// Without history the parameters are not known: the same name is
		// the same header.
		if c.sameName && !o.known() || c.sameBody || !followable || !callableKind(c.sym.Kind) || v.keepsHeader(o, c.file, c.sym) ||
			o.known() && selectorOf(c.file, c.sym) == sel {
			continue
		}
		// Where a delegate may be: the other candidates, and the
		// candidate's overloads.
		var near []delegation
		for j, x := range cands {
			if j != i {
				near = append(near, delegation{x.file, x.sym})
			}
		}
		for _, x := range sameNamed(c.file, c.sym.FQName) {
			if x.StartLine != c.sym.StartLine {
				near = append(near, delegation{c.file, x})
			}
		}
		near = append(near, home()...)
		for _, d := range near {
			if v.delegates(ctx, o, sel, d, *c) {
				dc, _ := v.score(ctx, o, d.file, d.sym, nil)
				c.delegate = &dc
				break
			}
		}
	}
}

// delegates reports whether d is a delegate of o's method calling
// candidate c (see markDelegates).
func (v *Verifier) delegates(ctx context.Context, o origin, sel string, d delegation, c candidate) bool {
	x := d.sym
	if !callableKind(x.Kind) || o.known() && selectorOf(d.file, x) != sel || !v.keepsHeader(o, d.file, x) {
		return false
	}
	toks := v.symbolTokens(d.file, x)
	if x.Name == c.sym.Name {
		// An overload: what it calls is past its own declaration.
		if after := afterName(toks, x.Name); after != nil {
			toks = after
		}
	}
	if !calls(toks, c.sym.Name) {
		return false
	}
	if v.opts.Base != nil {
		if bs, _, ok := v.inBase(ctx, d.file, x); ok && bs.Hash == x.Hash {
			return false // it was there as it is: no part of the change
		}
	}
	_, xfq, _ := cutFQ(x.FQName)
	own := x.Path == o.a.Path() || x.Path == o.renamedTo
	overload := x.Path == c.sym.Path && x.FQName == c.sym.FQName
	return own || overload || o.known() && outerName(xfq) != o.outer && v.relatedTypes(ctx, o, d.file, x)
}

// keepsHeader reports whether symbol x of cf has the anchored symbol's
// header once its name (and its type's) reads as the old one.
func (v *Verifier) keepsHeader(o origin, cf *File, x analyzer.Symbol) bool {
	a := o.a
	if x.Sig == a.Sig {
		return true
	}
	_, xfq, _ := cutFQ(x.FQName)
	norm := substitute(v.shapeTokens(a, cf, x), map[string]string{x.Name: o.name, outerName(xfq): o.outer})
	return headerMatchesFrom(format(a), norm, a.Sig, 3)
}

// delegateNote is what the reason of a delegate candidate adds.
func delegateNote(c candidate) string {
	_, fq, _ := cutFQ(c.sym.FQName)
	return fmt.Sprintf("; it has the old header and calls %s%s, where the code went", fq, selectorOf(c.file, c.sym))
}

// listDelegate adds the delegate of b (see markDelegates), when it has
// one, to the candidates of r, or says so where they hold it.
func (v *Verifier) listDelegate(a Anchor, o origin, b candidate, r *Result) {
	if b.delegate != nil {
		v.listWith(a, o, *b.delegate, delegateNote(b), r)
	}
}
