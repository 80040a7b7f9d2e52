package analyzer

import (
	"sort"
)

// Shape format 2 reads code as a canonical token stream: the tokens a
// formatter cannot change, in a spelling it cannot change either. What
// each language's stream leaves out or respells, and why none of it can
// hide a change of behaviour, is written down in docs/fingerprints.md;
// the rules live in lexcanon_*.go, one file per language family.

// ctok is one token of a canonical stream. pos orders the stream and
// places the token in the source (for line ranges and headers); start and
// end are the source bytes it stands for, which for a repeated token (Go's
// grouped parameters) lie elsewhere; kind says how those bytes are spelt
// canonically.
type ctok struct {
	pos, start, end int32
	kind            ckind
	lang            langCode // the number and string rules of kind
	tag             uint8    // Go: what the token is (see goTag); shell: a cBquote's ends; PHP: how a cPHP is spelt; Ruby: a cRubyRegexp part's flag x, a %Q part's, a heredoc part's (see heredocParts); 0 in other languages
	// run marks the tokens of a stretch a pass put in another order
	// (sortSegments): nonzero, and unlike the run's of a stretch next to
	// it. A window of lines that takes part of such a stretch takes all
	// of it (widenRuns): its lines hold the places, not the tokens.
	run uint8
}

// ckind says how a token's source bytes are spelt in the canonical stream.
type ckind uint8

const (
	cVerbatim ckind = iota // the bytes as written
	cNumber                // a number literal: its value (see appendNumber)
	cQuoted                // a '…' or "…" string: the same either way (see appendQuoted)
	cPyString              // a Python string: prefix and quotes normalised (see appendPyString)
	cPyJoined              // Python: adjacent strings of one prefix, "a" "b": "ab" (see appendPyJoined)
	cNewline               // Python: the end of a logical line
	cIndent                // Python: a block opens
	cDedent                // Python: a block closes
	cSemi                  // a statement separator, written or implied
	cComma                 // a comma, where one at a range's end only parts list elements (see listCommas)
	cDefine                // Go: ":=" for the "=" of "var x = y"
	cJoined                // Java: "a" + "b", string literals joined by +: "ab" (see appendJoined)
	cRegexp                // JavaScript: a regular expression literal, its flags in order (see appendRegexp)
	cKey                   // JavaScript: a quoted property key that needs no quotes: its content
	cElseIf                // PHP: "else" before "if", spelt "elseif"
	cPyElif                // Python: the "if" that is all of an else block, spelt "elif" (see pyCollapseElse)
	cBquote                // shell: a word's piece by a `…` substitution, spelt as by $( … ) (see appendBackquote)
	cTabDoc                // shell: a <<- heredoc's body, without the tabs the shell drops (see appendTabDoc)

	// Ruby (lexcanon_ruby.go)
	cHeredocOpen // <<~ID, <<-ID or <<ID, read as <<ID (see appendHeredoc)
	cHeredoc     // a <<- or << heredoc's body, its terminator unindented
	cSquiggly    // a <<~ heredoc's body, its indentation removed as Ruby does
	cWords       // a %w or %i literal, its words one blank apart (see appendWords)
	cRubyStr     // a '…' or "…" string read by its value (see appendRubyStr)
	cRubyLit     // a percent literal, or a string's text around interpolated code: as written, no operator (see appendRubyLit)
	cRubyRegexp  // a regular expression, /…/ or %r with brackets, or its text around interpolated code (see appendRubyRegexp)
	cRubyDo      // the { of a block read as do … end (see rubyBlocks)
	cRubyEnd     // the } of such a block
	cRubyOpen    // the return of several values, read as the [ of the array it returns (see tailOf)
	cRubyClose   // that array's ], after the values (no text of its own)

	// PHP (lexcanon_php.go)
	cPHP // a token PHP-CS-Fixer respells, its tag saying how (see appendPHP)
)

// langCode selects the number rules of a language.
type langCode uint8

const (
	langOther langCode = iota
	langGo
	langJS
	langPython
	langRust
	langC // C and Java: a leading 0 is octal
)

// separator reports the tokens a range's stream does not begin or end
// with: what separates statements says nothing about one statement.
func (t ctok) separator() bool {
	return t.kind == cSemi || t.kind == cNewline || t.kind == cIndent || t.kind == cDedent
}

// canonTokens returns the canonical stream of src read as lang. spans are
// the file's lexer tokens (lexSpec), which the Go, C and Java rules start
// from; the other languages lex src themselves.
func canonTokens(sc *scratch, lang string, src []byte, spans []span, out []ctok) []ctok {
	out = canonLang(sc, lang, src, spans, out)
	if listCommas(lang) {
		for i, t := range out {
			if t.kind == cVerbatim && t.end-t.start == 1 && src[t.start] == ',' {
				out[i].kind = cComma
			}
		}
	}
	return out
}

// listCommas reports the languages whose commas, at the end of a range,
// only part it from the next element of a list (an enum's constants, a
// struct's fields): Python's and Ruby's may make a tuple or an array,
// Lua's are left as they were, the shell's are words.
func listCommas(lang string) bool {
	switch lang {
	case "python", "ruby", "bash", "lua":
		return false
	}
	return true
}

// canonLang is lang's stream by its own rules (lexcanon_*.go).
func canonLang(sc *scratch, lang string, src []byte, spans []span, out []ctok) []ctok {
	switch lang {
	case "go":
		return canonGo(sc, src, spans, out)
	case "javascript", "typescript", "tsx":
		return canonJS(sc, src, out, lang == "tsx")
	case "python":
		return canonPython(sc, src, out)
	case "rust":
		return canonRust(sc, src, out)
	case "java":
		return canonJava(sc, src, spans, out)
	case "c":
		return canonCLang(sc, src, spans, out)
	case "php":
		return canonPHP(sc, src, out)
	case "cpp":
		return canonCpp(sc, src, out)
	}
	if r := rulesFor(lang); r != nil {
		return canonRules(sc, r, src, out)
	}
	for _, s := range spans {
		out = append(out, ctok{pos: int32(s.start), start: int32(s.start), end: int32(s.end)})
	}
	return out
}

// canonFromSpans reports whether canonTokens reads lang's lexer tokens
// (the other languages lex the source themselves).
func canonFromSpans(lang string) bool {
	switch lang {
	case "javascript", "typescript", "tsx", "python", "rust":
		return false
	}
	return rulesFor(lang) == nil
}

// appendCanon appends t's canonical text.
func appendCanon(buf, src []byte, t ctok) []byte {
	switch t.kind {
	case cNumber:
		return appendNumber(buf, src[t.start:t.end], t.lang)
	case cQuoted:
		return appendQuoted(buf, src[t.start:t.end])
	case cPyString:
		return appendPyString(buf, src[t.start:t.end])
	case cPyJoined:
		return appendPyJoined(buf, src[t.start:t.end])
	case cJoined:
		return appendJoined(buf, src[t.start:t.end])
	case cRegexp:
		return appendRegexp(buf, src[t.start:t.end])
	case cKey:
		return append(buf, src[t.start+1:t.end-1]...)
	case cBquote:
		return appendBackquote(buf, src[t.start:t.end], t.tag)
	case cTabDoc:
		return appendTabDoc(buf, src[t.start:t.end])
	case cHeredocOpen, cHeredoc, cSquiggly:
		return appendHeredoc(buf, src[t.start:t.end], t.kind, t.tag)
	case cWords:
		return appendWords(buf, src[t.start:t.end])
	case cRubyStr:
		return appendRubyStr(buf, src[t.start:t.end])
	case cRubyLit:
		return appendRubyLit(buf, src[t.start:t.end], t.tag)
	case cRubyRegexp:
		return appendRubyRegexp(buf, src[t.start:t.end], t.tag == rxExtended)
	case cRubyDo:
		return append(buf, "do"...)
	case cRubyEnd:
		return append(buf, "end"...)
	case cRubyOpen:
		return append(buf, '[')
	case cRubyClose:
		return append(buf, ']')
	case cPHP:
		return appendPHP(buf, src[t.start:t.end], t.tag)
	case cNewline:
		return append(buf, "\x01nl"...)
	case cIndent:
		return append(buf, "\x01in"...)
	case cDedent:
		return append(buf, "\x01de"...)
	case cSemi:
		return append(buf, ';')
	case cDefine:
		return append(buf, ":="...)
	case cPyElif:
		return append(buf, "elif"...)
	case cElseIf:
		return append(buf, "elseif"...)
	}
	return append(buf, src[t.start:t.end]...)
}

// canonRange returns the tokens of toks (sorted by pos) that lie in
// src[a:b], less the separators at either end.
func canonRange(toks []ctok, a, b int) (lo, hi int) {
	lo = sort.Search(len(toks), func(k int) bool { return int(toks[k].pos) >= a })
	hi = lo + sort.Search(len(toks)-lo, func(k int) bool { return int(toks[lo+k].pos) >= b })
	lo, hi = widenRuns(toks, lo, hi)
	return trimSeparators(toks, lo, hi)
}

// trimSeparators leaves out the separators at either end of toks[lo:hi]
// and a list's comma at its end: when a constant is added after an
// enum's last, the `;` that ended the last becomes a `,` (prettier and
// rustfmt add the same comma to a last element that comes to have a
// successor).
func trimSeparators(toks []ctok, lo, hi int) (int, int) {
	for lo < hi && toks[lo].separator() {
		lo++
	}
	for hi > lo && (toks[hi-1].separator() || toks[hi-1].kind == cComma) {
		hi--
	}
	return lo, hi
}

// appendStream appends the canonical texts of toks, each followed by a NUL
// byte: what a format 2 shape hashes.
func appendStream(buf, src []byte, toks []ctok) []byte {
	for _, t := range toks {
		buf = appendCanon(buf, src, t)
		buf = append(buf, 0)
	}
	return buf
}

// --- passes shared by several languages --------------------------------

// scratch holds the buffers a file's canonical passes reuse. The zero
// value is ready; a nil *scratch allocates anew.
type scratch struct {
	match []int
	// Go's passes (canonGo).
	drop  []bool     // tokens a pass leaves out
	stack []int      // open brackets
	alt   []ctok     // the stream a pass that inserts tokens writes to
	ins   []goInsert // tokens a pass inserts
	elems [][2]int   // the elements of a bracket group
	names []int      // named results
}

// brackets is matchBrackets into the scratch's buffer: valid until the
// next call.
func (sc *scratch) brackets(src []byte, toks []ctok) []int {
	if sc == nil {
		return matchBrackets(src, toks, nil)
	}
	sc.match = matchBrackets(src, toks, sc.match)
	return sc.match
}

// matchBrackets returns, for each token of toks that opens or closes a
// bracket ((, [, {), the index of its partner, or -1. Unbalanced brackets
// are left unmatched.
func matchBrackets(src []byte, toks []ctok, match []int) []int {
	match = match[:0]
	var stack []int
	for i, t := range toks {
		match = append(match, -1)
		if t.kind != cVerbatim || t.end-t.start != 1 {
			continue
		}
		switch c := src[t.start]; c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			if n := len(stack); n > 0 && src[toks[stack[n-1]].start] == opener(c) {
				match[stack[n-1]] = i
				match[i] = stack[n-1]
				stack = stack[:n-1]
			}
		}
	}
	return match
}

func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// isByte reports whether t is the one-byte token c as written.
func isByte(src []byte, t ctok, c byte) bool {
	return t.kind == cVerbatim && t.end-t.start == 1 && src[t.start] == c
}

// is reports whether t is the token s as written.
func is(src []byte, t ctok, s string) bool {
	return t.kind == cVerbatim && string(src[t.start:t.end]) == s
}

// multiPunct reports a byte that can be the second of a multi-byte
// operator: the lexers try their operator lists only then.
func multiPunct(c byte) bool {
	switch c {
	case '=', '*', '/', '<', '>', '-', '+', '.', '&', '|', '?', ':':
		return true
	}
	return false
}

// text is t's source text.
func text(src []byte, t ctok) string { return string(src[t.start:t.end]) }

// dropTrailingCommas removes each comma written just before a closing
// bracket: "f(a, b,)" is "f(a, b)". keep, when not nil, says a comma must
// stay (a one-element tuple; an array hole).
func dropTrailingCommas(sc *scratch, src []byte, toks []ctok, keep func(comma int, match []int) bool) []ctok {
	var match []int
	var drop []bool
	for i := 0; i+1 < len(toks); i++ {
		if !isByte(src, toks[i], ',') || !isCloser(src, toks[i+1]) {
			continue
		}
		if keep != nil {
			if match == nil {
				match = sc.brackets(src, toks)
			}
			if keep(i, match) {
				continue
			}
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i] = true
	}
	return compact(toks, drop)
}

// compact removes the tokens marked in drop (nil: none), in place.
func compact(toks []ctok, drop []bool) []ctok {
	if drop == nil {
		return toks
	}
	out := toks[:0]
	for i, t := range toks {
		if !drop[i] {
			out = append(out, t)
		}
	}
	return out
}

func isCloser(src []byte, t ctok) bool {
	return isByte(src, t, ')') || isByte(src, t, ']') || isByte(src, t, '}')
}

// soleElement reports whether the comma at toks[comma] ends the only
// element of its bracket group: "(a,)".
func soleElement(src []byte, toks []ctok, comma int, match []int) bool {
	for k := comma - 1; k >= 0; k-- {
		if m := match[k]; m >= 0 && m < k { // a group inside: skip it
			k = m
			continue
		}
		if isOpener(src, toks[k]) {
			return true
		}
		if isByte(src, toks[k], ',') {
			return false
		}
	}
	return true
}

// groupOpen returns the index of the bracket that opens the group
// toks[i] is in, or -1.
func groupOpen(src []byte, toks []ctok, i int, match []int) int {
	for k := i - 1; k >= 0; k-- {
		if m := match[k]; m >= 0 && m < k {
			k = m
			continue
		}
		if isOpener(src, toks[k]) {
			return k
		}
	}
	return -1
}

func isOpener(src []byte, t ctok) bool {
	return isByte(src, t, '(') || isByte(src, t, '[') || isByte(src, t, '{')
}

// dropDoubleParens removes parentheses that only wrap another pair: "((a))"
// is "(a)", and "f((a))" is "f(a)". The inner pair goes when it spans the
// whole of the outer one and holds one expression: no comma, nothing the
// language makes special (simple says so, e.g. no yield in Python).
func dropDoubleParens(sc *scratch, src []byte, toks []ctok, simple func(toks []ctok, open, close int, match []int) bool) []ctok {
	var match []int
	var drop []bool
	for i := 0; i+1 < len(toks); i++ {
		if !isByte(src, toks[i], '(') || !isByte(src, toks[i+1], '(') {
			continue
		}
		if match == nil {
			match = sc.brackets(src, toks)
		}
		c, ic := match[i], match[i+1]
		if c < 0 || ic != c-1 || ic == i+2 { // not whole, or "(())"
			continue
		}
		if hasTopComma(src, toks, i+1, ic, match) || (simple != nil && !simple(toks, i+1, ic, match)) {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i+1], drop[ic] = true, true
	}
	return compact(toks, drop)
}

// parenAfter reports whether some "(" of toks follows a token for which
// after says yes: passes that read only such groups skip matching the
// brackets of a file that has none.
func parenAfter(src []byte, toks []ctok, after func(prev ctok) bool) bool {
	for i := 1; i < len(toks); i++ {
		if isByte(src, toks[i], '(') && after(toks[i-1]) {
			return true
		}
	}
	return false
}

// hasTopComma reports a comma directly inside the group toks[open:close+1].
func hasTopComma(src []byte, toks []ctok, open, close int, match []int) bool {
	return topHas(toks, open, close, match, func(t ctok) bool { return isByte(src, t, ',') })
}

// topHas reports whether a token directly inside the group
// toks[open:close+1] (not in a group of its own) is one that is.
func topHas(toks []ctok, open, close int, match []int, is func(ctok) bool) bool {
	for k := open + 1; k < close; k++ {
		if m := match[k]; m > k {
			k = m
			continue
		}
		if is(toks[k]) {
			return true
		}
	}
	return false
}

// dropMask marks the tokens compact removes; it is allocated, for n
// tokens, by the first mark.
type dropMask []bool

func (d *dropMask) mark(i, n int) {
	if *d == nil {
		*d = make([]bool, n)
	}
	(*d)[i] = true
}

// sortStatements sorts the statements of toks[from:to], split by the
// tokens sep says separate them (outside brackets; m matches brackets),
// by their canonical text, for declarations whose order means nothing
// (imports). See sortSegments.
func sortStatements(src []byte, toks []ctok, from, to int, m []int, sep func(ctok) bool) {
	var segs [][2]int
	a := from
	for k := from; k <= to; k++ {
		if k < to && m[k] > k {
			k = m[k]
			continue
		}
		if k == to || sep(toks[k]) {
			if k > a {
				segs = append(segs, [2]int{a, k})
			}
			a = k + 1
		}
	}
	sortSegments(src, toks, from, to, segs)
}

// eachRun calls run with each run of two or more segments of n tokens
// that follow one another (end returns the index past the segment that
// starts at i, or 0 where none does) and the index past the run's last.
func eachRun(n int, end func(i int) int, run func(segs [][2]int, to int)) {
	for i := 0; i < n; i++ {
		var segs [][2]int
		k := i
		for e := end(k); e > 0; e = end(k) {
			segs = append(segs, [2]int{k, e})
			k = e
		}
		if len(segs) >= 2 {
			run(segs, k)
			i = k - 1
		}
	}
}

// sortSegments puts the segments segs (token ranges in order, within
// toks[from:to]) in the order of their canonical text; the tokens between
// them stay. Tokens take the positions of the places they move to, so the
// stream stays ordered by position.
func sortSegments(src []byte, toks []ctok, from, to int, segs [][2]int) {
	if len(segs) < 2 || to <= from {
		return
	}
	keys := make([]string, len(segs))
	for i, s := range segs {
		keys[i] = string(appendStream(nil, src, toks[s[0]:s[1]]))
	}
	order := make([]int, len(segs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return keys[order[i]] < keys[order[j]] })
	sorted := true
	for i, o := range order {
		sorted = sorted && i == o
	}
	if sorted {
		return
	}
	region := make([]ctok, 0, to-from)
	k := from
	for i, s := range segs {
		region = append(region, toks[k:s[0]]...)
		o := segs[order[i]]
		region = append(region, toks[o[0]:o[1]]...)
		k = s[1]
	}
	region = append(region, toks[k:to]...)
	run := uint8(1)
	for from > 0 && toks[from-1].run == run || to < len(toks) && toks[to].run == run {
		run++
	}
	for i := range region {
		region[i].pos = toks[from+i].pos
		region[i].run = run
	}
	copy(toks[from:to], region)
}

// widenRuns widens the tokens toks[lo:hi] of a window of lines to the
// whole of each reordered stretch it takes part of (see ctok.run).
func widenRuns(toks []ctok, lo, hi int) (int, int) {
	if lo >= hi {
		return lo, hi
	}
	for lo > 0 && toks[lo].run != 0 && toks[lo-1].run == toks[lo].run {
		lo--
	}
	for hi < len(toks) && toks[hi-1].run != 0 && toks[hi].run == toks[hi-1].run {
		hi++
	}
	return lo, hi
}
