package anchors

import (
	"context"
	"slices"

	"github.com/lorehq/lore/analyzer"
)

// A method renamed while its small body was rewritten keeps too little of
// it, and too few of its words, for the body or the name to speak
// (hibernate-search's PredicateRequestContext.root() became
// withoutSession(), returning a new object where it returned a constant).
// The change speaks instead: the lines that called root() now call
// withoutSession(), and nothing else on them changed. RefactoringMiner
// reads renames the same way, from the calls replaced. lore reads it only
// where the caller says which files the change touched (Options.Changed:
// the pre-commit hook and CI know), over the lines the diff of each of
// those files replaces one for one.

// maxSwapFiles bounds how many changed files are read for swapped names:
// a change that touches more is read in part (its files in order).
const maxSwapFiles = 500

// swaps counts, for the whole change, the identifiers that lines replaced
// one for one swapped for another and nothing else: old name → new name →
// lines. Cached for the run.
func (v *Verifier) swaps(ctx context.Context) map[string]map[string]int {
	v.swapOnce.Do(func() { v.swapped = v.readSwaps(ctx) })
	return v.swapped
}

func (v *Verifier) readSwaps(ctx context.Context) map[string]map[string]int {
	out := map[string]map[string]int{}
	read := 0
	for _, p := range v.opts.Changed {
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
		lineSwaps(bf.Lang, splitLines(bf.Src), splitLines(cf.Src), out)
	}
	return out
}

// lineSwaps adds to out the swaps of the lines the diff of a to b replaces:
// a line removed between two kept lines against the first line added
// there that differs from it only where one identifier became another
// (the same pair everywhere on the line). Stretches of more than
// maxSwapHunk lines on a side are left out: rewritten code, not edits.
func lineSwaps(lang string, a, b [][]byte, out map[string]map[string]int) {
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
			hunkSwaps(lang, a[i0:i], b[j:j1], out)
		}
		if i == len(a) {
			break
		}
		i, j = i+1, j1+1
	}
}

// maxSwapHunk bounds the lines on each side of a stretch lineSwaps reads.
const maxSwapHunk = 64

// hunkSwaps pairs each removed line with the first unpaired added line
// that swaps one identifier for another and nothing else.
func hunkSwaps(lang string, removed, added [][]byte, out map[string]map[string]int) {
	toks := make([][]string, len(added))
	for k, l := range added {
		toks[k] = analyzer.Tokens(lang, l)
	}
	used := make([]bool, len(added))
	for _, l := range removed {
		old := analyzer.Tokens(lang, l)
		for k := range added {
			if used[k] {
				continue
			}
			if from, to, ok := swapOf(old, toks[k]); ok {
				used[k] = true
				if out[from] == nil {
					out[from] = map[string]int{}
				}
				out[from][to]++
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

// isName reports an identifier token: not a number.
func isName(t string) bool {
	return isIdent(t) && (t[0] < '0' || t[0] > '9')
}

// calledInstead reports whether s (of cf) is o's symbol renamed in its
// own place as the change's uses tell: new in o's file (or where it was
// renamed to) and type, of o's kind, o's name is gone from there, and
// the lines that used o's name now use s's, for no other name, while no
// other name was swapped for s's. Its own declaration line does not
// count; the same declaration renamed alike in another file does (a test
// renamed the same way in two sibling classes, an interface method and
// its implementations).
func (v *Verifier) calledInstead(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	if len(v.opts.Changed) == 0 || !v.newInItsPlace(ctx, o, cf, s) {
		return false
	}
	if slices.ContainsFunc(cf.Symbols, func(x analyzer.Symbol) bool {
		_, q, _ := cutFQ(x.FQName)
		return x.Name == o.name && outerName(q) == o.outer
	}) {
		return false // the name is still there: an overload, or the same name again
	}
	sw := v.swaps(ctx)
	if len(sw[o.name]) != 1 || sw[o.name][s.Name] <= headerSwap(o, cf, s) {
		return false // no use swapped beside the declaration itself
	}
	for from, to := range sw {
		if from != o.name && to[s.Name] > 0 {
			return false // two names became one: merged, not renamed
		}
	}
	return true
}

// headerSwap is 1 when the declaration lines of o's symbol and s (the
// first of each that names it) differ only by the name, a swap that says
// nothing of the uses; else 0.
func headerSwap(o origin, cf *File, s analyzer.Symbol) int {
	from, ok1 := namingLine(o.file, o.sym, o.name)
	to, ok2 := namingLine(cf, s, s.Name)
	if !ok1 || !ok2 {
		return 0
	}
	if x, y, ok := swapOf(from, to); ok && x == o.name && y == s.Name {
		return 1
	}
	return 0
}

// namingLine returns the tokens of the first line of s (of f) that holds
// name.
func namingLine(f *File, s analyzer.Symbol, name string) ([]string, bool) {
	for l := s.StartLine; l <= s.EndLine; l++ {
		if toks := analyzer.RangeTokens(f.Lang, f.Src, l, l); slices.Contains(toks, name) {
			return toks, true
		}
	}
	return nil, false
}
