package analyzer

import (
	"bytes"
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
	return end, interpolatedParts(s, i, end)
}

// interpolatedParts adds the parts of the literal src[i:end] (a string
// or a regular expression) that interpolates code: its text around #{…}
// as written, the code inside read as code. It adds nothing and reports
// false for a literal without #{.
func interpolatedParts(s *scanState, i, end int) bool {
	src := s.src
	if !interpolates(src[i:end]) {
		return false
	}
	part := i
	for j := i + 1; j < end; {
		switch {
		case src[j] == '\\':
			j += 2
		case src[j] == '#' && j+1 < end && src[j+1] == '{':
			s.add(part, j+2, cRubyLit)
			close := s.skipCode(j+2, '{', '}')
			if close > end || src[close-1] != '}' {
				s.add(part, end, cRubyLit) // unterminated: the rest is text
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
	s.add(part, end, cRubyLit)
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

// appendHeredoc appends the canonical text of a heredoc's opener or body.
// The opener is <<ID whichever of <<~ID, <<-ID and <<ID is written; the
// body says the text the heredoc makes: a <<~ body without the
// indentation Ruby removes, and either body ends with its terminator,
// unindented. So <<-ID and <<~ID read the same exactly when their text
// is the same.
func appendHeredoc(buf, text []byte, k ckind) []byte {
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
		if bytes.Contains(t, []byte("#{")) && bytes.Count(t, []byte("{")) != bytes.Count(t, []byte("}")) {
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

// blanks counts the spaces and tabs that begin l.
func blanks(l []byte) int {
	n := 0
	for n < len(l) && (l[n] == ' ' || l[n] == '\t') {
		n++
	}
	return n
}

// appendWords appends a %w or %i literal with its words one blank apart
// and none at either end: the array it makes, in its delimiters.
// Whitespace escaped by a backslash belongs to its word.
func appendWords(buf, text []byte) []byte {
	if len(text) < 4 || text[len(text)-1] != closer(text[2]) {
		return append(buf, text...) // unterminated
	}
	buf = append(buf, text[:3]...)
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
	return append(buf, text[len(text)-1])
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

// tidyRuby reads the spellings RuboCop's style cops choose between the
// same:
//   - a line end after the keywords do and then is the line end alone:
//     `do |x|` on the line of its call or the next, `if c then` and
//     `if c` closing their lines;
//   - a method defined with an empty parameter list, `def f()` closing
//     its line, is `def f` (RuboCop's Style/DefWithParentheses);
//   - a symbol key before => is the key: label, `:a => 1` being `a: 1`
//     and `:"a b" => 1` being `"a b": 1`, in a call's arguments or a
//     hash's braces, outside a pattern (where `in :a => x` binds x) and
//     an array's brackets (where a pattern may bind too).
func tidyRuby(src []byte, toks []ctok) []ctok {
	text := func(k int) string {
		if k < 0 || k >= len(toks) || toks[k].kind != cVerbatim {
			return ""
		}
		return string(src[toks[k].start:toks[k].end])
	}
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
	out := toks[:0]
	var open []string
	pattern := false
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch w := text(k); {
		case t.kind == cSemi:
			pattern = false
		case w == "(" && text(k+1) == ")" && k+2 < len(toks) && toks[k+2].kind == cSemi &&
			(text(k-2) == "def" || (text(k-4) == "def" && text(k-2) == ".")):
			k++ // def f() is def f
			continue
		case w == "(" || w == "[" || w == "{":
			open = append(open, w)
		case w == ")" || w == "]" || w == "}":
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case keyword(k, "in"):
			pattern = true
		case keyword(k, "then"):
			pattern = false
			if k+1 < len(toks) && toks[k+1].kind == cSemi {
				continue // the line end that follows reads alone
			}
		case keyword(k, "do"):
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
	return out
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
