package anchors

import (
	"bytes"
	"sort"
	"unicode"

	"github.com/lorehq/lore/analyzer"
)

// windows searches a file for stretches of lines: by exact text, by
// shape (formatting-insensitive) and by token similarity.
type windows struct {
	f      *File
	v      *Verifier
	starts []int      // byte offset of each line
	toks   [][]string // tokens of each line, computed on demand
}

// windows returns the windows of f, its shapes read through the run's
// cache.
func (v *Verifier) windows(f *File) *windows {
	w := &windows{f: f, v: v, starts: []int{0}}
	for i, c := range f.Src {
		if c == '\n' && i+1 < len(f.Src) {
			w.starts = append(w.starts, i+1)
		}
	}
	if len(f.Src) == 0 {
		w.starts = nil
	}
	return w
}

// n is the number of lines.
func (w *windows) n() int { return len(w.starts) }

func (w *windows) text(s, e int) []byte {
	a := w.starts[s-1]
	b := len(w.f.Src)
	if e < len(w.starts) {
		b = w.starts[e]
	}
	return w.f.Src[a:b]
}

func (w *windows) hash(s, e int) string {
	if s < 1 || e > w.n() || s > e {
		return ""
	}
	return analyzer.HashText(w.text(s, e))
}

// shape is the shape of lines s..e in format fm.
func (w *windows) shape(s, e int, fm analyzer.ShapeFormat) string {
	if s < 1 || e > w.n() || s > e {
		return ""
	}
	return w.v.stream(w.f, fm).RangeShape(s, e)
}

// byDistance orders starts by distance from near, earlier first on ties.
func byDistance(xs []int, near int) {
	sort.SliceStable(xs, func(i, j int) bool {
		di, dj := abs(xs[i]-near), abs(xs[j]-near)
		if di != dj {
			return di < dj
		}
		return xs[i] < xs[j]
	})
}

// findHash returns the first lines of every n-line window with the given
// text hash, nearest to near first.
func (w *windows) findHash(h string, n, near int) []int {
	if h == "" || n < 1 {
		return nil
	}
	var out []int
	for s := 1; s+n-1 <= w.n(); s++ {
		if w.hash(s, s+n-1) == h {
			out = append(out, s)
		}
	}
	byDistance(out, near)
	return out
}

func (w *windows) lineTokens(i int) []string {
	if w.toks == nil {
		w.toks = make([][]string, w.n())
		for k := range w.toks {
			w.toks[k] = analyzer.Tokens(w.f.Lang, w.text(k+1, k+1))
		}
	}
	return w.toks[i-1]
}

// findShape returns windows (first, last line) whose shape is shape,
// nearest to near first. A window may have any length up to twice n plus
// some slack.
func (w *windows) findShape(shape string, n, near int) [][2]int {
	if shape == "" {
		return nil
	}
	return w.v.stream(w.f, analyzer.FormatOf(shape)).FindShape(shape, 2*n+8, near)
}

// noCode reports whether line i is in the file and holds no code of
// format fm: a comment's, or a blank one when blanks is set.
func (w *windows) noCode(fm analyzer.ShapeFormat, i int, blanks bool) bool {
	if i < 1 || i > w.n() {
		return false
	}
	if w.blank(i) {
		return blanks
	}
	return !w.v.stream(w.f, fm).RangeHasCode(i, i)
}

// codeSpan narrows lines s..e to the first and last that hold code of
// format fm; s..e when none does.
func (w *windows) codeSpan(fm analyzer.ShapeFormat, s, e int) (int, int) {
	cs, ce := s, e
	for cs < ce && w.noCode(fm, cs, true) {
		cs++
	}
	for ce > cs && w.noCode(fm, ce, true) {
		ce--
	}
	if w.noCode(fm, cs, true) {
		return s, e
	}
	return cs, ce
}

// wholeComments widens lines s..e over the comment lines next to them:
// the rest of a comment the range cuts, or of one that begins at the end
// of its last line of code.
func (w *windows) wholeComments(s, e int) (int, int) {
	comment := func(i int) bool { return w.noCode(analyzer.ShapeCanonical, i, false) }
	for comment(s - 1) {
		s--
	}
	for comment(e + 1) {
		e++
	}
	return s, e
}

// blank reports whether line i holds nothing but blanks.
func (w *windows) blank(i int) bool { return len(bytes.TrimSpace(w.text(i, i))) == 0 }

// says reports whether lines s..e hold a letter or a digit: a word, where
// "/**" or "*/" alone holds none.
func (w *windows) says(s, e int) bool {
	return bytes.IndexFunc(w.text(s, e), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// findWords returns the windows of comments whose words are shape's (see
// analyzer.Stream.RangeShape), starting within n+8 lines of near, of at
// most 2n+8 lines, beginning and ending on a line that is not blank,
// nearest first.
func (w *windows) findWords(shape string, n, near int) [][2]int {
	st := w.v.stream(w.f, analyzer.ShapeCanonical)
	var out [][2]int
	for d := 0; d <= n+8; d++ {
		starts := []int{near - d, near + d}
		if d == 0 {
			starts = starts[:1]
		}
		for _, s := range starts {
			if s < 1 || s > w.n() || w.blank(s) {
				continue
			}
			for e := s; e <= w.n() && e-s < 2*n+8; e++ {
				if st.RangeHasCode(s, e) {
					break
				}
				if !w.blank(e) && st.RangeShape(s, e) == shape {
					out = append(out, [2]int{s, e})
					break
				}
			}
		}
	}
	return out
}

// mostSimilar returns the window most similar to toks: windows of about n
// lines are ranked by shingle overlap, the best few scored by similarity;
// ties go to the window nearest to near.
func (w *windows) mostSimilar(toks []string, n, near int) (int, int, float64) {
	base := shingles(toks)
	if len(base) == 0 || w.n() == 0 {
		return 0, 0, 0
	}
	type win struct {
		s, e int
		j    float64
	}
	var top []win
	const keep = 8
	k := 3
	if len(toks) < k {
		k = 1
	}
	lo, hi := max(1, n*2/3), n*3/2+1
	var cur []string
	for s := 1; s <= w.n(); s++ {
		if len(w.lineTokens(s)) == 0 {
			continue
		}
		// Grow the window line by line, keeping its shingles and their
		// overlap with base up to date.
		cur = cur[:0]
		seen := map[uint64]struct{}{}
		inter := 0
		for e := s; e <= w.n() && e-s+1 <= hi; e++ {
			from := len(cur)
			cur = append(cur, w.lineTokens(e)...)
			for i := max(from, k-1); i < len(cur); i++ {
				h := shingleHash(cur[i-k+1 : i+1])
				if _, dup := seen[h]; dup {
					continue
				}
				seen[h] = struct{}{}
				if _, ok := base[h]; ok {
					inter++
				}
			}
			if e-s+1 < lo {
				continue
			}
			j := float64(inter) / float64(len(base)+len(seen)-inter)
			if len(top) < keep || j > top[len(top)-1].j {
				top = append(top, win{s, e, j})
				sort.SliceStable(top, func(a, b int) bool { return top[a].j > top[b].j })
				if len(top) > keep {
					top = top[:keep]
				}
			}
		}
	}
	bs, be, best := 0, 0, -1.0
	for _, c := range top {
		var cur []string
		for e := c.s; e <= c.e; e++ {
			cur = append(cur, w.lineTokens(e)...)
		}
		sim := similarity(toks, cur)
		if sim > best || (sim == best && abs(c.s-near) < abs(bs-near)) {
			bs, be, best = c.s, c.e, sim
		}
	}
	if best < 0 {
		return 0, 0, 0
	}
	return bs, be, best
}

// maxSketchTokens bounds the tokens read by mostSimilarSketch, so that a
// large file costs a bounded time; windows nearest to the old lines are
// read first.
const maxSketchTokens = 2_000_000

// mostSimilarSketch returns the n-line window whose tokens are most
// similar to sk (see sketch.similarity); ties go to the window nearest to
// near.
func (w *windows) mostSimilarSketch(sk sketch, n, near int) (int, int, float64) {
	if n < 1 || w.n() == 0 {
		return 0, 0, 0
	}
	n = min(n, w.n())
	starts := make([]int, 0, w.n()-n+1)
	for s := 1; s+n-1 <= w.n(); s++ {
		starts = append(starts, s)
	}
	byDistance(starts, near)
	var buf []string
	bestS, best, budget := 0, -1.0, maxSketchTokens
	for _, s := range starts {
		buf = buf[:0]
		for i := s; i < s+n; i++ {
			buf = append(buf, w.lineTokens(i)...)
		}
		if budget -= len(buf); budget < 0 {
			break
		}
		got, ok := sketchTokens(buf, "", "")
		if !ok {
			continue
		}
		if sim := sk.similarity(got); sim > best {
			bestS, best = s, sim
		}
	}
	if best < 0 {
		return 0, 0, 0
	}
	return bestS, bestS + n - 1, best
}
