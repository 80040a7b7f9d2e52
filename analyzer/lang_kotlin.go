package analyzer

import "bytes"

// maskKotlin writes over what the Kotlin grammar tree-sitter bundles
// cannot parse, keeping every offset and line:
//
//   - the fun of Kotlin 1.4's functional interfaces (fun interface
//     Listener { … }) becomes spaces: the grammar predates them, misreads
//     the declaration as a function named interface and loses the class
//     around it from there on; without the fun it reads an interface, as
//     the compiler does but for the single abstract method. Only a fun
//     that starts a line's code, after modifiers and annotations, is
//     blanked.
//   - the = of a compound assignment (+=, -=, *=, /=, %=) becomes a
//     space: the grammar takes none whose target goes through a call
//     (m.getOrPut(k) { … } += v, f().x -= 1), and its recovery may
//     swallow the enclosing declarations; a + v reads as an expression
//     statement instead.
//   - likewise the = of an assignment through a call that is a line's
//     code (getView<TextView>(id).text = value) becomes a +.
//   - the delegation of an object expression's supertype (object : X by
//     noOpDelegate() { … }), which the grammar takes in class
//     declarations only, becomes spaces: object : X { … }.
//
// A scan of the lines keeps out block comments (nested, as Kotlin's),
// line comments and string literals (raw ones over several lines).
func maskKotlin(src, buf []byte) ([]byte, bool) {
	var edits []ktEdit
	depth := 0   // open block comments
	raw := false // inside a raw string ("""…""")
	for i := 0; i < len(src); {
		e := lineEnd(src, i)
		if depth == 0 && !raw {
			if k := ktFunInterface(src, i, e); k >= 0 {
				edits = append(edits, ktEdit{k, k + len("fun"), ' '})
			} else if k := ktAssignThroughCall(src, i, e); k >= 0 {
				edits = append(edits, ktEdit{k, k + 1, '+'})
			}
		}
		depth, raw, edits = ktScanLine(src[i:e], i, depth, raw, edits)
		i = e + 1
	}
	if len(edits) == 0 {
		return buf, false
	}
	buf = append(buf[:0], src...)
	for _, d := range edits {
		for k := d.a; k < d.b; k++ {
			if buf[k] != '\n' {
				buf[k] = d.c
			}
		}
	}
	return buf, true
}

// ktEdit writes c over the bytes [a, b) of the masked copy but its
// newlines.
type ktEdit struct {
	a, b int
	c    byte
}

// ktModifier reports whether w is a modifier a fun interface may follow.
func ktModifier(w string) bool {
	switch w {
	case "public", "internal", "private", "protected", "sealed", "expect", "actual":
		return true
	}
	return false
}

// ktFunInterface returns the offset of the fun of a fun interface
// declaration that starts the code of the line src[i:e], after blanks,
// modifiers and annotations (@Foo, @a.Foo, @get:Foo, @Foo(…) with its
// arguments on the line), or -1.
func ktFunInterface(src []byte, i, e int) int {
	if i == 0 && bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		i = 3 // a byte order mark
	}
	skip := func(k int) int {
		for k < e && (src[k] == ' ' || src[k] == '\t' || src[k] == '\r') {
			k++
		}
		return k
	}
	word := func(k int) int {
		for k < e && isIdentByte(src[k]) && src[k] != '$' {
			k++
		}
		return k
	}
	k := skip(i)
	for k < e {
		if src[k] == '@' {
			k++
			for k < e && (isIdentByte(src[k]) || src[k] == '.' || src[k] == ':') {
				k++
			}
			if k < e && src[k] == '(' {
				if k = ktCloseParen(src, k, e); k < 0 {
					return -1
				}
			}
			if k < e && !(src[k] == ' ' || src[k] == '\t') {
				return -1
			}
			k = skip(k)
			continue
		}
		w := word(k)
		if w == k || w == e || !(src[w] == ' ' || src[w] == '\t') {
			return -1
		}
		if ktModifier(string(src[k:w])) {
			k = skip(w)
			continue
		}
		if string(src[k:w]) != "fun" {
			return -1
		}
		n := skip(w)
		if !bytes.HasPrefix(src[n:e], []byte("interface")) {
			return -1
		}
		if m := n + len("interface"); m < e && isIdentByte(src[m]) {
			return -1
		}
		return k
	}
	return -1
}

// ktAssignThroughCall returns the offset of the = of an assignment that
// starts the code of the line src[i:e] and whose target goes through a
// call (f(x).y = z, m.g { … }.y[0] = z), or -1. The target is one run
// of code without blanks outside brackets but before a trailing lambda,
// so that no declaration (val x = …, fun f() = …, get() = …) is taken
// for one.
func ktAssignThroughCall(src []byte, i, e int) int {
	for i < e && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i == e || !(isIdentByte(src[i]) && (src[i] < '0' || src[i] > '9')) {
		return -1
	}
	depth, call := 0, false
	for k := i; k < e; k++ {
		switch c := src[k]; c {
		case '"', '\'':
			k = ktQuoteEnd(src, k, e)
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth < 0 {
				return -1
			}
			if depth == 0 && c != ']' {
				call = true
			}
		case ' ', '\t':
			if depth > 0 || k+1 < e && src[k+1] == '{' {
				continue // in brackets, or before a trailing lambda
			}
			// the blank before " = ", and nothing else
			if k+2 < e && src[k+1] == '=' && src[k+2] != '=' && k > i &&
				(isIdentByte(src[k-1]) || src[k-1] == ']') && call && ktNavigated(src[i:k]) {
				return k + 1
			}
			return -1
		case '/':
			if depth == 0 && k+1 < e && (src[k+1] == '/' || src[k+1] == '*') {
				return -1
			}
		}
	}
	return -1
}

// ktNavigated reports whether a target ends in a member or an index
// after its last call: f(x).y, f(x)[0], not f(x) or get().
func ktNavigated(t []byte) bool {
	last := bytes.LastIndexAny(t, ")}")
	return last >= 0 && last+1 < len(t) && (t[last+1] == '.' || t[last+1] == '[' || t[last+1] == '?' || t[last+1] == '!')
}

// ktQuoteEnd returns the offset of the quote that closes the one-line
// literal opened by the quote at src[k] (escapes skipped), or e or past
// it when the line ends first.
func ktQuoteEnd(src []byte, k, e int) int {
	q := k + 1
	for q < e && src[q] != src[k] {
		if src[q] == '\\' {
			q++
		}
		q++
	}
	return q
}

// ktCloseParen returns the offset after the parenthesis that closes the
// one at src[k], on the line ending at e (strings in it skipped), or -1.
func ktCloseParen(src []byte, k, e int) int {
	d := 0
	for ; k < e; k++ {
		switch src[k] {
		case '"':
			k = ktQuoteEnd(src, k, e)
		case '(':
			d++
		case ')':
			if d--; d == 0 {
				return k + 1
			}
		}
	}
	return -1
}

// ktScanLine follows one line, at offset base of the file, through block
// comments (depth open ones, nested) and raw strings (raw open) and
// returns the state at its end, appending to edits those of the
// compound assignments and object expressions' delegations in its code.
// Line comments and one-line string and character literals end within
// the line; a literal's quotes are not read as comments or raw strings.
func ktScanLine(line []byte, base, depth int, raw bool, edits []ktEdit) (int, bool, []ktEdit) {
	n := len(line)
	for j := 0; j < n; {
		c := line[j]
		next := byte(0)
		if j+1 < n {
			next = line[j+1]
		}
		switch {
		case depth > 0:
			switch {
			case c == '*' && next == '/':
				depth--
				j += 2
			case c == '/' && next == '*':
				depth++
				j += 2
			default:
				j++
			}
		case raw:
			if bytes.HasPrefix(line[j:], []byte(`"""`)) {
				// a raw string ends at the last three of a run of quotes
				j += 3
				for j < n && line[j] == '"' {
					j++
				}
				raw = false
			} else {
				j++
			}
		case c == '/' && next == '/':
			return depth, raw, edits
		case c == '/' && next == '*':
			depth++
			j += 2
		case bytes.HasPrefix(line[j:], []byte(`"""`)):
			raw = true
			j += 3
		case c == '"' || c == '\'':
			j = ktQuoteEnd(line, j, n) + 1
		case next == '=' && (c == '+' || c == '-' || c == '*' || c == '/' || c == '%') && (j+2 == n || line[j+2] != '='):
			edits = append(edits, ktEdit{base + j + 1, base + j + 2, ' '})
			j += 2
		case c == 'o' && (j == 0 || !isIdentByte(line[j-1])) && ktWordAt(line, j, "object"):
			for _, r := range ktObjectBy(line, j+len("object")) {
				edits = append(edits, ktEdit{base + r[0], base + r[1], ' '})
			}
			j += len("object")
		default:
			j++
		}
	}
	return depth, raw, edits
}

// ktWordAt reports whether the word w is at line[j], not followed by
// more of an identifier.
func ktWordAt(line []byte, j int, w string) bool {
	return bytes.HasPrefix(line[j:], []byte(w)) && (j+len(w) == len(line) || !isIdentByte(line[j+len(w)]))
}

// ktObjectBy returns the extents of the delegations (by and their
// expressions) among the supertypes of an object expression whose
// supertypes start after its object keyword at line[k] and whose body or
// end is on the line; none when the line does not show them whole.
func ktObjectBy(line []byte, k int) [][2]int {
	n := len(line)
	for k < n && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	if k >= n || line[k] != ':' || (k+1 < n && line[k+1] == ':') {
		return nil
	}
	var out [][2]int
	depth, by := 0, -1 // by: where the delegation being read starts
	for k++; k < n; k++ {
		switch c := line[k]; {
		case c == '"' || c == '\'':
			k = ktQuoteEnd(line, k, n)
		case c == '(' || c == '[' || (c == '<' && by < 0):
			depth++
		case c == ')' || c == ']' || (c == '>' && by < 0):
			if depth--; depth >= 0 {
				continue
			}
			// the end of the object expression (an argument's)
			if by >= 0 && c == ')' {
				out = append(out, [2]int{by, k})
			}
			return out
		case depth > 0:
		case c == '/' && k+1 < n && (line[k+1] == '/' || line[k+1] == '*'):
			return nil
		case c == 'b' && by < 0 && (line[k-1] == ' ' || line[k-1] == '\t') && ktWordAt(line, k, "by"):
			by = k
		case c == ',' || c == '{':
			if by >= 0 {
				out = append(out, [2]int{by, k})
				by = -1
			}
			if c == '{' {
				return out
			}
		}
	}
	return nil
}
