package analyzer

import "bytes"

// pySkeleton copies src into buf with the simple statements inside
// function bodies blanked: each becomes "(" and ")" at its first and last
// character with spaces between, an empty tuple on the same lines. Symbols
// inside a function are only its nested definitions and imports, while
// its other statements are most of what tree-sitter would parse. Kept
// are every line outside functions (module and class level assignments
// are symbols), compound statement headers, definitions and decorators,
// and any statement that mentions "import" (dynamic imports). Offsets and
// lines do not change, so the tree of the skeleton reads as the tree of
// src. ok is false when src has something the scanner does not follow
// (an unterminated string or bracket); the caller then parses src.
func pySkeleton(src, buf []byte) (out []byte, ok bool) {
	buf = append(buf[:0], src...)
	s := pyScanner{src: src}
	type open struct {
		indent int
		def    bool
	}
	var stack []open
	for {
		l, more, ok := s.next()
		if !ok {
			return buf, false
		}
		if !more {
			return buf, true
		}
		for len(stack) > 0 && l.indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		line := src[l.start:l.end]
		word, rest := pyWord(line)
		if word == "async" {
			word, _ = pyWord(bytes.TrimLeft(rest, " \t\\\r\n\f"))
		}
		colon := line[len(line)-1] == ':'
		if colon && (word == "def" || word == "class") {
			stack = append(stack, open{l.indent, word == "def"})
			continue
		}
		if len(stack) == 0 || !stack[len(stack)-1].def || colon || line[0] == '@' ||
			pyKeeps(word) || l.end-l.start < 2 || bytes.Contains(line, []byte("import")) {
			continue
		}
		buf[l.start] = '('
		for i := l.start + 1; i < l.end-1; i++ {
			if buf[i] != '\n' && buf[i] != '\r' {
				buf[i] = ' '
			}
		}
		buf[l.end-1] = ')'
	}
}

// pyKeeps are the first words of statements that are kept inside
// functions: compound statements and definitions (also when written on
// one line, "if x: y") and imports.
func pyKeeps(word string) bool {
	switch word {
	case "def", "class", "if", "elif", "else", "for", "while", "try", "except",
		"finally", "with", "match", "case", "import", "from":
		return true
	}
	return false
}

// pyWord splits off the identifier at the start of b.
func pyWord(b []byte) (string, []byte) {
	i := 0
	for i < len(b) && (b[i] == '_' || isDigit(b[i]) || b[i]|0x20 >= 'a' && b[i]|0x20 <= 'z' || b[i] >= 0x80) {
		i++
	}
	return string(b[:i]), b[i:]
}

// pyScanner splits Python source into logical lines: physical lines joined
// by open brackets, strings and backslash continuations, without comments
// and blank lines.
type pyScanner struct {
	src []byte
	i   int
}

// pyLine is a logical line: the offsets of its first and after its last
// code character, and the column of the first (tabs to multiples of 8).
type pyLine struct{ start, end, indent int }

// next returns the next logical line; more is false at the end, ok false
// on source the scanner cannot follow.
func (s *pyScanner) next() (l pyLine, more, ok bool) {
	src := s.src
	for {
		// the indentation of a physical line
		col := 0
		for s.i < len(src) {
			switch src[s.i] {
			case ' ':
				col++
			case '\t':
				col = col/8*8 + 8
			case '\f':
				col = 0
			default:
				goto indented
			}
			s.i++
		}
	indented:
		if s.i >= len(src) {
			return l, false, true
		}
		switch c := src[s.i]; {
		case c == '\n' || c == '\r':
			s.i++
			continue // blank line
		case c == '#':
			s.skipComment()
			continue
		case c == '\\' && s.i+1 < len(src) && (src[s.i+1] == '\n' || src[s.i+1] == '\r'):
			return l, false, false // a continuation before any code: rare, let tree-sitter judge
		}
		l = pyLine{start: s.i, indent: col}
		break
	}
	depth := 0
	for s.i < len(src) {
		c := src[s.i]
		switch {
		case c == '#':
			s.skipComment()
			continue
		case c == '\n' || c == '\r':
			if depth == 0 {
				s.i++
				return l, true, true
			}
			s.i++
			continue
		case c == ' ' || c == '\t' || c == '\f':
			s.i++
			continue
		case c == '\\':
			if s.i+1 < len(src) && (src[s.i+1] == '\n' || src[s.i+1] == '\r') {
				s.i += 2
				if src[s.i-1] == '\r' && s.i < len(src) && src[s.i] == '\n' {
					s.i++
				}
				continue
			}
			s.i++
		case c == '"' || c == '\'':
			if !s.skipString() {
				return l, false, false
			}
		case c == '(' || c == '[' || c == '{':
			depth++
			s.i++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return l, false, false
			}
			depth--
			s.i++
		default:
			s.i++
		}
		l.end = s.i
	}
	if depth > 0 {
		return l, false, false
	}
	return l, true, true
}

func (s *pyScanner) skipComment() {
	for s.i < len(s.src) && s.src[s.i] != '\n' && s.src[s.i] != '\r' {
		s.i++
	}
}

// skipString moves past the string literal whose opening quote is at s.i,
// reading its prefix (r, b, u, f, t in any case) from the bytes before.
func (s *pyScanner) skipString() bool {
	src := s.src
	// A prefix is up to two letters before the quote that start a token;
	// the backslash rules that matter here are the same with r or not.
	format, k := false, s.i-1
	for ; k >= 0 && k >= s.i-2; k-- {
		c := src[k] | 0x20
		if c != 'r' && c != 'b' && c != 'u' && c != 'f' && c != 't' {
			break
		}
		format = format || c == 'f' || c == 't'
	}
	if k >= 0 && (goIdentStart(src[k]) || isDigit(src[k]) || src[k] >= 0x80) {
		format = false // letters of a name before the quote, not a prefix
	}
	q := src[s.i]
	triple := s.i+2 < len(src) && src[s.i+1] == q && src[s.i+2] == q
	if triple {
		s.i += 3
	} else {
		s.i++
	}
	for s.i < len(src) {
		c := src[s.i]
		switch {
		case c == '\\':
			s.i += 2
			continue
		case c == q:
			if !triple {
				s.i++
				return true
			}
			if s.i+2 < len(src) && src[s.i+1] == q && src[s.i+2] == q {
				s.i += 3
				return true
			}
		case (c == '\n' || c == '\r') && !triple:
			return false
		case c == '{' && format:
			if s.i+1 < len(src) && src[s.i+1] == '{' {
				s.i += 2
				continue
			}
			s.i++
			if !s.skipField() {
				return false
			}
			continue
		}
		s.i++
	}
	return false
}

// skipField moves past a replacement field of an f-string, from after its
// "{" to after its "}": an expression (brackets and strings of its own),
// then an optional conversion and format spec with nested fields.
func (s *pyScanner) skipField() bool {
	src := s.src
	depth := 0
	for s.i < len(src) {
		c := src[s.i]
		switch {
		case c == '"' || c == '\'':
			if !s.skipString() {
				return false
			}
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == '}':
			if depth == 0 {
				s.i++
				return true
			}
			depth--
		case c == ':' && depth == 0:
			s.i++
			return s.skipSpec()
		case c == '#':
			return false // comments in fields: leave it to tree-sitter
		}
		s.i++
	}
	return false
}

// skipSpec moves past a format spec, from after its ":" to after the "}"
// that closes the field.
func (s *pyScanner) skipSpec() bool {
	src := s.src
	for s.i < len(src) {
		switch src[s.i] {
		case '{':
			s.i++
			if !s.skipField() {
				return false
			}
			continue
		case '}':
			s.i++
			return true
		case '\n', '\r':
			return false
		}
		s.i++
	}
	return false
}
