package anchors

import (
	"bytes"
	"context"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// renamedTo returns where file p went: the rename the source knows (git's
// rename detection), else, with history, the file added since Base whose
// content is most like p's was, as git -M pairs them: at least half of
// the lines in common, and clearly more than any other added file; else
// the added file that declares its names (see namesakeFile). "" when p
// is still there or went nowhere certain. Cached for the run.
func (v *Verifier) renamedTo(ctx context.Context, p string) string {
	if q := v.files.Renamed(p); q != "" || v.opts.Base == nil || p == "" {
		return q
	}
	if x, ok := v.pairs.Load(p); ok {
		return x.(string)
	}
	q := v.pairRenamed(ctx, p)
	v.pairs.Store(p, q)
	return q
}

// minRenameSimilarity is the share of lines a file must keep to count as
// renamed, as git's default (-M50%).
const minRenameSimilarity = 0.5

func (v *Verifier) pairRenamed(ctx context.Context, p string) string {
	if _, err := v.files.File(ctx, p); err == nil {
		return "" // still there
	}
	old, now, ok := v.linesAndPaths(ctx, p)
	if !ok {
		return ""
	}
	before, err := v.opts.Base.Paths(ctx)
	if err != nil {
		return ""
	}
	existed := make(map[string]bool, len(before))
	for _, q := range before {
		existed[q] = true
	}
	var added []string
	for _, q := range now {
		if !existed[q] {
			added = append(added, q)
		}
	}
	// The same base name first, then the same extension: the likely ones,
	// when there are many. Others too, as git pairs a.js with a.ts.
	likely := func(q string) int {
		switch {
		case path.Base(q) == path.Base(p):
			return 0
		case path.Ext(q) == path.Ext(p):
			return 1
		}
		return 2
	}
	sort.SliceStable(added, func(i, j int) bool { return likely(added[i]) < likely(added[j]) })
	if len(added) > maxRenameScan {
		added = added[:maxRenameScan]
	}
	best, second, at := v.closestFile(ctx, old, added)
	if ctx.Err() != nil {
		return ""
	}
	if best < minRenameSimilarity || best-second < 0.1 {
		return v.namesakeFile(ctx, p, added)
	}
	return at
}

// namesakeFile returns the file of added (in the source) that declares
// the names of Base file p's top-level declarations: at least three and
// two in three of them, and twice as many as any other added file. A
// file renamed as its code was rewritten throughout (vuejs/core made
// runtimeConstants.ts, string constants, runtimeHelpers.ts, the same
// constants as symbols) keeps its names where it keeps no line. "" when
// no file does.
func (v *Verifier) namesakeFile(ctx context.Context, p string, added []string) string {
	bf, err := v.opts.Base.File(ctx, p)
	if err != nil {
		return ""
	}
	names := topNames(bf)
	if len(names) < 3 {
		return ""
	}
	best, second, at := 0, 0, ""
	for _, q := range added {
		f, err := v.files.File(ctx, q)
		if err != nil || ctx.Err() != nil {
			continue
		}
		n := 0
		for name := range topNames(f) {
			if names[name] {
				n++
			}
		}
		switch {
		case n > best:
			best, second, at = n, best, q
		case n > second:
			second = n
		}
	}
	if best < 3 || 3*best < 2*len(names) || best < 2*second {
		return ""
	}
	return at
}

// topNames are the names of f's top-level declarations.
func topNames(f *File) map[string]bool {
	out := map[string]bool{}
	for _, s := range f.Symbols {
		if s.FQName == f.Path+"::"+s.Name {
			out[s.Name] = true
		}
	}
	return out
}

// baseLines counts the lines of Base file p that say something (see
// lineCounts); ok is false when p cannot be read there or is binary.
func (v *Verifier) baseLines(ctx context.Context, p string) (map[string]int, bool) {
	bf, err := v.opts.Base.File(ctx, p)
	if err != nil || bf.Skipped == "binary" {
		return nil, false
	}
	return lineCounts(bf.Src), true
}

// linesAndPaths returns baseLines of p with the paths of the source now;
// ok is false when either cannot be read.
func (v *Verifier) linesAndPaths(ctx context.Context, p string) (old map[string]int, now []string, ok bool) {
	if old, ok = v.baseLines(ctx, p); !ok {
		return nil, nil, false
	}
	now, err := v.files.Paths(ctx)
	return old, now, err == nil
}

// closestFile returns the file of paths (in the source) that has the most
// lines in common with old (see commonLines), how many, and how many the
// next one has.
func (v *Verifier) closestFile(ctx context.Context, old map[string]int, paths []string) (best, second float64, at string) {
	for _, q := range paths {
		if ctx.Err() != nil {
			break
		}
		f, err := v.files.File(ctx, q)
		if err != nil || f.Skipped == "binary" {
			continue
		}
		switch sim := commonLines(old, lineCounts(f.Src)); {
		case sim > best:
			best, second, at = sim, best, q
		case sim > second:
			second = sim
		}
	}
	return best, second, at
}

// lineCounts counts the lines of src that say something, trimmed.
func lineCounts(src []byte) map[string]int {
	out := map[string]int{}
	for _, l := range splitLines(src) {
		if telling(l) {
			out[string(bytes.TrimSpace(l))]++
		}
	}
	return out
}

// commonLines is twice the lines two texts have in common over all their
// lines (a multiset Dice coefficient).
func commonLines(a, b map[string]int) float64 {
	na, nb, common := 0, 0, 0
	for l, n := range a {
		na += n
		common += min(n, b[l])
	}
	for _, n := range b {
		nb += n
	}
	if na+nb == 0 {
		return 0
	}
	return 2 * float64(common) / float64(na+nb)
}

// keptLines returns the line of f at which the diff from bf, a lines
// anchor's file in Base (nil when Base does not hold its text at its
// lines), keeps lines start..end: all of them, one after another, each as
// it was but for the blanks at its ends; false when it does not.
func (v *Verifier) keptLines(bf, f *File, start, end int) (int, bool) {
	if bf == nil {
		return 0, false
	}
	m, _ := v.alignment(bf, f)
	if end > len(m) || m[start-1] < 0 {
		return 0, false
	}
	for i := start; i < end; i++ {
		if m[i] != m[start-1]+i-start+1 {
			return 0, false
		}
	}
	return m[start-1] + 1, true
}

// shiftedStart returns where line start of Base file bf is in f by the
// lines the diff keeps before it: start moved as the nearest of them was.
func (v *Verifier) shiftedStart(bf, f *File, start int) int {
	m, _ := v.alignment(bf, f)
	for i := min(start-1, len(m)) - 1; i >= 0; i-- {
		if m[i] >= 0 {
			return start + m[i] - i
		}
	}
	return start
}

// withEdges widens s..e, the lines with code where a line anchor's shape
// was found, over the lines without code (comments, and blank lines
// between) it began and ended with, where f has such lines there: a
// range found by its shape begins and ends with code, and would drop a
// comment the person anchored with it. With Base bf, its lines say how
// many there were at each end; without, the lines the window is short of
// the anchor's are taken from the comments above it, then below.
func (v *Verifier) withEdges(a Anchor, bf *File, w *windows, s, e int) (int, int) {
	start, end, _ := a.Range()
	fm := format(a)
	if bf == nil {
		// A blank line says nothing of where the range ended.
		short := end - start - (e - s)
		for ; short > 0 && w.noCode(fm, s-1, false); short-- {
			s--
		}
		for ; short > 0 && w.noCode(fm, e+1, false); short-- {
			e++
		}
		return s, e
	}
	bw := v.windows(bf)
	lead, trail := 0, 0
	for i := start; i < end && bw.noCode(fm, i, true); i++ {
		lead++
	}
	for i := end; i > start+lead && bw.noCode(fm, i, true); i-- {
		trail++
	}
	for ; lead > 0 && w.noCode(fm, s-1, true); lead-- {
		s--
	}
	for ; trail > 0 && w.noCode(fm, e+1, true); trail-- {
		e++
	}
	return s, e
}

// addedAtEdges finds a line of code f gained inside line anchor a as the
// diff from Base file bf pairs its lines, where s..e, the lines its code
// was found at, stops short of them: the range began or ended with lines
// holding no code (a blank line, a Go group's parenthesis, read away
// with the group) that the diff keeps, and code was added between them
// and the range's code. It returns the added line and the stretch of f
// from the range's code to the kept line; 0 when there is none.
func (v *Verifier) addedAtEdges(a Anchor, bf, f *File, s, e int) (line, ls, le int) {
	start, end, _ := a.Range()
	fm := format(a)
	m, _ := v.alignment(bf, f)
	bw, w := v.windows(bf), v.windows(f)
	if end > len(m) {
		return 0, 0, 0
	}
	s, e = w.codeSpan(fm, s, e)
	kept := make([]int, w.n()+2) // the line of bf each line of f keeps
	for i, j := range m {
		if j >= 0 && j+1 < len(kept) {
			kept[j+1] = i + 1
		}
	}
	// gained returns the first line of code the diff added going from
	// line from by step up to line to (both of f, to not included), if
	// every line there is one it added or keeps from old lines olo..ohi
	// (the range's own lines without code); 0 otherwise. Past a blank
	// line, when a blank line is what the diff keeps at to, a line of
	// code is outside: the diff could as well have kept that blank line
	// (code added above or below a blank line that a range begins or ends
	// with, and a blank line of its own).
	gained := func(from, step, to, olo, ohi int) int {
		first, blank := 0, false
		for j := from; j != to; j += step {
			switch q := kept[j]; {
			case q != 0 && (q < olo || q > ohi):
				return 0
			case first > 0 || q != 0:
			case w.blank(j):
				blank = true
			case !w.noCode(fm, j, true) && !(blank && w.blank(to)):
				first = j
			}
		}
		return first
	}
	fc, lc := start, end // the range's first and last lines with code
	for fc < end && bw.noCode(fm, fc, true) {
		fc++
	}
	if bw.noCode(fm, fc, true) {
		return 0, 0, 0
	}
	for lc > fc && bw.noCode(fm, lc, true) {
		lc--
	}
	// The kept line without code farthest below the code, then above.
	for i := end; i > lc; i-- {
		if p := m[i-1] + 1; p > 0 {
			if p > e+1 {
				if j := gained(e+1, 1, p, lc+1, i-1); j > 0 {
					return j, s, p
				}
			}
			break
		}
	}
	for i := start; i < fc; i++ {
		if p := m[i-1] + 1; p > 0 {
			if p < s-1 {
				if j := gained(s-1, -1, p, i+1, fc-1); j > 0 {
					return j, p, e
				}
			}
			break
		}
	}
	return 0, 0, 0
}

// saidAlike reports whether lines start..end of Base file bf say in
// comments what lines s..e of f say (analyzer.Stream.RangeSaid), and how
// alike their words are. A formatter that reflows a comment the range
// cuts (clang-format, google-java-format's Javadoc) moves words across
// its edge: where the words differ, the comments at the edges are read
// whole on both sides.
func (v *Verifier) saidAlike(bf, f *File, start, end, s, e int) (bool, float64) {
	bs, fs := v.stream(bf, analyzer.ShapeCanonical), v.stream(f, analyzer.ShapeCanonical)
	before, after := bs.RangeSaid(start, end), fs.RangeSaid(s, e)
	if before == after {
		return true, 1
	}
	bw, w := v.windows(bf), v.windows(f)
	start, end = bw.wholeComments(start, end)
	s, e = w.wholeComments(s, e)
	if bs.RangeSaid(start, end) == fs.RangeSaid(s, e) {
		return true, 1
	}
	return false, similarity(strings.Fields(before), strings.Fields(after))
}

// baseLineOf returns the line of Base file bf that the diff keeps as line
// h of f; 0 when h is new (or bf is nil).
func (v *Verifier) baseLineOf(bf, f *File, h int) int {
	if bf == nil {
		return 0
	}
	m, _ := v.alignment(bf, f)
	for i, j := range m {
		if j == h-1 {
			return i + 1
		}
	}
	return 0
}

// mapLines maps lines start..end of Base file bf to f through the diff of
// the two: the stretch of f that keeps them. kept is the share of the
// lines that say something that the diff keeps; ok is false when none
// are.
func (v *Verifier) mapLines(bf, f *File, start, end int) (s, e int, kept float64, ok bool) {
	m, lines := v.alignment(bf, f)
	total, n := 0, 0
	s, e = -1, -1
	for i := start - 1; i < end && i < len(lines); i++ {
		if !telling(lines[i]) {
			continue
		}
		total++
		if j := m[i]; j >= 0 {
			n++
			if s < 0 || j+1 < s {
				s = j + 1
			}
			if j+1 > e {
				e = j + 1
			}
		}
	}
	if n == 0 || total == 0 {
		return 0, 0, 0, false
	}
	// The range's own first and last lines, edited, still bound it: up to
	// the lines the diff keeps next to them.
	// At the top or the bottom of the file, the file's own edge.
	width := end - start + 1
	for i := start - 2; i >= start-1-width; i-- {
		if i < 0 {
			s = 1
			break
		}
		if m[i] >= 0 {
			s = min(s, m[i]+2)
			break
		}
	}
	for i := end; i <= end+width; i++ {
		if i >= len(m) {
			e = max(e, v.windows(f).n())
			break
		}
		if m[i] >= 0 {
			e = max(e, m[i])
			break
		}
	}
	return s, e, float64(n) / float64(total), true
}

// pairedBack reports whether new file p, which lore paired itself with a
// Base file that is gone (see renamedTo), is as clearly that file's as
// that file is p's: no other file gone from Base has within 0.1 as many
// lines in common with p. Two files merged into one are each about as
// like it (okhttp 1364ea44ae: DevServerJvm.kt and DevServerAndroid.kt
// became DevServer.kt, the latter a little more like it): the new file
// continues neither more than the other. Git's rename map pairs files
// one to one itself. Cached for the run.
func (v *Verifier) pairedBack(ctx context.Context, p string) bool {
	if x, ok := v.back.Load(p); ok {
		return x.(bool)
	}
	m := v.movesOf(ctx)
	from := m.from[p]
	f := v.fileOrNil(ctx, p)
	ok := from != "" && f != nil
	if ok {
		now := lineCounts(f.Src)
		paired, _ := v.baseLines(ctx, from)
		best := commonLines(paired, now)
		gone := slices.Clone(m.removed)
		for _, q := range m.from {
			gone = append(gone, q)
		}
		for _, q := range gone {
			if q == from || ctx.Err() != nil {
				continue
			}
			if lines, read := v.baseLines(ctx, q); read && commonLines(lines, now) > best-0.1 {
				ok = false
				break
			}
		}
	}
	v.back.Store(p, ok)
	return ok
}
