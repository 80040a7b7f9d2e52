package analyzer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// hashPrefix starts a text hash and a format 1 shape; shapePrefix a
// format 2 shape.
const (
	hashPrefix  = "sha256:"
	shapePrefix = "s2:"
)

// HashText fingerprints text exactly as written, up to line endings and
// trailing blanks: CRLF is read as LF, spaces and tabs at the end of each
// line are dropped, and a final newline does not count. The result is
// "sha256:<hex>".
func HashText(text []byte) string {
	h := sha256.New()
	writeNormalized(h, text)
	return hashPrefix + hex.EncodeToString(h.Sum(nil))
}

func writeNormalized(h hash.Hash, text []byte) {
	if n := len(text); n > 0 && text[n-1] == '\n' {
		text = text[:n-1]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
	}
	first := true
	for {
		i := bytes.IndexByte(text, '\n')
		line := text
		if i >= 0 {
			line = text[:i]
		}
		line = bytes.TrimRight(line, " \t\r")
		if !first {
			h.Write([]byte{'\n'})
		}
		first = false
		h.Write(line)
		if i < 0 {
			return
		}
		text = text[i+1:]
	}
}

// ShapeFormat is a version of the shape fingerprint. A shape or sig says
// its format by its prefix, so learning files written by any lore version
// keep verifying: a verifier compares a baseline with the code read in the
// baseline's own format (see docs/fingerprints.md).
type ShapeFormat int

const (
	// ShapeLexical, format 1 ("sha256:…"): the lexer's tokens without
	// comments. Written by lore before format 2; still read.
	ShapeLexical ShapeFormat = 1
	// ShapeCanonical, format 2 ("s2:…"): the canonical token stream, which
	// formatters cannot change (trailing commas, optional semicolons,
	// redundant parentheses, quote style, number spelling, line breaks,
	// comments and docstrings). What Symbol.Shape and ShapeOf hold.
	ShapeCanonical ShapeFormat = 2
)

// FormatOf returns the format of a shape or sig, or 0 for a string that
// is neither.
func FormatOf(shape string) ShapeFormat {
	switch {
	case strings.HasPrefix(shape, shapePrefix):
		return ShapeCanonical
	case strings.HasPrefix(shape, hashPrefix):
		return ShapeLexical
	}
	return 0
}

// Shape fingerprints tokens (as Stream.Tokens returns them) in format f.
func (f ShapeFormat) Shape(tokens []string) string {
	h := sha256.New()
	for _, t := range tokens {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	prefix := hashPrefix
	if f == ShapeCanonical {
		prefix = shapePrefix
	}
	return prefix + hex.EncodeToString(h.Sum(nil))
}

// Stream is one file read in one shape format: the tokens and shapes of
// its line ranges and its symbols' fingerprints. Build one per file and
// format and ask it many times; it is safe for concurrent use.
type Stream struct {
	format ShapeFormat
	lang   string
	src    []byte
	ls     []int  // line starts
	ct     []ctok // format 2: the canonical stream

	linesOnce sync.Once
	lineCt    []int      // format 2: index in ct of each line's first token
	lineTk    [][]string // format 1: each line's tokens, read alone

	canonOnce sync.Once
	canon     []ctok // format 1: the canonical stream, for Symbol's sigs

	lexOnce sync.Once
	lex     []span // the lexer's tokens: what is not a comment (see RangeSaid)

	spellOnce sync.Once
	spelt     []string // format 2: ct as Tokens spells it (see FindRange)
}

// Stream reads src (a whole file) as lang (a language name such as "go"
// or "python", see Table) in format f; an unknown format reads as
// ShapeCanonical.
func (f ShapeFormat) Stream(lang string, src []byte) *Stream {
	if f != ShapeLexical {
		f = ShapeCanonical
	}
	s := &Stream{format: f, lang: lang, src: src, ls: lineStarts(src)}
	if f == ShapeCanonical {
		s.ct = canonTokens(nil, lang, src, lexSpec(lang).tokens(src, nil), nil)
	}
	return s
}

// span returns the byte range of lines start..end, the whole file when
// both are 0.
func (s *Stream) span(start, end int) (a, b int, ok bool) {
	if start == 0 && end == 0 {
		return 0, len(s.src), true
	}
	return lineSpan(s.src, s.ls, start, end)
}

// Tokens returns the tokens of lines start..end (1-based, inclusive; the
// whole file when both are 0). Format 2 reads a range within its file.
func (s *Stream) Tokens(start, end int) []string {
	a, b, ok := s.span(start, end)
	if !ok {
		return nil
	}
	if s.format == ShapeLexical {
		return Tokens(s.lang, s.src[a:b])
	}
	lo, hi := canonRange(s.ct, a, b)
	out := make([]string, 0, hi-lo)
	var buf []byte
	for _, t := range s.ct[lo:hi] {
		buf = appendCanon(buf[:0], s.src, t)
		out = append(out, string(buf))
	}
	return out
}

// FindRange returns, in format 2, the line ranges of s that hold the
// tokens of base's lines start..end one after another, from the line of
// the first to the line of the last. A formatter that joins or splits
// lines (a return type put on its function's line) moves a line range's
// edges into the middle of lines, where no window of whole lines reads
// its shape; its tokens stay in order. What a found range's first line
// holds before them and its last line after them must be the tokens next
// to the range in base: the lines it was joined with, not an edit. A run
// the stream sorted (imports, includes) is read as a window reads it:
// whole, where the range takes part of it, and by the places its tokens
// took, not their own.
func (s *Stream) FindRange(base *Stream, start, end int) [][2]int {
	a, b, ok := base.span(start, end)
	if !ok || s.format != ShapeCanonical || base.format != ShapeCanonical {
		return nil
	}
	lo, hi := canonRange(base.ct, a, b)
	bc, sc := base.canonStrings(), s.canonStrings()
	if lo >= hi {
		return nil
	}
	// The tokens of a sorted run the range takes part of, before and
	// after its lines, are searched too, but hold none of its lines.
	nb, na := 0, 0
	for nb < hi-lo && lineAt(base.ls, int(base.ct[lo+nb].pos)) < start {
		nb++
	}
	for na < hi-lo-nb && lineAt(base.ls, int(base.ct[hi-1-na].pos)) > end {
		na++
	}
	if nb+na == hi-lo {
		return nil
	}
	toks := bc[lo:hi]
	first := func(t ctok) int {
		if t.run != 0 {
			return lineAt(s.ls, int(t.pos))
		}
		return lineAt(s.ls, int(t.start))
	}
	last := func(t ctok) int {
		if t.run != 0 {
			return lineAt(s.ls, int(t.pos))
		}
		return lineAt(s.ls, int(t.end)-1)
	}
	// sameEdges reports whether the two tokens on each side of sc[i:e]
	// are those next to the base's (a directive's "#" and its name, an
	// import group's bracket): a sorted run searched whole must end where
	// it ended, or it grew or shrank (an import added or removed).
	sameEdges := func(i, e int) bool {
		n := 2
		return slices.Equal(sc[max(0, i-n):i], bc[max(0, lo-n):lo]) && slices.Equal(sc[e:min(len(sc), e+n)], bc[hi:min(len(bc), hi+n)])
	}
	var out [][2]int
	for i := 0; i+len(toks) <= len(sc); i++ {
		if !slices.Equal(sc[i:i+len(toks)], toks) {
			continue
		}
		if nb+na > 0 && !sameEdges(i, i+len(toks)) {
			continue
		}
		if e := i + len(toks); i > 0 && s.ct[i].run != 0 && s.ct[i-1].run == s.ct[i].run ||
			e < len(s.ct) && s.ct[e-1].run != 0 && s.ct[e].run == s.ct[e-1].run {
			continue // part of a run sorted here: its tokens hold places, not their lines
		}
		from, to := i+nb, i+len(toks)-na // the range's own tokens
		l0, l1 := first(s.ct[from]), last(s.ct[to-1])
		for _, t := range s.ct[from:to] {
			l0, l1 = min(l0, first(t)), max(l1, last(t))
		}
		p := 0 // tokens before them on the first line
		for from-p-1 >= 0 && first(s.ct[from-p-1]) == l0 {
			p++
		}
		q := 0 // and after them on the last line
		for to+q < len(s.ct) && first(s.ct[to+q]) == l1 {
			q++
		}
		bf, bt := lo+nb, hi-na
		if p <= bf && bt+q <= len(bc) &&
			slices.Equal(sc[from-p:from], bc[bf-p:bf]) && slices.Equal(sc[to:to+q], bc[bt:bt+q]) {
			out = append(out, [2]int{l0, l1})
		}
	}
	return out
}

// canonStrings returns the stream's tokens as Tokens spells them, read
// once: a verifier searches one file for many ranges.
func (s *Stream) canonStrings() []string {
	s.spellOnce.Do(func() {
		s.spelt = make([]string, len(s.ct))
		var buf []byte
		for i, t := range s.ct {
			buf = appendCanon(buf[:0], s.src, t)
			s.spelt[i] = string(buf)
		}
	})
	return s.spelt
}

// RangeWhole reports whether lines start..end hold whole tokens only: no
// token (a raw string over many lines) crosses their edges, so Tokens
// reads all they hold.
func (s *Stream) RangeWhole(start, end int) bool {
	a, b, ok := s.span(start, end)
	if !ok || s.format != ShapeCanonical {
		return ok
	}
	crosses := func(o int) bool {
		k := sort.Search(len(s.ct), func(k int) bool { return int(s.ct[k].pos) >= o }) - 1
		return k >= 0 && int(s.ct[k].start) < o && int(s.ct[k].end) > o
	}
	return !crosses(a) && !crosses(b)
}

// RangeHasCode reports whether lines start..end hold a token of the
// stream, or part of one: false for a range of comments only, which
// RangeShape reads as words in format 2.
func (s *Stream) RangeHasCode(start, end int) bool {
	a, b, ok := s.span(start, end)
	switch {
	case !ok:
		return false
	case s.format == ShapeLexical:
		return len(Tokens(s.lang, s.src[a:b])) > 0
	}
	return s.window(a, b, func([]byte) {})
}

// RangeShape is the shape of lines start..end as a line anchor reads them
// (see window): Shape, but for a range that cuts a token (a raw string
// over many lines) or holds none (comments only). A symbol does neither;
// its shape is Shape's, as its parse gives it.
func (s *Stream) RangeShape(start, end int) string {
	a, b, ok := s.span(start, end)
	if !ok || s.format == ShapeLexical {
		return s.Shape(start, end)
	}
	var buf []byte
	s.window(a, b, func(tok []byte) { buf = append(append(buf, tok...), 0) })
	return digestAs(shapePrefix, buf)
}

// window calls tok with each canonical token of src[a:b], the bytes of a
// line range: the tokens placed there (canonRange), but where a token
// crosses the range's edge (a raw string over many lines) its part inside
// the range, blanks left out, so that a range inside a help text reads
// that text. A range with text but no token (comments only, a docstring
// the stream leaves out) reads as one token: its words. code says whether
// the range held a token of the stream (or part of one).
func (s *Stream) window(a, b int, tok func([]byte)) (code bool) {
	lo, hi := canonRange(s.ct, a, b)
	var buf []byte
	n := 0
	if k := sort.Search(len(s.ct), func(k int) bool { return int(s.ct[k].pos) >= a }) - 1; k >= 0 {
		if t := s.ct[k]; t.run == 0 && int(t.start) < a && int(t.end) > a {
			if buf = appendUnblank(buf[:0], s.src[a:min(int(t.end), b)]); len(buf) > 0 {
				tok(buf)
				n++
			}
		}
	}
	for k, t := range s.ct[lo:hi] {
		if k == hi-lo-1 && t.run == 0 && int(t.start) < b && int(t.end) > b {
			buf = appendUnblank(buf[:0], s.src[t.start:b])
		} else {
			buf = appendCanon(buf[:0], s.src, t)
		}
		tok(buf)
		n++
	}
	if n == 0 && a < b {
		if buf = appendSaid(buf[:0], s.src[a:b]); len(buf) > 0 {
			tok(buf)
		}
	}
	return n > 0
}

// RangeSaid is what lines start..end say in comments: their words (see
// appendSaid), and in format 2 the words of strings the stream leaves out
// (Python's docstrings). A shape reads code only; a verifier that holds
// the text a line range was recorded on compares what it says too. A
// string the stream leaves out that crosses the range's edge says its
// part inside the range, and that it goes on: a one-line docstring made
// longer is not the same text.
func (s *Stream) RangeSaid(start, end int) string {
	a, b, ok := s.span(start, end)
	if !ok {
		return ""
	}
	s.lexOnce.Do(func() { s.lex = lexSpec(s.lang).tokens(s.src, nil) })
	var kept map[int]bool // format 2: where the stream's tokens begin
	if s.format == ShapeCanonical {
		kept = map[int]bool{}
		// Over whole tokens: a string the range cuts is one the stream
		// keeps (code), or one it leaves out.
		wa, wb := a, b
		if i := sort.Search(len(s.lex), func(k int) bool { return s.lex[k].end > a }); i < len(s.lex) {
			wa = min(wa, s.lex[i].start)
		}
		if i := sort.Search(len(s.lex), func(k int) bool { return s.lex[k].end >= b }); i < len(s.lex) && s.lex[i].start < b {
			wb = max(wb, s.lex[i].end)
		}
		lo, hi := canonRange(s.ct, wa, wb)
		for _, t := range s.ct[lo:hi] {
			if !t.separator() { // Python's block opening sits on its first token
				kept[int(t.start)] = true
			}
		}
	}
	var buf []byte
	said := func(text []byte) {
		if buf = appendSaid(buf, text); len(buf) > 0 && buf[len(buf)-1] != ' ' {
			buf = append(buf, ' ')
		}
	}
	gap := func(lo, hi int) { // the text between two tokens
		if (s.lang == "cpp" || s.lang == "c") && lo > 0 && s.src[lo-1] == '}' {
			lo += namespaceComment(s.src[lo:hi])
		}
		said(s.src[lo:hi])
	}
	at := a
	for i := sort.Search(len(s.lex), func(k int) bool { return s.lex[k].end > a }); i < len(s.lex) && s.lex[i].start < b; i++ {
		sp := s.lex[i]
		if sp.start > at {
			gap(at, sp.start)
		}
		if kept != nil && !kept[sp.start] && quoted(s.src[sp.start:sp.end]) {
			said(s.src[max(sp.start, a):min(sp.end, b)]) // a docstring's part in the range
			if sp.start < a || sp.end > b {
				buf = append(buf, "… "...) // and that it goes on past an edge
			}
		}
		at = max(at, sp.end)
	}
	if at < b {
		gap(at, b)
	}
	return string(buf)
}

// namespaceComment returns the length of the comment at the start of
// text, which follows a closing brace, when it says only which namespace
// the brace closes (`}  // namespace a::b`): clang-format writes them
// (FixNamespaceComments), so they are the formatter's words, not the
// author's; 0 for any other text.
func namespaceComment(text []byte) int {
	i := 0
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if !bytes.HasPrefix(text[i:], []byte("//")) {
		return 0
	}
	end := len(text)
	if nl := bytes.IndexByte(text[i:], '\n'); nl >= 0 {
		end = i + nl
	}
	words := strings.Fields(string(appendSaid(nil, text[i:end])))
	if len(words) > 0 && words[0] == "end" {
		words = words[1:]
	}
	if len(words) == 0 || words[0] != "namespace" {
		return 0
	}
	return end
}

// quoted reports whether a token is a string literal: it ends with a
// quote (a prefix such as Python's r or b may precede the first).
func quoted(tok []byte) bool {
	if len(tok) < 2 {
		return false
	}
	c := tok[len(tok)-1]
	return c == '"' || c == '\'' || c == '`'
}

// appendUnblank appends b without its blanks.
func appendUnblank(buf, b []byte) []byte {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			buf = append(buf, c)
		}
	}
	return buf
}

// appendSaid appends the words of b (runs of letters and digits), one
// space after each: what a comment says, whatever its markers and line
// breaks.
func appendSaid(buf, b []byte) []byte {
	in := false
	for _, r := range string(b) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			buf = utf8.AppendRune(buf, r)
			in = true
		} else if in {
			buf = append(buf, ' ')
			in = false
		}
	}
	return buf
}

// Shape is the shape of lines start..end (the whole file when both are
// 0): s.format.Shape(s.Tokens(start, end)), without the strings.
func (s *Stream) Shape(start, end int) string {
	a, b, ok := s.span(start, end)
	if !ok {
		return s.format.Shape(nil)
	}
	if s.format == ShapeLexical {
		return shapeSpans(s.src[a:b], lexSpec(s.lang).tokens(s.src[a:b], nil))
	}
	lo, hi := canonRange(s.ct, a, b)
	return digestAs(shapePrefix, appendStream(nil, s.src, s.ct[lo:hi]))
}

// Symbol returns the shape and sig of sym, a symbol of the stream's file,
// in the stream's format. A Symbol carries format 2; format 1, which lore
// wrote before, is computed, its header told by the format 2 sig: the
// shortest prefix of the canonical tokens that fingerprints to it.
func (s *Stream) Symbol(sym Symbol) (shape, sig string) {
	if s.format != ShapeLexical || FormatOf(sym.Shape) != ShapeCanonical {
		return sym.Shape, sym.Sig
	}
	a, b, ok := lineSpan(s.src, s.ls, sym.StartLine, sym.EndLine)
	if !ok {
		return "", ""
	}
	text := s.src[a:b]
	spans := lexSpec(s.lang).tokens(text, nil)
	shape = shapeSpans(text, spans)
	want, err := hex.DecodeString(strings.TrimPrefix(sym.Sig, shapePrefix))
	if sym.Sig == sym.Shape || err != nil {
		return shape, shape
	}
	s.canonOnce.Do(func() { s.canon = canonTokens(nil, s.lang, s.src, lexSpec(s.lang).tokens(s.src, nil), nil) })
	ct := s.canon
	lo, hi := canonRange(ct, a, b)
	h := sha256.New()
	var buf []byte
	var sum [sha256.Size]byte
	for k := lo; k < hi; k++ {
		if k > lo && !ct[k-1].separator() && string(h.Sum(sum[:0])) == string(want) {
			hdr := int(ct[k].pos) - a
			n := sort.Search(len(spans), func(i int) bool { return spans[i].start >= hdr })
			return shape, shapeSpans(text, spans[:n])
		}
		buf = appendCanon(buf[:0], s.src, ct[k])
		h.Write(buf)
		h.Write([]byte{0})
	}
	return shape, shape
}

// Lines is the number of lines of the file.
func (s *Stream) Lines() int { return len(s.ls) }

// FindShape returns the windows of lines (first, last) whose shape is
// shape, nearest to line near first: windows begin and end on a line with
// tokens and span at most maxLen lines; of the windows starting on one
// line, the shortest.
func (s *Stream) FindShape(shape string, maxLen, near int) [][2]int {
	if FormatOf(shape) != s.format {
		return nil
	}
	n := len(s.ls)
	if len(s.src) > 0 && s.src[len(s.src)-1] == '\n' {
		n-- // the empty "line" after a final newline
	}
	var out [][2]int
	h := sha256.New()
	var sum []byte
	var buf []byte
	for start := 1; start <= n; start++ {
		if !s.lineHasCode(start) {
			continue
		}
		h.Reset()
		var pending []ctok // separators not yet written: a window does not end with them
		started := false
		for end := start; end <= n && end-start < maxLen; end++ {
			if s.format == ShapeLexical {
				for _, t := range s.lineTokens(end) {
					h.Write([]byte(t))
					h.Write([]byte{0})
				}
			} else {
				s.linesOnce.Do(s.splitLines)
				for _, t := range s.ct[s.lineCt[end-1]:s.lineCt[end]] {
					if t.separator() {
						if started {
							pending = append(pending, t)
						}
						continue
					}
					for _, p := range append(pending, t) {
						buf = appendCanon(buf[:0], s.src, p)
						h.Write(append(buf, 0))
					}
					pending, started = pending[:0], true
				}
			}
			if !s.lineHasCode(end) {
				continue
			}
			sum = h.Sum(sum[:0])
			prefix := hashPrefix
			if s.format == ShapeCanonical {
				prefix = shapePrefix
			}
			if prefix+hex.EncodeToString(sum) == shape {
				// Confirm on the window's own tokens: format 1 reads each
				// line alone (a token may span lines); format 2's window
				// may take part of a sorted run or of a long token.
				if s.RangeShape(start, end) == shape {
					out = append(out, [2]int{start, end})
				}
				break
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		di, dj := abs(out[i][0]-near), abs(out[j][0]-near)
		if di != dj {
			return di < dj
		}
		return out[i][0] < out[j][0]
	})
	return out
}

// lineHasCode reports whether line i (1-based) holds a token.
func (s *Stream) lineHasCode(i int) bool {
	if s.format == ShapeLexical {
		return len(s.lineTokens(i)) > 0
	}
	s.linesOnce.Do(s.splitLines)
	for _, t := range s.ct[s.lineCt[i-1]:s.lineCt[i]] {
		if !t.separator() {
			return true
		}
	}
	return false
}

// lineTokens returns the format 1 tokens of line i read alone.
func (s *Stream) lineTokens(i int) []string {
	s.linesOnce.Do(s.splitLines)
	return s.lineTk[i-1]
}

// splitLines finds each line's tokens.
func (s *Stream) splitLines() {
	if s.format == ShapeLexical {
		s.lineTk = make([][]string, len(s.ls))
		for k := range s.lineTk {
			a, b, _ := lineSpan(s.src, s.ls, k+1, k+1)
			s.lineTk[k] = Tokens(s.lang, s.src[a:b])
		}
		return
	}
	s.lineCt = make([]int, len(s.ls)+1)
	for l := range s.ls {
		s.lineCt[l] = sort.Search(len(s.ct), func(k int) bool { return int(s.ct[k].pos) >= s.ls[l] })
	}
	s.lineCt[len(s.ls)] = len(s.ct)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func shapeSpans(src []byte, toks []span) string {
	h := sha256.New()
	for _, t := range toks {
		h.Write(src[t.start:t.end])
		h.Write([]byte{0})
	}
	return hashPrefix + hex.EncodeToString(h.Sum(nil))
}

// Tokens returns the lexer's tokens of src read as lang: whitespace, line
// breaks and comments are not tokens; string literals are one token each.
// For an unknown lang, src is split on whitespace and punctuation. These
// are format 1's tokens, and what sketches and token similarity read.
func Tokens(lang string, src []byte) []string {
	spans := lexSpec(lang).tokens(src, nil)
	out := make([]string, len(spans))
	for i, t := range spans {
		out[i] = string(src[t.start:t.end])
	}
	return out
}

// ShapeOf is the format 2 shape of the whole of src read as lang.
func ShapeOf(lang string, src []byte) string {
	return ShapeCanonical.Stream(lang, src).Shape(0, 0)
}

// Lines returns the text of lines start..end (1-based, inclusive) of src,
// including the last line's newline, clipped to the file. ok is false when
// the range is empty or starts past the end.
// It reads src only up to the end of those lines: relocation asks for a
// few lines of many symbols of one file.
func Lines(src []byte, start, end int) (text []byte, ok bool) {
	start = max(start, 1)
	if start > end {
		return nil, false
	}
	a := 0
	for line := 1; line < start; line++ {
		j := bytes.IndexByte(src[a:], '\n')
		if j < 0 {
			return nil, false // past the last line
		}
		a += j + 1
	}
	if a == len(src) && start > 1 {
		return nil, false // the empty "line" after a final newline
	}
	b := a
	for line := start; line <= end; line++ {
		j := bytes.IndexByte(src[b:], '\n')
		if j < 0 {
			b = len(src)
			break
		}
		b += j + 1
	}
	return src[a:b], true
}

// RangeTokens returns the lexer's tokens (see Tokens) of lines
// start..end of src read as lang.
func RangeTokens(lang string, src []byte, start, end int) []string {
	text, ok := Lines(src, start, end)
	if !ok {
		return nil
	}
	return Tokens(lang, text)
}

// Fingerprint holds the hash and shape of a stretch of text.
type Fingerprint struct {
	Hash  string `json:"hash"`
	Shape string `json:"shape"`
}

// RangeFingerprint fingerprints lines start..end of src (the whole file)
// read as lang; the whole file when start and end are 0. The result
// equals a Symbol's Hash and Shape for the symbol's lines.
func RangeFingerprint(lang string, src []byte, start, end int) (Fingerprint, bool) {
	text := src
	if start != 0 || end != 0 {
		var ok bool
		if text, ok = Lines(src, start, end); !ok {
			return Fingerprint{}, false
		}
	}
	return Fingerprint{Hash: HashText(text), Shape: ShapeCanonical.Stream(lang, src).RangeShape(start, end)}, true
}

// lineStarts returns the byte offset of the start of every line.
func lineStarts(src []byte) []int { return appendLineStarts(nil, src) }

// appendLineStarts is lineStarts into buf.
func appendLineStarts(buf []int, src []byte) []int {
	ls := append(buf[:0], 0)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return ls
		}
		i += j + 1
		ls = append(ls, i)
	}
}

// lineAt returns the 1-based line of offset o, given the line starts ls.
func lineAt(ls []int, o int) int {
	return sort.Search(len(ls), func(i int) bool { return ls[i] > o })
}

func lineSpan(src []byte, ls []int, start, end int) (a, b int, ok bool) {
	if start < 1 {
		start = 1
	}
	if end > len(ls) {
		end = len(ls)
	}
	if start > end || start > len(ls) {
		return 0, 0, false
	}
	a = ls[start-1]
	if end < len(ls) {
		b = ls[end]
	} else {
		b = len(src)
	}
	if a > len(src) || (a == len(src) && start > 1) {
		return 0, 0, false
	}
	return a, b, true
}

// digests is a symbol's Hash as a raw SHA-256 sum, all the index keeps
// of its fingerprints (see Parser.parse); ok is false for a symbol whose
// lines are not in the file (its fingerprints are then empty).
type digests struct {
	ok   bool
	hash [sha256.Size]byte
}

// fingerprint fills Hash, Shape and Sig of syms from the file's line
// starts ls and canonical stream ct (sorted by pos), or, when raw is not
// nil, raw[i] with the hash of syms[i] alone (the index stores it so,
// sparing the hex of every symbol being formatted and parsed back; see
// Parser.parse for why it keeps no shapes). header[i] is
// the byte offset where symbol i's body starts, or -1 when the whole
// symbol is its header. buf is scratch space, returned for reuse: each
// fingerprint is one SHA-256 over one buffer instead of a write per line
// or token.
func fingerprint(src []byte, ls []int, ct []ctok, syms []Symbol, header []int, buf []byte, raw []digests) []byte {
	h := sha256.New() // a header's state, summed, goes on to the body
	clean := cleanLines(src, ls)
	for i := range syms {
		s := &syms[i]
		a, b, ok := lineSpan(src, ls, s.StartLine, s.EndLine)
		if !ok {
			continue
		}
		var text []byte
		if clean {
			text = bytes.TrimSuffix(src[a:b], []byte("\n"))
		} else if text, ok = normalText(src[a:b]); !ok {
			buf = appendNormalized(buf[:0], src[a:b])
			text = buf
		}
		hash := sha256.Sum256(text)
		if raw != nil {
			raw[i] = digests{ok: true, hash: hash}
			continue
		}
		var shape, sig [sha256.Size]byte
		lo, hi := canonRange(ct, a, b)
		sigEnd := -1
		if header[i] >= 0 && header[i] < b {
			k := lo + sort.Search(hi-lo, func(k int) bool { return int(ct[lo+k].pos) >= header[i] })
			_, sigEnd = trimSeparators(ct, lo, k)
		}
		buf = buf[:0]
		sigLen := 0
		for k := lo; k < hi; k++ {
			if k == sigEnd {
				sigLen = len(buf)
			}
			buf = appendCanon(buf, src, ct[k])
			buf = append(buf, 0)
		}
		if sigEnd == hi {
			sigLen = len(buf)
		}
		if sigEnd < 0 {
			shape = sha256.Sum256(buf)
		} else {
			h.Reset()
			h.Write(buf[:sigLen])
			h.Sum(sig[:0])
			h.Write(buf[sigLen:])
			h.Sum(shape[:0])
		}
		s.Hash = sumAs(hashPrefix, &hash)
		s.Shape = sumAs(shapePrefix, &shape)
		s.Sig = s.Shape
		if sigEnd >= 0 {
			s.Sig = sumAs(shapePrefix, &sig)
		}
	}
	return buf
}

// cleanLines reports whether no line of src (with line starts ls) ends
// in a blank, a tab or a carriage return, as most files: normalText then
// reads nothing away from any run of its whole lines but a final line
// break, and symbols need not be scanned for it one by one.
func cleanLines(src []byte, ls []int) bool {
	blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }
	for _, s := range ls[1:] { // src[s-1] is a line break
		if s >= 2 && blank(src[s-2]) {
			return false
		}
	}
	return len(src) == 0 || !blank(src[len(src)-1])
}

// normalText returns what appendNormalized would append for text when
// that is text itself less its final line break, which it is when no line
// ends in a blank, a tab or a carriage return (most files and symbols):
// the text is then hashed as it is, not copied first.
func normalText(text []byte) ([]byte, bool) {
	if n := len(text); n > 0 && text[n-1] == '\n' {
		text = text[:n-1]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
	}
	for rest := text; ; {
		i := bytes.IndexByte(rest, '\n')
		end := i
		if i < 0 {
			end = len(rest)
		}
		if end > 0 {
			if c := rest[end-1]; c == ' ' || c == '\t' || c == '\r' {
				return nil, false
			}
		}
		if i < 0 {
			return text, true
		}
		rest = rest[i+1:]
	}
}

// appendNormalized appends text as writeNormalized hashes it.
func appendNormalized(buf, text []byte) []byte {
	if n := len(text); n > 0 && text[n-1] == '\n' {
		text = text[:n-1]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
	}
	for {
		i := bytes.IndexByte(text, '\n')
		line := text
		if i >= 0 {
			line = text[:i]
		}
		buf = append(buf, bytes.TrimRight(line, " \t\r")...)
		if i < 0 {
			return buf
		}
		buf = append(buf, '\n')
		text = text[i+1:]
	}
}

// digestString is "sha256:<hex>" of b, with one allocation.
func digestString(b []byte) string { return digestAs(hashPrefix, b) }

// digestAs is prefix + the hex SHA-256 of b, with one allocation.
func digestAs(prefix string, b []byte) string {
	sum := sha256.Sum256(b)
	return sumAs(prefix, &sum)
}

// sumAs is prefix + the hex of sum, with one allocation.
func sumAs(prefix string, sum *[sha256.Size]byte) string {
	var out [len(hashPrefix) + 2*sha256.Size]byte
	n := copy(out[:], prefix)
	hex.Encode(out[n:], sum[:])
	return string(out[:n+2*sha256.Size])
}
