package analyzer

import (
	"bytes"
	"slices"
	"strings"
)

// Ruby's own readings in the canonical stream (docs/fingerprints.md,
// Ruby): the code interpolated in a string read as code, heredocs by the
// text they make, %w and %i literals by their words, and the spellings
// RuboCop's style cops choose between read the same (tidyRuby).

// rubyPlain reports whether a string body means the same between '…' and
// "…": no escape, no quote, and no # that double quotes would read as
// interpolation (#{, #@, #$).
func rubyPlain(body []byte) bool {
	if bytes.ContainsAny(body, `\'"`) {
		return false
	}
	for k := bytes.IndexByte(body, '#'); k >= 0; {
		if k+1 < len(body) && bytes.IndexByte([]byte("{@$"), body[k+1]) >= 0 {
			return false
		}
		n := bytes.IndexByte(body[k+1:], '#')
		if n < 0 {
			break
		}
		k += 1 + n
	}
	return true
}

// rubyInterpolated reads, for the canonical stream, a "…" string at
// src[i] that interpolates code: its text before, between and after the
// #{…} parts as written, the code inside read as code (a formatter
// spaces and breaks it as any other code). ok is false for a string
// without #{, which the scanner reads whole.
func rubyInterpolated(s *scanState, i int) (end int, ok bool) {
	end = s.strBody(i+1, `"`, '"')
	return end, interpolatedParts(s, i, end, cRubyLit)
}

// interpolatedParts adds the parts of the literal src[i:end] (a string
// or a regular expression) that interpolates code: its text around #{…}
// as written, the code inside read as code. It adds nothing and reports
// false for a literal without #{.
func interpolatedParts(s *scanState, i, end int, kind ckind) bool {
	return partsFrom(s, i, i+1, end, kind) // past the opener
}

// partsFrom adds the parts of src[i:end] as interpolatedParts does,
// reading #{ from offset from.
func partsFrom(s *scanState, i, from, end int, kind ckind) bool {
	src := s.src
	if !interpolates(src[i:end]) {
		return false
	}
	part := i
	for j := from; j < end; {
		switch {
		case src[j] == '\\':
			j += 2
		case src[j] == '#' && j+1 < end && src[j+1] == '{':
			s.add(part, j+2, kind)
			close := s.skipCode(j+2, '{', '}')
			if close > end || src[close-1] != '}' {
				s.add(part, end, kind) // unterminated: the rest is text
				return true
			}
			code := &scanState{r: s.r, src: src[:close-1], from: j + 2, canon: true}
			code.scan()
			s.out = append(s.out, code.out...)
			part, j = close-1, close
		default:
			j++
		}
	}
	s.add(part, end, kind)
	return true
}

// rubyString reads a '…' or "…" string at src[i] whose value its text
// says with no escape but \\ and a quote's (and, between double quotes,
// \#): ok is false for a double-quoted string with another escape or
// with # that interpolates, which stays as written.
func rubyString(s *scanState, i int) (end int, ok bool) {
	src := s.src
	q := src[i]
	end = s.strBody(i+1, string(q), q)
	if end-i < 2 || src[end-1] != q {
		return 0, false
	}
	if q == '\'' {
		return end, true
	}
	body := src[i+1 : end-1]
	for j := 0; j < len(body); j++ {
		switch body[j] {
		case '\\':
			if j+1 >= len(body) || bytes.IndexByte([]byte(`\"'#`), body[j+1]) < 0 {
				return 0, false
			}
			j++
		case '#':
			if j+1 < len(body) && bytes.IndexByte([]byte("{@$"), body[j+1]) >= 0 {
				return 0, false
			}
		}
	}
	return end, true
}

// appendRubyStr appends a string (rubyString) as its value between
// double quotes, \ and " escaped: 'can\'t' is "can't", '\\' is "\\".
// Between single quotes only \\ and \' are escapes (any other backslash
// is itself); between double quotes rubyString let only \\, \", \' and
// \# through, each the byte it escapes.
func appendRubyStr(buf, text []byte) []byte {
	q := text[0]
	buf = append(buf, "\x01\""...) // never a string kept as written
	body := text[1 : len(text)-1]
	for j := 0; j < len(body); j++ {
		c := body[j]
		if c == '\\' && j+1 < len(body) && (q == '"' || body[j+1] == '\\' || body[j+1] == '\'') {
			j++
			c = body[j]
		}
		if c == '\\' || c == '"' {
			buf = append(buf, '\\')
		}
		buf = append(buf, c)
	}
	return append(buf, '"')
}

// appendRubyLit appends a percent literal (cRubyLit) by its value where
// its delimiters make no difference to it (RuboCop's
// Style/PercentLiteralDelimiters): `%x{cmd}` is `%x(cmd)`, and `%q(a)`,
// `%Q(a)` and `%(a)` are the string "a" (Style/RedundantPercentQ), and
// with a backslash or a # in their text `%Q(…)` whichever delimiters. One
// whose text holds a backslash or interpolates, and the other cRubyLit
// tokens (an instance variable, a string's text around interpolated
// code, `%r|…|` but for the blanks of an extended one) are kept as
// written.
func appendRubyLit(buf, text []byte, tag uint8) []byte {
	if tag == pctPart { // a part of %Q(…): its delimiters as (…)
		if text[0] == '%' { // %Q( or %(, any delimiter
			buf = append(buf, "\x01%Q("...)
			k := 1
			if text[k] == 'Q' {
				k++
			}
			text = text[k+1:]
		}
		if !bytes.HasSuffix(text, []byte("#{")) && len(text) > 0 {
			return append(append(buf, text[:len(text)-1]...), ')')
		}
		return append(buf, text...)
	}
	if len(text) < 3 || text[0] != '%' {
		return append(buf, text...)
	}
	if text[1] == 'r' { // %r|…|: as written, but for an extended one's blanks
		return appendRegexpBody(buf, text, bytes.IndexByte(regexpFlags(text), 'x') >= 0, false)
	}
	typ, j := byte('Q'), 1
	if bytes.IndexByte([]byte("qQsxIW"), text[1]) >= 0 {
		typ, j = text[1], 2
	}
	if len(text) < j+2 || text[len(text)-1] != closer(text[j]) || isIdentByte(text[j]) {
		return append(buf, text...)
	}
	body := text[j+1 : len(text)-1]
	if typ == 'Q' && !interpolates(body) && bytes.ContainsAny(body, "\\#") {
		// Its escapes (and #@a) mean the same between any delimiters.
		buf = append(buf, "\x01%Q("...)
		return append(append(buf, body...), ')')
	}
	if bytes.IndexByte(body, '\\') >= 0 || interpolates(body) || (typ == 'Q' && bytes.IndexByte(body, '#') >= 0) {
		return append(buf, text...)
	}
	if typ == 'q' || typ == 'Q' {
		return appendRubyStr(buf, append(append([]byte{'\''}, body...), '\''))
	}
	buf = append(buf, "\x01%"...)
	buf = append(buf, typ, '(')
	buf = append(buf, body...)
	return append(buf, ')')
}

// rubyPercentParts adds the parts of the string literal src[i:end],
// %Q or % with the delimiter at j, that interpolates code, as
// interpolatedParts does, tagged pctPart: read with the delimiters of
// %Q(…) whichever it is written with (RuboCop's
// Style/PercentLiteralDelimiters): an escape means the same between any
// of them.
func rubyPercentParts(s *scanState, i, j, end int) bool {
	if end-j < 2 || s.src[end-1] != closer(s.src[j]) {
		return false
	}
	n := len(s.out)
	if !partsFrom(s, i, j+1, end, cRubyLit) {
		return false
	}
	tagParts(s, n, i, cRubyLit, pctPart)
	return true
}

// tagParts tags the parts of kind that interpolatedParts added from
// s.out[n] on for the literal at src[i]: its first, and those after its
// code (a literal inside that code begins otherwise).
func tagParts(s *scanState, n, i int, kind ckind, tag uint8) {
	for k := n; k < len(s.out); k++ {
		if t := &s.out[k]; t.kind == kind && (t.start == int32(i) || s.src[t.start] == '}') {
			t.tag = tag
		}
	}
}

// pctPart tags the parts of a %Q or % string around interpolated code
// (cRubyLit).
const pctPart = 1

// rxExtended tags the parts of a regular expression with flag x around
// interpolated code (cRubyRegexp): a part holds no flags.
const rxExtended = 1

// rubyRegexpParts adds the parts of the regular expression src[i:end]
// that interpolates code, as interpolatedParts does, tagged rxExtended
// when its flags hold x.
func rubyRegexpParts(s *scanState, i, end int) bool {
	n := len(s.out)
	if !interpolatedParts(s, i, end, cRubyRegexp) {
		return false
	}
	if bytes.IndexByte(regexpFlags(s.src[i:end]), 'x') >= 0 {
		tagParts(s, n, i, cRubyRegexp, rxExtended)
	}
	return true
}

// regexpFlags returns the flags that end a regular expression's text.
func regexpFlags(text []byte) []byte {
	end := len(text)
	for end > 0 && isLower(text[end-1]) {
		end--
	}
	return text[end:]
}

// appendRubyRegexp appends a regular expression, or its text before,
// between or after interpolated code (cRubyRegexp), whichever of `/…/`
// and `%r` with brackets it is written as (RuboCop's Style/RegexpLiteral):
// `/a\/b/mi` is `%r{a/b}im`, an escaped / matching a / and the flags in
// order; other escapes are kept. extended says a part's expression has
// flag x (a whole one's flags say so).
func appendRubyRegexp(buf, text []byte, extended bool) []byte {
	if text[0] == '/' || text[0] == '%' { // its opener
		buf = append(buf, "\x01%r("...)
		if text[0] == '/' {
			text = text[1:]
		} else {
			text = text[3:]
		}
	}
	interp := bytes.HasSuffix(text, []byte("#{"))
	end := len(text)
	if !interp {
		flags := regexpFlags(text)
		extended = extended || bytes.IndexByte(flags, 'x') >= 0
		end -= len(flags) + 1 // and the closing delimiter
		if end < 0 {
			return append(buf, text...) // unterminated: as written
		}
	}
	buf = appendRegexpBody(buf, text[:end], extended, true)
	if interp {
		return buf
	}
	buf = append(buf, ')')
	n := len(buf)
	buf = append(buf, text[end+1:]...)
	slices.Sort(buf[n:])
	return buf
}

// appendRegexpBody appends the text of a regular expression: without
// the blanks Ruby ignores in an extended one (flag x: outside character
// classes and comments, not escaped), which a formatter re-indents
// (RuboCop's layout cops); with slashes, an escaped / as a /.
func appendRegexpBody(buf, text []byte, extended, slashes bool) []byte {
	class := 0 // how deep in character classes
	for j := 0; j < len(text); j++ {
		switch c := text[j]; {
		case c == '\\' && j+1 < len(text):
			if !slashes || text[j+1] != '/' {
				buf = append(buf, c)
			}
			j++
		case extended && class == 0 && (c == '#' && !bytes.HasPrefix(text[j:], []byte("#{")) || bytes.HasPrefix(text[j:], []byte("(?#"))):
			// A comment, to the line's end or its ), as written: a [ in
			// it opens no class.
			end := byte('\n')
			if c == '(' {
				end = ')'
			}
			k := bytes.IndexByte(text[j:], end)
			if k < 0 {
				k = len(text) - j
			}
			buf = append(buf, text[j:j+k]...)
			j += k - 1
			continue
		case c == '[':
			class++
		case c == ']' && class > 0:
			class--
		case extended && class == 0 && isBlank(c):
			continue
		}
		buf = append(buf, text[j])
	}
	return buf
}

// interpolates reports whether a literal's text holds a #{ no backslash
// escapes.
func interpolates(text []byte) bool {
	for j := 0; j+1 < len(text); j++ {
		switch {
		case text[j] == '\\':
			j++
		case text[j] == '#' && text[j+1] == '{':
			return true
		}
	}
	return false
}

// Tags of a heredoc's parts around interpolated code (heredocParts): the
// indentation <<~ removes from its lines, plus one, and whether the part
// begins after code, in the middle of a line.
const (
	hdCut       = 127
	hdAfterCode = 128
)

// heredocParts adds the parts of the heredoc body src[i:end] that
// interpolates code, as interpolatedParts does: the code inside read as
// code (a formatter spaces it as any other), each part tagged with what
// appendHeredoc needs to read it as the whole body is read. It adds
// nothing and reports false for a body without #{, and for a <<~ body
// whose indentation is kept as written (squigglyIndent).
func heredocParts(s *scanState, i, end int, kind ckind) bool {
	cut := 0
	if kind == cSquiggly {
		text := s.src[i:end]
		lines := bytes.SplitAfter(text, []byte("\n"))
		c, ok := squigglyIndent(lines[:len(lines)-1])
		if !ok || c >= hdCut {
			return false
		}
		cut = c
	}
	n := len(s.out)
	if !partsFrom(s, i, i, end, kind) {
		return false
	}
	for k := n; k < len(s.out); k++ {
		if t := &s.out[k]; t.kind == kind {
			t.tag = uint8(cut + 1)
			if t.start != int32(i) {
				t.tag |= hdAfterCode
			}
		}
	}
	return true
}

// afterCode reports whether t is the text of a literal that follows
// interpolated code (its } begins it).
func afterCode(src []byte, t ctok) bool {
	switch t.kind {
	case cRubyLit, cRubyRegexp:
		return src[t.start] == '}'
	case cHeredoc, cSquiggly:
		return t.tag&hdAfterCode != 0
	}
	return false
}

// beforeCode reports whether t is the text of a literal that interpolated
// code follows (it ends with #{).
func beforeCode(src []byte, t ctok) bool {
	switch t.kind {
	case cRubyLit, cRubyRegexp, cHeredoc, cSquiggly:
		return bytes.HasSuffix(src[t.start:t.end], []byte("#{"))
	}
	return false
}

// appendHeredoc appends the canonical text of a heredoc's opener or body.
// The opener is <<ID whichever of <<~ID, <<-ID and <<ID is written; the
// body says the text the heredoc makes: a <<~ body without the
// indentation Ruby removes, and either body ends with its terminator,
// unindented. So <<-ID and <<~ID read the same exactly when their text
// is the same. A part of a body (tag, see heredocParts) is read as the
// same text of the whole body.
func appendHeredoc(buf, text []byte, k ckind, tag uint8) []byte {
	if tag != 0 {
		cut, mid := int(tag&hdCut)-1, tag&hdAfterCode != 0
		lines := bytes.SplitAfter(text, []byte("\n"))
		for j, l := range lines {
			switch {
			case j == len(lines)-1 && j > 0 && !bytes.HasSuffix(text, []byte("#{")):
				l = bytes.TrimLeft(l, " \t") // the terminator
			case j > 0 || !mid:
				l = l[min(cut, blanks(l)):]
			}
			buf = append(buf, l...)
		}
		return buf
	}
	if k == cHeredocOpen {
		buf = append(buf, "<<"...)
		if len(text) > 2 && (text[2] == '~' || text[2] == '-') {
			return append(buf, text[3:]...)
		}
		return append(buf, text[2:]...)
	}
	lines := bytes.SplitAfter(text, []byte("\n"))
	last := lines[len(lines)-1]
	body := lines[:len(lines)-1]
	if k == cSquiggly {
		cut, ok := squigglyIndent(body)
		if !ok {
			// Indentation this reading does not undo: kept as written,
			// never equal to a <<- body.
			buf = append(buf, "\x01~"...)
			return append(buf, text...)
		}
		for _, l := range body {
			buf = append(buf, l[min(cut, blanks(l)):]...)
		}
	} else {
		for _, l := range body {
			buf = append(buf, l...)
		}
	}
	return append(buf, bytes.TrimLeft(last, " \t")...)
}

// squigglyIndent returns the indentation a <<~ heredoc removes from each
// line of its body: the least of the lines that are not only blanks. ok
// is false where that takes more than counting spaces: tabs (Ruby counts
// them to the next multiple of 8) or interpolated code that spans lines
// (whose lines Ruby leaves out). A line continued by a backslash is read
// as Ruby 3.1 does: the next line is a line of its own here.
func squigglyIndent(lines [][]byte) (cut int, ok bool) {
	cut = -1
	for _, l := range lines {
		b := blanks(l)
		if bytes.IndexByte(l[:b], '\t') >= 0 {
			return 0, false
		}
		t := bytes.TrimRight(l, "\r\n")
		if interpolatesPast(t) {
			return 0, false
		}
		if len(bytes.TrimLeft(t, " \t")) == 0 {
			continue
		}
		if cut < 0 || b < cut {
			cut = b
		}
	}
	return max(cut, 0), true
}

// interpolatesPast reports whether the code a #{ in line l opens runs
// past the line's end.
func interpolatesPast(l []byte) bool {
	for j := 0; j+1 < len(l); j++ {
		switch {
		case l[j] == '\\':
			j++
		case l[j] == '#' && l[j+1] == '{':
			depth := 0
			for j++; j < len(l); j++ {
				if l[j] == '{' {
					depth++
				} else if l[j] == '}' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if j >= len(l) {
				return true
			}
		}
	}
	return false
}

// blanks counts the spaces and tabs that begin l.
func blanks(l []byte) int {
	n := 0
	for n < len(l) && (l[n] == ' ' || l[n] == '\t') {
		n++
	}
	return n
}

// appendWords appends a %w or %i literal with its words one blank apart
// and none at either end: the array it makes, in its delimiters, or in
// none where they make no difference (no backslash, no delimiter among
// the words: RuboCop's Style/PercentLiteralDelimiters turns %w(a b) into
// %w[a b]). Whitespace escaped by a backslash belongs to its word.
func appendWords(buf, text []byte) []byte {
	if len(text) < 4 || text[len(text)-1] != closer(text[2]) {
		return append(buf, text...) // unterminated
	}
	body, close := text[3:len(text)-1], text[len(text)-1]
	plain := bytes.IndexByte(body, '\\') < 0 && bytes.IndexByte(body, text[2]) < 0 && bytes.IndexByte(body, close) < 0
	if plain { // delimiters that make no difference: %w[a b] is %w(a b)
		buf = append(buf, "\x01%"...)
		buf = append(buf, text[1], '(')
		close = ')'
	} else {
		buf = append(buf, text[:3]...)
	}
	first, inWord := true, false
	for j := 3; j < len(text)-1; j++ {
		c := text[j]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			inWord = false
			continue
		}
		if !inWord && !first {
			buf = append(buf, ' ')
		}
		inWord, first = true, false
		buf = append(buf, c)
		if c == '\\' && j+1 < len(text)-1 {
			j++
			buf = append(buf, text[j])
		}
	}
	return append(buf, close)
}

// closer returns the byte that closes a percent literal opened by open.
func closer(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return open
}

// wordAt is the text of toks[k] as written, or "" for a token spelt
// another way (a literal, a separator) or past either end.
func wordAt(src []byte, toks []ctok, k int) string {
	if k < 0 || k >= len(toks) || toks[k].kind != cVerbatim {
		return ""
	}
	return string(src[toks[k].start:toks[k].end])
}

// tidyRuby reads the spellings RuboCop's style cops choose between the
// same (blocks in braces first, see rubyBlocks):
//   - a line end after the keywords do and then is the line end alone:
//     `do |x|` on the line of its call or the next, `if c then` and
//     `if c` closing their lines; then before code on its line is a line
//     end (`when a then b` is `when a` and `b` on the next line), and
//     so is a line end after else (`else 1` on one line or two);
//   - a method's parameters in parentheses that close its line are its
//     parameters without them: `def f(a, b)` is `def f a, b` and `def
//     f()` is `def f` (RuboCop's Style/MethodDefParentheses and
//     DefWithParentheses);
//   - a call's arguments in parentheses right after its name, closing
//     its statement (see closesCall), are its arguments without them:
//     `g(a, b)` is `g a, b` (RuboCop's
//     Style/MethodCallWithArgsParentheses). Not `g()`, which may differ
//     from `g` (a local variable); not before a brace block, which would
//     bind to the last argument, nor with a do block inside, which would
//     bind to g; not a first argument in braces, which would read as a
//     block; not `g (a)`, whose parentheses group an argument;
//   - a conditional's condition in parentheses is the condition, where
//     the group starts an expression and nothing in it binds looser than
//     ? : (see plainCondition; RuboCop's Style/TernaryParentheses);
//   - a symbol key before => is the key: label, `:a => 1` being `a: 1`
//     and `:"a b" => 1` being `"a b": 1`, in a call's arguments or a
//     hash's braces, outside a pattern (where `in :a => x` binds x) and
//     an array's brackets (where a pattern may bind too).
func tidyRuby(src []byte, toks []ctok) []ctok {
	match := rubyBlocks(src, toks)
	text := func(k int) string { return wordAt(src, toks, k) }
	// keyword: the token is a word not called or named as a method.
	keyword := func(k int, w string) bool {
		if text(k) != w {
			return false
		}
		switch text(k - 1) {
		case ".", "&.", "::", "def", ":":
			return false
		}
		return true
	}
	// called: toks[k] names a method called: a keyword's spelling after
	// a dot is a method's name (@handler.alias o).
	called := func(k int) bool {
		if p := text(k - 1); p == "." || p == "&." {
			return rubyMethodName(text(k))
		}
		return rubyCallName(text(k))
	}
	// defined: toks[k] follows the name a def defines, written without
	// blanks (self.f, [], name=, <=>).
	defined := func(k int) bool {
		word := func(j int) bool { w := text(j); return w != "" && w != "(" && w != ")" }
		name := func(j int) bool { return word(j) && toks[j+1].start == toks[j].end }
		if k == 0 || !word(k-1) {
			return false
		}
		j := k - 1
		for j > 0 && name(j-1) {
			j--
		}
		return text(j-1) == "def"
	}
	// condStart: the ( at k starts an expression of its own, the whole of
	// a conditional's condition when ) ? follows: at a statement's start
	// (interpolated code's, a block's after its parameters), after an
	// assignment, an opening bracket, a comma, a label's or a conditional's
	// :, return, then, else, do, =>, and, or, not, or a call's name and a
	// blank (its first argument). Not after
	// an operator (`a - (b - c) ? …` subtracts the group) nor a call's
	// name right before it (its arguments).
	condStart := func(k int) bool {
		if k == 0 || toks[k-1].kind == cSemi || toks[k-1].kind == cRubyDo {
			return true // a statement's start, a brace block's
		}
		if beforeCode(src, toks[k-1]) {
			return true // interpolated code's start
		}
		w := text(k - 1)
		if w == "|" { // a block's parameters' end, not a bitwise or
			for j := k - 2; j >= 0 && j > k-40; j-- {
				if text(j) == "|" {
					return toks[j-1].kind == cRubyDo || text(j-1) == "do" || text(j-1) == "{"
				}
			}
			return false
		}
		switch w {
		case "(", "[", "{", ",", ":", "return", "then", "else", "do", "=>":
			return true // : of a label or of a conditional's other branch
		case "and", "or", "not":
			return keyword(k-1, w) // they bind looser than ? :
		case "==", "===", "!=", "<=", ">=":
			return false
		}
		if strings.HasSuffix(w, "=") {
			return true // =, +=, ||=, …
		}
		return rubyCallName(w) && toks[k].start > toks[k-1].end
	}
	blocked := doBlocks(src, toks)
	drop := make([]bool, len(toks)) // a closing parenthesis whose opener was dropped
	// next is the first token from k not dropped: the closing parentheses
	// of calls nested in calls (f(g(a))) are dropped outermost first, and
	// a run of them is passed over once.
	skip := make([]int, len(toks))
	var next func(k int) int
	next = func(k int) int {
		if k >= len(toks) || !drop[k] {
			return k
		}
		if skip[k] <= k {
			skip[k] = k + 1
		}
		skip[k] = next(skip[k])
		return skip[k]
	}
	// pastComma passes over a trailing comma, which goes before a closing
	// bracket (dropTrailingCommas, after this pass).
	pastComma := func(k int) int {
		if w := text(k + 1); text(k) == "," && (w == ")" || w == "]" || w == "}") {
			return next(k + 1)
		}
		return k
	}
	// A stream of its own: the rules look back at toks, which dropping
	// tokens in place would shift.
	out := make([]ctok, 0, len(toks))
	var open []string
	pattern := false
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if drop[k] {
			if n := len(out); n > 0 && out[n-1].kind == cVerbatim && src[out[n-1].start] == ',' && out[n-1].end-out[n-1].start == 1 {
				out = out[:n-1] // a trailing comma, as before any )
			}
			continue
		}
		switch w := text(k); {
		case t.kind == cSemi:
			pattern = false
		case w == "(" && match[k] > k+1 && text(match[k]+1) == "?" && toks[match[k]+1].end-toks[match[k]+1].start == 1 &&
			condStart(k) && plainCondition(src, toks, k+1, match[k]):
			drop[match[k]] = true // (a >= b) ? x : y is a >= b ? x : y
			continue
		case w == "(" && match[k] > k && defined(k) && (closesLine(toks, match[k]+1) ||
			text(match[k]+1) == "end" && bytes.ContainsAny(src[toks[match[k]].end:toks[match[k]+1].start], "\n;")):
			drop[match[k]] = true // def f(a) is def f a
			continue
		case w == "(" && k > 0 && match[k] > k+1 && t.start == toks[k-1].end && called(k-1) && !defined(k) &&
			text(k+1) != "{" && closesCall(src, toks, next(pastComma(match[k]+1))) && !blocked[k]:
			drop[match[k]] = true // g(a) is g a
			continue
		case w == "(" || w == "[" || w == "{":
			open = append(open, w)
		case w == ")" || w == "]" || w == "}":
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case keyword(k, "in"):
			pattern = true
		case keyword(k, "then") && text(k+1) != ":":
			pattern = false
			if k+1 < len(toks) && toks[k+1].kind == cSemi {
				continue // the line end that follows reads alone
			}
			t.kind = cSemi // code after it: then is a line end (when a then b)
		case keyword(k, "do") || keyword(k, "else"):
			if k+1 < len(toks) && toks[k+1].kind == cSemi {
				out = append(out, t)
				k++ // the line end after it
				continue
			}
		case w == ":" && !pattern && k+2 < len(toks) && text(k+2) == "=>" && toks[k+1].start == t.end &&
			rubySymbolKey(src, toks[k+1]) && (len(open) == 0 || open[len(open)-1] != "["):
			if len(out) == 0 {
				break
			}
			switch prev := out[len(out)-1]; {
			case prev.kind != cVerbatim:
			case rubyBeforeKey(src[prev.start:prev.end]):
				key := toks[k+1]
				key.pos = t.pos
				colon := t
				colon.pos = toks[k+1].pos
				out = append(out, key, colon)
				k += 2 // and the =>
				continue
			}
		}
		out = append(out, t)
	}
	return rubyRedundant(src, rubyModifiers(src, out))
}

// rubyBlocks reads a block in braces as the same block in do … end
// (RuboCop's Style/BlockDelimiters) where both bind to one call: the
// braces right after a call (a name, or its arguments' parentheses), in
// a statement with no call whose arguments go without parentheses before
// them (`f a.map { … }` binds the braces to map, `f a.map do … end` the
// block to f) and no keyword (return, if, and, …). `{ |x| x }` is `do |x|\n
// x\nend`: the line goes on after the parameters' |. It respells such
// braces in toks and returns the brackets' partners (matchBrackets).
func rubyBlocks(src []byte, toks []ctok) (match []int) {
	text := func(k int) string { return wordAt(src, toks, k) }
	match = matchBrackets(src, toks, nil)
	block := make([]bool, len(toks)) // braces read as do … end
	for k := range toks {
		if text(k) != "{" || match[k] < 0 || !rubyBlockBraces(src, toks, match, k) {
			continue
		}
		block[k], block[match[k]] = true, true
	}
	for k := range toks {
		switch {
		case !block[k]:
		case src[toks[k].start] == '{':
			toks[k].kind = cRubyDo
		default:
			toks[k].kind = cRubyEnd
		}
	}
	return match // the parentheses' partners stand as they were
}

// rubyBlockBraces reports whether the { at toks[k] opens a block that do
// … end would open too (see rubyBlocks).
func rubyBlockBraces(src []byte, toks []ctok, match []int, k int) bool {
	text := func(k int) string { return wordAt(src, toks, k) }
	prev := text(k - 1)
	switch {
	case prev == ")":
		if o := match[k-1]; o < 1 || text(o-1) == "->" || !rubyCallName(text(o-1)) {
			return false
		}
	case !rubyCallName(prev):
		return false
	}
	// The statement the braces are in, back to its start, an opening
	// bracket around it, or the do of a block around it; a statement of
	// more tokens than a person writes (generated code, a chain of
	// thousands of blocks) keeps its braces, so that reading it stays
	// linear.
	for j := k - 1; j >= 0; j-- {
		if k-j > 1000 {
			return false
		}
		t := toks[j]
		if t.kind == cSemi || beforeCode(src, t) {
			return true // a statement's start, or interpolated code's
		}
		w := text(j)
		switch w {
		case ")", "]", "}":
			if match[j] < 0 {
				return false
			}
			j = match[j]
			continue
		case "(", "[", "{", "do": // inside a group or another block
			return true
		}
		if rubyKeyword(w) {
			return false
		}
		// a call whose arguments go without parentheses: a name, a blank,
		// and an operand
		if rubyCallName(w) && j+1 < k && toks[j+1].start > t.end && rubyOperandStart(src, toks, j+1) {
			return false
		}
	}
	return true
}

// plainCondition reports whether toks[i:j], a conditional's condition in
// parentheses, binds as tightly without them: no and, or, not, defined?
// without its own parentheses, assignment, modifier, rescue, nested
// conditional or second statement at its own depth (`(x = y) ? a : b`
// assigns y, `x = y ? a : b` the conditional; RuboCop's
// Style/TernaryParentheses).
func plainCondition(src []byte, toks []ctok, i, j int) bool {
	depth := 0
	for k, t := range toks[i:j] {
		if t.kind == cSemi {
			return false
		}
		if t.kind != cVerbatim {
			continue
		}
		switch w := string(src[t.start:t.end]); w {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case "defined?":
			// defined?(x) binds as a call; defined? x && y takes it all
			if n := i + k + 1; depth == 0 && !(n < j && isByte(src, toks[n], '(') && toks[n].start == t.end) {
				return false
			}
		case "and", "or", "not", "if", "unless", "while", "until", "rescue", "?", ",", "do":
			if depth == 0 {
				return false
			}
		default:
			// an assignment: =, +=, ||=, … (not ==, ===, =~, !=, <=, >=, =>)
			if depth == 0 && strings.HasSuffix(w, "=") && w != "==" && w != "===" && w != "!=" && w != "<=" && w != ">=" {
				return false
			}
		}
	}
	return true
}

// doBlocks marks each opening bracket whose contents hold a do block of
// their own, not one nested in other brackets or interpolated code: a call
// whose arguments hold one keeps its parentheses (without them the block
// would bind to the call).
func doBlocks(src []byte, toks []ctok) []bool {
	blocked := make([]bool, len(toks))
	var open []int
	for k, u := range toks {
		b := src[u.start:u.end]
		switch u.kind {
		case cRubyDo:
			if n := len(open); n > 0 {
				blocked[open[n-1]] = true
			}
		case cRubyLit, cRubyRegexp, cHeredoc, cSquiggly:
			if afterCode(src, u) && len(open) > 0 {
				open = open[:len(open)-1]
			}
			if beforeCode(src, u) {
				open = append(open, k)
			}
		case cVerbatim:
			switch string(b) {
			case "do":
				if n := len(open); n > 0 {
					blocked[open[n-1]] = true
				}
			case "(", "[", "{":
				open = append(open, k)
			case ")", "]", "}":
				if len(open) > 0 {
					open = open[:len(open)-1]
				}
			}
		}
	}
	return blocked
}

// rubyKeyword reports the words that are keywords, not names, in a
// statement's head (literals like self and nil aside).
func rubyKeyword(w string) bool {
	switch w {
	case "if", "unless", "while", "until", "and", "or", "not", "return", "when", "case", "then", "else",
		"elsif", "begin", "rescue", "ensure", "in", "for", "yield", "super", "break", "next", "defined?", "do", "end":
		return true
	}
	return false
}

// rubyOperandStart reports whether toks[j], after a blank, may start a
// call's first argument: a name or a literal, or a bracket, a sign or a
// splat written against what follows.
func rubyOperandStart(src []byte, toks []ctok, j int) bool {
	t := toks[j]
	if t.kind == cSemi {
		return false
	}
	if t.kind != cVerbatim {
		return true // a literal, an instance variable
	}
	w := wordAt(src, toks, j)
	if isIdentByte(w[0]) || w[0] == '"' || w[0] == '\'' {
		return !rubyKeyword(w)
	}
	switch w {
	case "[", "(", "-", "*", "**", "&", "!", ":", "::", "->", "~":
		return j+1 < len(toks) && toks[j+1].start == t.end
	}
	return false
}

// rubyOperandEnd reports whether out ends with an operand whose last
// token would go on with the next line: a symbol that names an operator
// (rubyOpSymbol), or the label of a def's last keyword parameter written
// without parentheses (`def f a, b:`, RuboCop's
// Style/MethodDefParentheses), which ends the def's line.
func rubyOperandEnd(src []byte, out []ctok) bool {
	return rubyOpSymbol(src, out) || rubyDefLabel(src, out)
}

// rubyDefLabel reports whether out ends with a name and a : written right
// after it, in a def's parameters without parentheses.
func rubyDefLabel(src []byte, out []ctok) bool {
	n := len(out)
	if n < 3 {
		return false
	}
	colon, name := out[n-1], out[n-2]
	if colon.kind != cVerbatim || string(src[colon.start:colon.end]) != ":" || colon.start != name.end ||
		name.kind != cVerbatim || !rubyMethodName(string(src[name.start:name.end])) {
		return false
	}
	for k := n - 3; k >= 0 && !out[k].separator(); k-- {
		switch string(src[out[k].start:out[k].end]) {
		case "def":
			return true
		case "(", ")", "[", "]", "{", "}", "=", "?":
			return false
		}
	}
	return false
}

// rubyOpSymbol reports whether out ends with a symbol that names an
// operator (`alias_method :eql?, :==`): a : written right before the
// operator, after a blank, an opening bracket or a comma (not a
// conditional's `a ? b :c`, nor ::).
func rubyOpSymbol(src []byte, out []ctok) bool {
	n := len(out)
	if n < 2 {
		return false
	}
	op, colon := out[n-1], out[n-2]
	if colon.kind != cVerbatim || colon.end-colon.start != 1 || src[colon.start] != ':' || colon.end != op.start {
		return false
	}
	if colon.start == 0 {
		return true
	}
	switch src[colon.start-1] {
	case ' ', '\t', '(', '[', ',', '{', '\n':
		return true
	}
	return false
}

// closesLine reports whether toks[k] ends a statement: a line end, a
// written ;, or the end of the stream.
func closesLine(toks []ctok, k int) bool {
	return k >= len(toks) || toks[k].kind == cSemi
}

// closesCall reports whether toks[k] ends the arguments of a call written
// without parentheses as it ends those written with them: a statement's
// end (a line end before end, }, else, elsif, when, then or ensure is no
// token; an interpolation's } starts the string's text after it), a
// modifier, and or or, or a do block (which binds to the call either
// way). k is past any parenthesis dropped already (an enclosing call's,
// `f(g(a))` being `f g a`).
func closesCall(src []byte, toks []ctok, k int) bool {
	if closesLine(toks, k) {
		return true
	}
	t := toks[k]
	if afterCode(src, t) || t.kind == cRubyDo || t.kind == cRubyEnd {
		return true
	}
	if t.kind != cVerbatim {
		return false
	}
	switch string(src[t.start:t.end]) {
	case "if", "unless", "while", "until", "rescue", "and", "or", "do", "end", "}", ")", "else", "elsif", "when", "then", "ensure":
		return true
	}
	return false
}

// rubyCallName reports whether w names a method a call may pass
// arguments to without parentheses: a name, not a keyword.
func rubyCallName(w string) bool {
	if !rubyMethodName(w) {
		return false
	}
	if rubyKeyword(w) {
		return w == "super" || w == "yield" // they take arguments as calls do
	}
	switch w {
	case "def", "class", "module", "alias", "undef", "self", "nil", "true", "false", "redo", "retry",
		"BEGIN", "END", "__method__":
		return false
	}
	return true
}

// rubyMethodName reports whether w is spelt as a method's name: a name,
// with ? or ! at its end, keyword or not.
func rubyMethodName(w string) bool {
	if w == "" || !(isLower(w[0]) || w[0] == '_' || ('A' <= w[0] && w[0] <= 'Z')) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; !isIdentByte(c) && !(i == len(w)-1 && (c == '?' || c == '!')) || c == '$' {
			return false
		}
	}
	return true
}

// rubyBeforeKey reports whether a hash's key may follow the token w: an
// opening ( or {, a comma, or a method's name (`f :a => 1`, its
// arguments), but no keyword, after which :a => x would be a pattern
// binding x or a statement.
func rubyBeforeKey(w []byte) bool {
	switch string(w) {
	case "(", "{", ",":
		return true
	case "in", "then", "else", "elsif", "do", "and", "or", "not", "begin", "ensure", "if", "unless",
		"while", "until", "when", "case", "rescue", "end", "for":
		return false
	}
	return len(w) > 0 && (isLower(w[0]) || w[0] == '_') && !bytes.ContainsAny(w, "$@")
}

// rubySymbolKey reports whether t, right after a :, makes a symbol that
// can be written as a key: a name (no ? or !, which a label cannot end
// with) or a string.
func rubySymbolKey(src []byte, t ctok) bool {
	b := src[t.start:t.end]
	if t.kind == cQuoted || t.kind == cRubyStr {
		return true
	}
	if t.kind != cVerbatim || len(b) == 0 {
		return false
	}
	if b[0] == '"' || b[0] == '\'' {
		return len(b) >= 2 && b[len(b)-1] == b[0]
	}
	if isDigit(b[0]) || b[0] == '$' {
		return false
	}
	for _, c := range b {
		if !isIdentByte(c) || c == '$' {
			return false
		}
	}
	return true
}
