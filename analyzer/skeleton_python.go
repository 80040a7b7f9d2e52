package analyzer

import (
	"bytes"
	"slices"
)

// pySkeleton copies src into buf with the statements inside function
// bodies squeezed out that declare and import nothing: each simple
// statement, and each compound statement (if, for, while, try, with,
// match, with their elif, else, except and finally clauses) whose lines
// hold no definition, decorator or import, becomes "(" and ")" at its
// first and last character with only its line breaks between: an empty
// tuple on the same lines. Symbols inside a function are only its nested
// definitions and imports, while its other statements are most of what
// tree-sitter would parse. Kept are every line outside functions (module
// and class level assignments are symbols), and any statement that
// mentions "import" (dynamic imports). Lines do not change; q maps the
// skeleton's offsets back to src (see squeezed). ok is false when src has
// something the scanner does not follow (an unterminated string or
// bracket, indentation Python would reject); the caller then parses src.
func pySkeleton(_ string, src, buf []byte, q *squeezed) (out []byte, ok bool) {
	q.reset()
	buf = append(buf[:0], src...)
	if pyLoneCR(src) {
		// Python ends a line at a lone carriage return, tree-sitter's
		// grammar does not always: leave such (rare) files as they are.
		return buf, false
	}
	s := pyScanner{src: src}
	var lines []pyLine
	indents := []int{0} // Python's indentation stack
	for {
		l, more, ok := s.next()
		if !ok {
			return buf, false
		}
		if !more {
			break
		}
		// Indentation Python would reject (an indent after a line that
		// opens no block, a dedent to no enclosing level) is where
		// tree-sitter's recovery decides what belongs where: leave
		// the file as it is.
		switch top := indents[len(indents)-1]; {
		case l.indent > top:
			if len(lines) == 0 || !lines[len(lines)-1].colon {
				return buf, false
			}
			indents = append(indents, l.indent)
		case l.indent < top:
			for len(indents) > 1 && l.indent < indents[len(indents)-1] {
				indents = indents[:len(indents)-1]
			}
			if l.indent != indents[len(indents)-1] {
				return buf, false
			}
		}
		line := src[l.start:l.end]
		word, rest := pyWord(line)
		if string(word) == "async" {
			word, _ = pyWord(bytes.TrimLeft(rest, " \t\\\r\n\f"))
		}
		l.word, l.colon = pyClassify(word), line[len(line)-1] == ':'
		if l.colon && l.colons > 1 {
			return buf, false // a header with a colon of its own ("if lambda: x:", or worse)
		}
		l.keep = l.word == wordDef || l.word == wordClass || line[0] == '@' || bytes.Contains(line, []byte("import"))
		lines = append(lines, l)
	}
	pyKeepInitAttrs(src, lines)
	type open struct {
		indent int
		def    bool
	}
	var stack []open
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		for len(stack) > 0 && l.indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		if l.colon && (l.word == wordDef || l.word == wordClass) {
			stack = append(stack, open{l.indent, l.word == wordDef})
			continue
		}
		if len(stack) == 0 || !stack[len(stack)-1].def || l.keep {
			continue
		}
		j, ok := pyBlankable(lines, i)
		if !ok {
			continue
		}
		// Statements in a row at one indentation become one tuple.
		for j+1 < len(lines) && lines[j+1].indent == l.indent {
			k, ok := pyBlankable(lines, j+1)
			if !ok {
				break
			}
			j = k
		}
		if a, b := l.start, lines[j].end; b-a >= 2 {
			buf[a] = '('
			buf[b-1] = ')'
			if b-a > 2 {
				q.cuts = append(q.cuts, span{a + 1, b - 1})
			}
		}
		i = j
	}
	return q.squeeze(buf, q.cuts), true
}

// pyKeepInitAttrs keeps, in each __init__ defined directly in a class, the
// lines that may assign an attribute of its first parameter ("self.x =",
// "self.x: T", "if a: self.x = a"): the walker reads the attributes
// assigned there as the class's fields. Keeping a few more lines than it
// reads costs nothing but their parse.
func pyKeepInitAttrs(src []byte, lines []pyLine) {
	type open struct {
		indent int
		class  bool
		self   []byte // an __init__ directly in a class: its first parameter
	}
	var stack []open
	for i := range lines {
		l := &lines[i]
		for len(stack) > 0 && l.indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		line := src[l.start:l.end]
		if l.colon && (l.word == wordDef || l.word == wordClass) {
			o := open{indent: l.indent, class: l.word == wordClass}
			if !o.class && len(stack) > 0 && stack[len(stack)-1].class {
				o.self = pyInitSelf(line)
			}
			stack = append(stack, o)
			continue
		}
		if len(stack) == 0 {
			continue
		}
		if self := stack[len(stack)-1].self; self != nil && pyAssigns(line, self) {
			l.keep = true
		}
	}
}

// pyAssigns reports whether line may assign an attribute of name: it
// has name, a dot and an identifier followed by "=" (not "==") or ":".
func pyAssigns(line, name []byte) bool {
	for {
		i := bytes.Index(line, name)
		if i < 0 {
			return false
		}
		if line = line[i+len(name):]; len(line) == 0 || line[0] != '.' {
			continue
		}
		attr, rest := pyWord(line[1:])
		if len(attr) == 0 {
			continue
		}
		rest = bytes.TrimLeft(rest, " \t\\\r\n")
		if len(rest) > 0 && (rest[0] == ':' || rest[0] == '=' && (len(rest) == 1 || rest[1] != '=')) {
			return true
		}
	}
}

// pyInitSelf returns the first parameter of the header "def __init__(p,
// …):", nil for any other header.
func pyInitSelf(line []byte) []byte {
	word, rest := pyWord(line)
	if string(word) == "async" {
		word, rest = pyWord(pySpace(rest))
	}
	if string(word) != "def" {
		return nil
	}
	name, rest := pyWord(pySpace(rest))
	if string(name) != "__init__" {
		return nil
	}
	rest = pySpace(rest)
	if len(rest) == 0 || rest[0] != '(' {
		return nil
	}
	self, _ := pyWord(pySpace(rest[1:]))
	if len(self) == 0 || isDigit(self[0]) {
		return nil
	}
	return self
}

// pySpace skips white space, line continuations, line breaks and comments
// (inside a header's brackets).
func pySpace(b []byte) []byte {
	for len(b) > 0 {
		switch b[0] {
		case ' ', '\t', '\f', '\r', '\n', '\\':
			b = b[1:]
		case '#':
			i := bytes.IndexAny(b, "\r\n")
			if i < 0 {
				return nil
			}
			b = b[i:]
		default:
			return b
		}
	}
	return b
}

// pyBlankable reports whether the statement at lines[i] (not a
// definition) can be blanked, and the index of its last line.
func pyBlankable(lines []pyLine, i int) (int, bool) {
	l := lines[i]
	switch {
	case l.keep:
		return i, false
	case l.word == wordCompound:
		j := pyStatementEnd(lines, i)
		// With a definition or an import inside, its header stays and
		// its lines are seen one by one.
		return j, !slices.ContainsFunc(lines[i:j+1], func(l pyLine) bool { return l.keep })
	case l.colon:
		return i, false // a clause on its own (after a syntax error)
	}
	return i, true
}

// pyWordKind classifies the first word of a logical line.
type pyWordKind uint8

const (
	wordOther    pyWordKind = iota
	wordDef                 // def, async def
	wordClass               // class
	wordCompound            // if, for, while, try, with, match (async for, async with)
	wordClause              // elif, else, except, finally: a compound statement goes on
)

// pyLoneCR reports whether src has a carriage return not followed by a
// line feed.
func pyLoneCR(src []byte) bool {
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			return true
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// pyClassify returns the kind of a logical line's first word.
func pyClassify(word []byte) pyWordKind {
	switch string(word) {
	case "def":
		return wordDef
	case "class":
		return wordClass
	case "if", "for", "while", "try", "with", "match":
		return wordCompound
	case "elif", "else", "except", "finally":
		return wordClause
	}
	return wordOther
}

// pyStatementEnd is the index of the last logical line of the compound
// statement whose header is lines[i]: its block, and the blocks of the
// clauses that continue it at the same indentation.
func pyStatementEnd(lines []pyLine, i int) int {
	in := lines[i].indent
	k := i + 1
	for {
		for k < len(lines) && lines[k].indent > in {
			k++
		}
		if k == len(lines) || lines[k].indent != in {
			return k - 1
		}
		if lines[k].word != wordClause {
			return k - 1
		}
		k++
	}
}

// pyWord splits off the identifier at the start of b.
func pyWord(b []byte) ([]byte, []byte) {
	i := 0
	for i < len(b) && (b[i] == '_' || isDigit(b[i]) || b[i]|0x20 >= 'a' && b[i]|0x20 <= 'z' || b[i] >= 0x80) {
		i++
	}
	return b[:i], b[i:]
}

// pyScanner splits Python source into logical lines: physical lines joined
// by open brackets, strings and backslash continuations, without comments
// and blank lines.
type pyScanner struct {
	src []byte
	i   int
}

// pyLine is a logical line: the offsets of its first and after its last
// code character, the column of the first (tabs to multiples of 8), its
// first word (after async), whether it ends with a colon, whether it
// defines, decorates or imports, and its colons outside brackets.
type pyLine struct {
	start, end, indent int
	word               pyWordKind
	colon, keep        bool
	colons             int // outside brackets and strings
}

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
		case c == ':' && depth == 0:
			l.colons++
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
