package anchors

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/lorehq/lore/analyzer"
)

// A method renamed while its small body was rewritten keeps too little of
// it, and too few of its words, for the body or the name to speak
// (hibernate-search's PredicateRequestContext.root() became
// withoutSession(), returning a new object where it returned a constant).
// The change speaks instead: the lines that called root() now call
// withoutSession(), and nothing else on them changed. RefactoringMiner
// reads renames the same way, from the calls replaced. So does lore, for
// a method renamed in its place, pulled up or pushed down under a new
// name (hadoop's ExponentialRetryPolicy.getRetryCount() became
// AbfsRetryPolicy.getMaxRetryCount() in its new parent), or moved to
// the type of one of its parameters under a new name, where the calls
// say so: state.handleMappingAborted(e) became
// e.collectSilentlyAndCheck(c). lore reads them only where the caller
// says which files the change touched (Options.Changed: lore's verify
// asks git), over the lines the diff of each of those files replaces one
// for one.

// uses is what the change's replaced lines say of names, for the whole
// change: old name → new name → lines.
type uses struct {
	// swapped: the line names another identifier where it named the old
	// one, and nothing else on it changed.
	swapped map[string]map[string]int
	// moved: a call r.a(…, p, …) became p.b(…), the rest of the line
	// unchanged: a moved to the type of its parameter p, as b.
	moved map[string]map[string]int
	// declared: of the swapped lines, those that declared the old name,
	// by Base path and line: the new name.
	declared map[string]string
}

func newUses() uses {
	return uses{swapped: map[string]map[string]int{}, moved: map[string]map[string]int{}, declared: map[string]string{}}
}

// target returns the one name the change's lines used instead of o's,
// if they used one, and whether a line besides o's own declaration
// (renamed alike, it says nothing of the uses) did.
func (u uses) target(o origin) (string, bool) {
	told := map[string]int{}
	for _, m := range []map[string]map[string]int{u.swapped, u.moved} {
		for to, n := range m[o.name] {
			told[to] += n
		}
	}
	if len(told) != 1 {
		return "", false // none, or several: no one name
	}
	if l := namingLineNo(o.file, o.sym, o.name); l > 0 {
		if to, ok := u.declared[declKey(o.file.Path, l)]; ok {
			told[to]--
		}
	}
	for to, n := range told {
		return to, n > 0
	}
	return "", false
}

func declKey(path string, line int) string { return fmt.Sprintf("%s:%d", path, line) }

// into reports whether a name other than from became to.
func (u uses) into(to, from string) bool {
	for _, m := range []map[string]map[string]int{u.swapped, u.moved} {
		for x, tos := range m {
			if x != from && tos[to] > 0 {
				return true
			}
		}
	}
	return false
}

func countUse(m map[string]map[string]int, from, to string) {
	if m[from] == nil {
		m[from] = map[string]int{}
	}
	m[from][to]++
}

// maxSwapFiles bounds how many changed files are read for swapped names:
// a change that touches more is read in part (its files in order).
const maxSwapFiles = 500

// uses reads what the change's replaced lines say of names, once per
// run.
func (v *Verifier) uses(ctx context.Context) uses {
	v.usesOnce.Do(func() { v.used = v.readUses(ctx) })
	return v.used
}

func (v *Verifier) readUses(ctx context.Context) uses {
	out := newUses()
	read := 0
	for _, p := range v.changeOf(ctx).files {
		if read == maxSwapFiles || ctx.Err() != nil {
			break
		}
		bf, err := v.opts.Base.File(ctx, p)
		if err != nil || bf.Lang == "" || bf.Skipped != "" {
			continue
		}
		q := p
		if r := v.files.Renamed(p); r != "" {
			q = r
		}
		cf, err := v.files.File(ctx, q)
		if err != nil || cf.Lang != bf.Lang || cf.Skipped != "" || cf.Hash == bf.Hash {
			continue
		}
		read++
		lineUses(bf, splitLines(bf.Src), splitLines(cf.Src), out)
	}
	return out
}

// change is the change as Options.Changed lists it, read once per run
// (see changeOf): its files and, for settled, the sets of them and of
// Base's files. Zero when unknown.
type change struct {
	files           []string
	touched, before map[string]bool
}

func (v *Verifier) changeOf(ctx context.Context) *change {
	v.changeOnce.Do(func() {
		if v.opts.Changed == nil || v.opts.Base == nil {
			return
		}
		c := &v.change
		if c.files = v.opts.Changed(ctx); c.files == nil {
			return
		}
		before, err := v.opts.Base.Paths(ctx)
		if err != nil {
			return
		}
		c.touched = make(map[string]bool, len(c.files))
		for _, f := range c.files {
			c.touched[f] = true
		}
		c.before = make(map[string]bool, len(before))
		for _, f := range before {
			c.before[f] = true
		}
	})
	return &v.change
}

// settled reports whether the change left file p as it was: p is in
// Base and not among the files Options.Changed lists. Every symbol of
// such a file was there before and still is, so none is where a vanished
// symbol went (stillItself says the same after reading both versions):
// relocation with history looks only at the files the change touched,
// however large the repository. False when the list is unknown.
func (v *Verifier) settled(ctx context.Context, p string) bool {
	c := v.changeOf(ctx)
	return c.before[p] && !c.touched[p]
}

// lineUses adds to out what the lines the diff of a to b replaces say:
// a line removed between two kept lines against the first line added
// there that differs from it only where one identifier became another
// (the same pair everywhere on the line), or else only where a call
// moved to one of its arguments (see movedCall). Stretches of more than
// maxSwapHunk lines on a side are left out: rewritten code, not edits.
func lineUses(bf *File, a, b [][]byte, out uses) {
	m := alignLines(a, b)
	i, j := 0, 0
	for i <= len(a) {
		i0 := i
		for i < len(a) && m[i] < 0 {
			i++
		}
		j1 := len(b)
		if i < len(a) {
			j1 = m[i]
		}
		if i > i0 && j1 > j && i-i0 <= maxSwapHunk && j1-j <= maxSwapHunk {
			hunkUses(bf, i0, a[i0:i], b[j:j1], out)
		}
		if i == len(a) {
			break
		}
		i, j = i+1, j1+1
	}
}

// maxSwapHunk bounds the lines on each side of a stretch lineUses reads.
const maxSwapHunk = 64

// hunkUses pairs each removed line (the first at index at of bf's lines)
// with the first unpaired added line that swaps one identifier for
// another and nothing else; the lines left with the first that moves a
// call to one of its arguments.
func hunkUses(bf *File, at int, removed, added [][]byte, out uses) {
	lang := bf.Lang
	toks := make([][]string, len(added))
	for k, l := range added {
		toks[k] = analyzer.Tokens(lang, l)
	}
	used := make([]bool, len(added))
	var left [][]string
	for r, l := range removed {
		old := analyzer.Tokens(lang, l)
		paired := false
		for k := range added {
			if used[k] {
				continue
			}
			if from, to, ok := swapOf(old, toks[k]); ok {
				used[k], paired = true, true
				countUse(out.swapped, from, to)
				if declares(bf, at+r+1, from) {
					out.declared[declKey(bf.Path, at+r+1)] = to
				}
				break
			}
		}
		if !paired {
			left = append(left, old)
		}
	}
	for _, old := range left {
		for k := range added {
			if used[k] {
				continue
			}
			if from, to, ok := movedCall(old, toks[k]); ok {
				used[k] = true
				countUse(out.moved, from, to)
				break
			}
		}
	}
}

// swapOf reports the one identifier x swapped for y that turns line
// tokens a into b, when that is all that differs.
func swapOf(a, b []string) (x, y string, ok bool) {
	if len(a) != len(b) {
		return "", "", false
	}
	for k := range a {
		if a[k] == b[k] {
			continue
		}
		if !isName(a[k]) || !isName(b[k]) || x != "" && (a[k] != x || b[k] != y) {
			return "", "", false
		}
		x, y = a[k], b[k]
	}
	return x, y, x != ""
}

// movedCall reports the call x(…) of line tokens a that became y(…) on
// one of its own arguments in b — r.x(…, p, …) or x(…, p, …) became
// p.y(…) — when the rest of the line is the same: the method moved to
// its parameter's type, renamed. The receiver is one name at most, the
// argument one name.
func movedCall(a, b []string) (x, y string, ok bool) {
	for i := 0; i+1 < len(a); i++ {
		if !isName(a[i]) || a[i+1] != "(" {
			continue
		}
		end := closing(a, i+1)
		if end < 0 {
			return "", "", false
		}
		start := i
		if i >= 2 && a[i-1] == "." && isIdent(a[i-2]) {
			start = i - 2
		}
		if start > 0 && a[start-1] == "." {
			continue // the receiver is itself a call or a path
		}
		args := nameArgs(a[i+2 : end])
		for j := 2; j+1 < len(b); j++ {
			if !isName(b[j]) || b[j+1] != "(" || b[j-1] != "." || !slices.Contains(args, b[j-2]) || j >= 3 && b[j-3] == "." {
				continue
			}
			bend := closing(b, j+1)
			if bend < 0 || b[j] == a[i] {
				continue
			}
			if slices.Equal(a[:start], b[:j-2]) && slices.Equal(a[end+1:], b[bend+1:]) {
				return a[i], b[j], true
			}
		}
	}
	return "", "", false
}

// closing returns the index of the parenthesis that closes toks[open],
// or -1.
func closing(toks []string, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch toks[k] {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// nameArgs returns the arguments of a call (the tokens between its
// parentheses) that are one name each.
func nameArgs(toks []string) []string {
	var out []string
	depth, start := 0, 0
	for k := 0; k <= len(toks); k++ {
		if k < len(toks) {
			switch toks[k] {
			case "(", "[", "{":
				depth++
				continue
			case ")", "]", "}":
				depth--
				continue
			case ",":
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if k-start == 1 && isName(toks[start]) {
			out = append(out, toks[start])
		}
		start = k + 1
	}
	return out
}

// isName reports an identifier token: not a number.
func isName(t string) bool {
	return isIdent(t) && (t[0] < '0' || t[0] > '9')
}

// calledInstead reports whether s (of cf) is o's symbol under a new name
// as the change's uses tell: the lines that used o's name now use s's,
// for no other name, while no other name became s's, o's name is gone
// from o's type, and s's name is new in its own. s is where o was (in
// o's file, or the one it was renamed to, and type, of o's kind), or a
// method of a type up or down o's type's hierarchy the uses swapped the
// name for (pulled up or pushed down), or a method of the type of one
// of o's parameters the calls moved to (see movedCall). Its own
// declaration line does not count; the same declaration renamed alike
// in another file does (a test renamed the same way in two sibling
// classes, an interface method and its implementations).
func (v *Verifier) calledInstead(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	if v.opts.Changed == nil || !o.known() || v.opts.Base == nil || cf.Lang != o.file.Lang || s.Kind != o.sym.Kind || s.Name == o.name {
		return false
	}
	u := v.uses(ctx)
	if to, ok := u.target(o); !ok || to != s.Name || u.into(s.Name, o.name) {
		return false // no use told, another name too, or two names became one
	}
	if v.stillNamed(ctx, o) {
		return false // the name is still there: an overload, or the same name again
	}
	switch {
	case v.newInItsPlace(ctx, o, cf, s):
		return true
	case !callableKind(s.Kind) || v.hadName(ctx, cf, s):
		return false
	case u.swapped[o.name][s.Name] > 0:
		return v.relatedTypes(ctx, o, cf, s)
	default:
		_, sfq, _ := cutFQ(s.FQName)
		ps, _ := params(o.file, o.sym)
		return u.moved[o.name][s.Name] > 0 && slices.Contains(ps, lastName(outerName(sfq)))
	}
}

// stillNamed reports whether o's type, as it is now, still has a symbol
// of o's name.
func (v *Verifier) stillNamed(ctx context.Context, o origin) bool {
	p := o.file.Path
	if o.renamedTo != "" {
		p = o.renamedTo
	}
	f := v.fileOrNil(ctx, p)
	return f != nil && slices.ContainsFunc(f.Symbols, func(x analyzer.Symbol) bool {
		_, q, _ := cutFQ(x.FQName)
		return x.Name == o.name && outerName(q) == o.outer
	})
}

// declares reports whether line l of f is where a symbol named name is
// declared: the first of its lines that holds the name.
func declares(f *File, l int, name string) bool {
	for _, x := range f.Symbols {
		if x.Name == name && x.StartLine <= l && l <= x.EndLine && namingLineNo(f, x, name) == l {
			return true
		}
	}
	return false
}

// namingLineNo returns the first line of s (of f) that holds name, or 0.
func namingLineNo(f *File, s analyzer.Symbol, name string) int {
	text, ok := analyzer.Lines(f.Src, s.StartLine, s.EndLine)
	if !ok {
		return 0
	}
	for i, line := range bytes.SplitAfter(text, []byte("\n")) {
		if slices.Contains(analyzer.Tokens(f.Lang, line), name) {
			return s.StartLine + i
		}
	}
	return 0
}
