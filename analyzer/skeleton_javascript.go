package analyzer

import (
	"bytes"
	"strings"
)

// jsSkeleton copies src (JavaScript or TypeScript) into buf with what
// walkJS does not read squeezed out (see squeezed): the bodies of
// functions, methods, accessors and arrow functions but their line breaks,
// and the insides of comments but their first three and last two bytes.
// walkJS reads no statement inside a body (functions declared there are
// not symbols), while bodies are most of what tree-sitter parses in
// implementation code. A body is the "{" after ")" (a parameter list) on
// the same line, after "=>", or after the return type that follows a
// parameter list's "):"; never the body of a class (whose heritage may end
// in ")"), and never a body that mentions "require" or "import" (calls
// that are imports). Lines do not change, so the tree of the skeleton has
// the lines of the tree of src; q maps its offsets back to src. ok is
// false when the scanner loses its way (an unterminated literal or
// comment, brackets that do not match, a regular expression it cannot
// delimit, as JSX often makes it) or squeezes nothing; the caller then
// parses src. A skeleton that still misleads tree-sitter parses with
// errors, and the caller parses src then too. Declaration files (.d.ts)
// are not scanned: they have no bodies, and their comments are not worth
// it, since tree-sitter finds errors in a sixth of @types/node's, and its
// error recovery, which counts skipped bytes, may read a squeezed file
// differently: each of those would be parsed twice.
func jsSkeleton(path string, src, buf []byte, q *squeezed) (out []byte, ok bool) {
	q.reset()
	if declarationFile(path) {
		return buf, false
	}
	s := jsScan{src: src, classAt: -1, retAt: -1, cuts: q.cuts}
	ok = s.run() && len(s.cuts) > 0
	q.cuts = s.cuts[:0]
	if !ok {
		return buf, false
	}
	return q.squeeze(append(buf[:0], src...), s.cuts), true
}

// jsPrev classifies the last significant token: what may follow it.
type jsPrev uint8

const (
	jsOp    jsPrev = iota // an operator, an opening bracket, a keyword that takes an operand, the start
	jsValue               // a name, a literal, "]" or "}": an expression or type ends here
	jsParen               // ")"
	jsArrow               // "=>"
	jsAngle               // ">": an operator, or the end of type arguments
	jsDot                 // ".": a property name follows
)

type jsFrame struct {
	open byte // '{', '(', '[', or '$' for a template's ${
	at   int
	body bool // a body: squeeze it out when it closes
}

type jsScan struct {
	src     []byte
	stack   []jsFrame
	prev    jsPrev
	classAt int  // stack depth at which a class header waits for its body, or -1
	retAt   int  // stack depth of a return type after "):", or -1
	nl      bool // a line break since the last token
	cuts    []span
}

// cut marks src[from:to] to be squeezed out, when it is not empty.
func (s *jsScan) cut(from, to int) {
	if to > from {
		s.cuts = append(s.cuts, span{from, to})
	}
}

// declarationFile tells a TypeScript declaration file by its name.
func declarationFile(path string) bool {
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}

// mentionsImport tells whether b spells "require" or "import": a body
// that may hold an import (a call to require or import) is kept.
func mentionsImport(b []byte) bool {
	return bytes.Contains(b, []byte("require")) || bytes.Contains(b, []byte("import"))
}

func (s *jsScan) run() bool {
	src := s.src
	n := len(src)
	i := 0
	if bytes.HasPrefix(src, []byte("#!")) {
		for i < n && src[i] != '\n' {
			i++
		}
	}
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '\n':
			if s.retAt == len(s.stack) {
				s.retAt = -1
			}
			s.nl = true
			i++
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			j := i
			for j < n && src[j] != '\n' {
				j++
			}
			s.cut(i+3, j)
			i = j
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return false
			}
			e := i + 2 + j + 2
			s.cut(i+3, e-2)
			i = e
			continue
		}
		var ok bool
		if i, ok = s.token(i); !ok {
			return false
		}
		s.nl = false
	}
	return len(s.stack) == 0
}

// token scans the token at src[i], which is neither space nor comment,
// and returns where the next one may start.
func (s *jsScan) token(i int) (int, bool) {
	src := s.src
	n := len(src)
	c := src[i]
	switch c {
	case '/':
		switch {
		case s.prev == jsValue || s.prev == jsParen:
			s.prev = jsOp // division
			i++
		default:
			j, ok := jsRegexEnd(src, i)
			if !ok {
				return i, false
			}
			s.prev = jsValue
			return j, true
		}
	case '"', '\'':
		j := i + 1
		for j < n && src[j] != c {
			if src[j] == '\\' {
				j++
			} else if src[j] == '\n' {
				return i, false
			}
			j++
		}
		if j >= n {
			return i, false
		}
		s.prev = jsValue
		return j + 1, true
	case '`':
		return s.template(i + 1)
	case '{':
		d := len(s.stack)
		body := false
		switch {
		case s.classAt == d && s.prev != jsOp:
			s.classAt = -1 // a class body: its members are symbols
		case s.classAt == d: // an object type in the class's header
		case s.prev == jsParen && !s.nl:
			// A "{" on a line of its own after ")" may be a
			// block of its own after a call without a semicolon.
			body = true
		case s.prev == jsArrow:
			body = true
		case s.retAt == d && (s.prev == jsValue || s.prev == jsAngle):
			body = true // after a return type; else an object type in it
		}
		if body && s.retAt == d {
			s.retAt = -1
		}
		s.stack = append(s.stack, jsFrame{open: '{', at: i, body: body})
		s.prev = jsOp
		i++
	case '}':
		d := len(s.stack) - 1
		if d < 0 {
			return i, false
		}
		f := s.stack[d]
		s.stack = s.stack[:d]
		s.dropModes()
		if f.open == '$' { // back into the template
			return s.template(i + 1)
		}
		if f.open != '{' {
			return i, false
		}
		if f.body && i > f.at+1 && !mentionsImport(s.src[f.at+1:i]) {
			s.cut(f.at+1, i)
		}
		s.prev = jsValue
		i++
	case '(', '[':
		s.stack = append(s.stack, jsFrame{open: c, at: i})
		s.prev = jsOp
		i++
	case ')', ']':
		want := byte('(')
		if c == ']' {
			want = '['
		}
		d := len(s.stack) - 1
		if d < 0 || s.stack[d].open != want {
			return i, false
		}
		s.stack = s.stack[:d]
		s.dropModes()
		s.prev = jsValue
		if c == ')' {
			s.prev = jsParen
		}
		i++
	case ':':
		if s.prev == jsParen {
			s.retAt = len(s.stack)
		}
		s.prev = jsOp
		i++
	case ';':
		if s.retAt == len(s.stack) {
			s.retAt = -1
		}
		s.prev = jsOp
		i++
	case '=':
		if i+1 < n && src[i+1] == '>' {
			s.prev = jsArrow
			return i + 2, true
		}
		if s.retAt == len(s.stack) {
			s.retAt = -1 // a default value or an initializer, not a body
		}
		s.prev = jsOp
		i++
	case '>':
		s.prev = jsAngle
		i++
	case '.':
		s.prev = jsDot
		if i+1 < n && src[i+1] >= '0' && src[i+1] <= '9' {
			s.prev = jsValue // .5
			i++
			for i < n && isIdentByte(src[i]) {
				i++
			}
			return i, true
		}
		i++
	case '#':
		i++ // a private name: the name follows
	default:
		if !isIdentByte(c) {
			s.prev = jsOp
			return i + 1, true
		}
		j := i + 1
		for j < n && isIdentByte(src[j]) {
			j++
		}
		s.word(src[i:j])
		return j, true
	}
	return i, true
}

// dropModes forgets a class header or return type that was waiting at a
// depth the scanner has just left.
func (s *jsScan) dropModes() {
	d := len(s.stack)
	if s.classAt > d {
		s.classAt = -1
	}
	if s.retAt > d {
		s.retAt = -1
	}
}

// word classifies a name, number or keyword.
func (s *jsScan) word(w []byte) {
	afterDot := s.prev == jsDot
	s.prev = jsValue
	if afterDot || w[0] >= '0' && w[0] <= '9' {
		return
	}
	switch string(w) {
	case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
		"throw", "case", "do", "else", "yield", "await":
		s.prev = jsOp // an operand follows: "/" starts a regular expression
	case "extends", "implements":
		s.prev = jsOp // a type follows, which may be an object type
	case "class":
		s.classAt = len(s.stack)
		s.retAt = -1
	case "namespace", "module", "interface", "enum", "function", "declare",
		"export", "import", "const", "let", "var", "global", "abstract":
		s.retAt = -1 // a declaration starts: no return type goes on
	}
}

// template scans a template literal from just after its opening "`" or
// the "}" of a substitution: to its end, or into a substitution, whose
// frame it pushes. It returns where scanning resumes.
func (s *jsScan) template(i int) (int, bool) {
	src := s.src
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '`':
			s.prev = jsValue
			return i + 1, true
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				s.stack = append(s.stack, jsFrame{open: '$', at: i + 1})
				s.prev = jsOp
				return i + 2, true
			}
		}
		i++
	}
	return i, false
}

// jsRegexEnd returns the end of the regular expression literal at src[i]
// (a "/"), flags included; false when it does not end on its line.
func jsRegexEnd(src []byte, i int) (int, bool) {
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n', '\r':
			return j, false
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				j++
				for j < len(src) && isIdentByte(src[j]) {
					j++
				}
				return j, true
			}
		}
	}
	return len(src), false
}
