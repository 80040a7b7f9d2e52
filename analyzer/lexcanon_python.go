package analyzer

// Python in the canonical stream (docs/fingerprints.md): logical lines and
// blocks as the tokenizer reads them (NEWLINE, INDENT, DEDENT), statements
// one per line, docstrings left out, trailing commas but a one-element
// tuple's, the parentheses black adds or removes around a statement's
// whole expression or a literal, and adjacent strings joined as Python
// joins them.

// canonPython returns the canonical stream of Python source.
func canonPython(sc *scratch, src []byte, out []ctok) []ctok {
	toks := lexPython(src, out)
	toks = pyCompoundBodies(src, toks)
	toks = pySemicolons(src, toks)
	toks = pyDropBareStrings(src, toks)
	toks = pyJoinStrings(src, toks)
	toks = pyDropEmptyClassParens(src, toks)
	toks = dropTrailingCommas(sc, src, toks, func(comma int, match []int) bool {
		// "(a,)" is a tuple and "x[a,]" indexes with one: a sole element's
		// comma stays unless the brackets are a call's or a list's.
		if !soleElement(src, toks, comma, match) {
			return false
		}
		o := groupOpen(src, toks, comma, match)
		if o < 0 {
			return true
		}
		if o > 0 && is(src, toks[o-1], "import") {
			return false // "from m import (a,)" imports a, no tuple
		}
		afterValue := o > 0 && pyEndsOperand(src, toks[o-1])
		switch src[toks[o].start] {
		case '(':
			return !afterValue // a call's arguments, a def's parameters
		case '[':
			return afterValue // a subscript
		}
		return false
	})
	toks = pyDropImportParens(sc, src, toks)
	notYield := func(toks []ctok, open, close int, match []int) bool {
		return !is(src, toks[open+1], "yield")
	}
	// Doubled parentheses first, so that a statement's expression in two
	// pairs ("while ((a and b)):") loses both.
	toks = dropDoubleParens(sc, src, toks, notYield)
	toks = pyDropStatementParens(sc, src, toks)
	toks = pyDropElementParens(sc, src, toks)
	toks = pyDropLiteralParens(src, toks)
	toks = pyCollapseElse(src, toks)
	return dropDoubleParens(sc, src, toks, notYield)
}

// pyDropImportParens drops the parentheses of "from m import (a, b)":
// they only let the names span lines, and formatters add and remove them
// as the line's length asks.
func pyDropImportParens(sc *scratch, src []byte, toks []ctok) []ctok {
	var match []int
	var drop []bool
	for i := 0; i+1 < len(toks); i++ {
		if !is(src, toks[i], "import") || !isByte(src, toks[i+1], '(') {
			continue
		}
		if match == nil {
			match = sc.brackets(src, toks)
		}
		if c := match[i+1]; c > i+1 {
			if drop == nil {
				drop = make([]bool, len(toks))
			}
			drop[i+1], drop[c] = true, true
		}
	}
	return compact(toks, drop)
}

// pyCollapseElse writes an else block that is one if statement as elif:
// "else:" then an indented "if a: … else: …" is "elif a: … else: …", one
// syntax tree, and linters rewrite the first into the second. The else
// of a loop or a try cannot be followed by elif in Python, so reading
// theirs the same way makes no two programs alike.
func pyCollapseElse(src []byte, toks []ctok) []ctok {
	var drop []bool
	for i := 0; i+4 < len(toks); i++ {
		if !is(src, toks[i], "else") || !isByte(src, toks[i+1], ':') || toks[i+2].kind != cNewline ||
			toks[i+3].kind != cIndent || !is(src, toks[i+4], "if") {
			continue
		}
		end := pyOneIf(src, toks, i+3)
		if end < 0 {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i], drop[i+1], drop[i+2], drop[i+3], drop[end] = true, true, true, true, true
		toks[i+4].kind = cPyElif
	}
	return compact(toks, drop)
}

// pyOneIf returns the DEDENT that closes the block opened by the INDENT
// at toks[k] when the block holds one if statement and nothing after it
// (its elif and else clauses aside), else -1.
func pyOneIf(src []byte, toks []ctok, k int) int {
	depth := 0
	for j := k; j < len(toks); j++ {
		switch toks[j].kind {
		case cIndent:
			depth++
		case cDedent:
			depth--
			if depth == 0 {
				return j
			}
			if depth == 1 && j+1 < len(toks) && toks[j+1].kind != cDedent &&
				!is(src, toks[j+1], "elif") && !is(src, toks[j+1], "else") {
				return -1 // another statement after the if
			}
		case cNewline:
			if depth == 1 && (j+1 >= len(toks) || toks[j+1].kind != cIndent) {
				return -1 // a simple statement in the block
			}
		}
	}
	return -1
}

// pyDropElementParens drops the parentheses around a whole element of a
// bracket: an argument, a keyword argument's or a default's value, an
// item of a list, tuple or set, a dict's value (black wraps a conditional
// expression or a long value so), a lambda's body that ends the element
// (ruff wraps it so). An element is read up to its comma or
// the closing bracket, so nothing it holds binds across them; the
// parentheses stay where they make something: a tuple (a comma in
// them), a generator (a for), a yield.
func pyDropElementParens(sc *scratch, src []byte, toks []ctok) []ctok {
	var match []int // toks' brackets, read once one is needed
	brackets := func() []int {
		if match == nil {
			match = sc.brackets(src, toks)
		}
		return match
	}
	var drop []bool
	var open []int // the brackets open at i
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if isCloser(src, t) {
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
			continue
		}
		if !isOpener(src, t) {
			continue
		}
		open = append(open, i)
		if len(open) < 2 || !isByte(src, t, '(') {
			continue
		}
		in := open[len(open)-2] // the bracket the parentheses are in
		p := toks[i-1]
		switch {
		case i-1 == in, isByte(src, p, ','), isByte(src, p, '='):
		case isByte(src, p, ':') && (isByte(src, toks[in], '{') || lambdaColon(src, toks, in, i-1, brackets())):
		default:
			continue
		}
		match := brackets()
		c := match[i]
		if c < 0 || c == i+1 || c+1 >= len(toks) || !isByte(src, toks[c+1], ',') && c+1 != match[in] {
			continue
		}
		if hasTopComma(src, toks, i, c, match) || is(src, toks[i+1], "yield") ||
			topHas(toks, i, c, match, func(t ctok) bool { return is(src, t, "for") }) {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i], drop[c] = true, true
	}
	return compact(toks, drop)
}

// lambdaColon reports whether the ":" at toks[k], in the bracket opened
// at toks[in], ends a lambda's parameters: "lambda" comes before it in the
// bracket, with no other ":" between them (brackets skipped).
func lambdaColon(src []byte, toks []ctok, in, k int, match []int) bool {
	for j := k - 1; j > in; j-- {
		t := toks[j]
		switch {
		case isCloser(src, t):
			o := match[j]
			if o < 0 || o <= in {
				return false
			}
			j = o
		case isByte(src, t, ':'):
			return false
		case is(src, t, "lambda"):
			return true
		}
	}
	return false
}

// pyDropLiteralParens writes "(" literal ")" as the literal where the
// parentheses group (they follow no operand, so they call nothing): a
// string or number in parentheses is that string or number, a dict's
// value or an argument as much as a statement's (black wraps a long
// string so, and unwraps it). A name keeps them: "(x): int" is not
// "x: int".
func pyDropLiteralParens(src []byte, toks []ctok) []ctok {
	var drop []bool
	for i := 0; i+2 < len(toks); i++ {
		if !isByte(src, toks[i], '(') || !isByte(src, toks[i+2], ')') || i > 0 && pyEndsOperand(src, toks[i-1]) {
			continue
		}
		switch toks[i+1].kind {
		case cPyString, cPyJoined, cNumber:
		default:
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i], drop[i+2] = true, true
	}
	return compact(toks, drop)
}

// lexPython splits src into tokens as Python's tokenizer does, comments
// left out, with NEWLINE, INDENT and DEDENT.
func lexPython(src []byte, out []ctok) []ctok {
	n := len(src)
	indents := []int{0}
	depth := 0
	lineStart := true
	lastEnd := 0 // end of the last token of the current logical line
	inLine := false
	add := func(t ctok) {
		out = append(out, t)
	}
	i := 0
	for i < n {
		if lineStart && depth == 0 {
			// Measure the indentation of a line that holds a token.
			col, j := 0, i
			for j < n {
				switch src[j] {
				case ' ':
					col++
				case '\t':
					col = col/8*8 + 8
				case '\f':
					col = 0
				default:
					goto measured
				}
				j++
			}
		measured:
			if j >= n || src[j] == '\n' || src[j] == '\r' || src[j] == '#' || (src[j] == '\\' && j+1 < n && (src[j+1] == '\n' || src[j+1] == '\r')) {
				// blank or comment line: no token, no indentation
				for j < n && src[j] != '\n' {
					j++
				}
				i = j + 1
				continue
			}
			lineStart = false
			switch top := indents[len(indents)-1]; {
			case col > top:
				indents = append(indents, col)
				add(ctok{pos: int32(j), start: int32(j), end: int32(j), kind: cIndent})
			case col < top:
				for len(indents) > 1 && col < indents[len(indents)-1] {
					indents = indents[:len(indents)-1]
					add(ctok{pos: int32(j), start: int32(j), end: int32(j), kind: cDedent})
				}
			}
			i = j
		}
		c := src[i]
		switch {
		case c == '\n':
			if depth == 0 && inLine {
				add(ctok{pos: int32(lastEnd), start: int32(lastEnd), end: int32(lastEnd), kind: cNewline})
				inLine = false
			}
			lineStart = depth == 0
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
			continue
		case c == '#':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '\\' && i+1 < n && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2 // a continued line
			if i < n && src[i-1] == '\r' && src[i] == '\n' {
				i++
			}
			continue
		}
		start := i
		kind := cVerbatim
		switch {
		case c == '"' || c == '\'':
			i = pyStringEnd(src, i)
			kind = cPyString
		case isIdentByte(c) && !isDigit(c):
			j := i + 1
			for j < n && isIdentByte(src[j]) {
				j++
			}
			if j < n && (src[j] == '"' || src[j] == '\'') && isPyPrefix(src[i:j]) {
				i = pyStringEnd(src, j)
				kind = cPyString
			} else {
				i = j
			}
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(src[i+1])):
			i = pyNumberEnd(src, i)
			kind = cNumber
		default:
			i += pyOpLen(src, i)
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
		}
		add(ctok{pos: int32(start), start: int32(start), end: int32(i), kind: kind, lang: langPython})
		lastEnd, inLine = i, true
	}
	if inLine {
		add(ctok{pos: int32(lastEnd), start: int32(lastEnd), end: int32(lastEnd), kind: cNewline})
	}
	for len(indents) > 1 {
		indents = indents[:len(indents)-1]
		add(ctok{pos: int32(n), start: int32(n), end: int32(n), kind: cDedent})
	}
	return out
}

// pyStringEnd returns the end of the string whose quote is at src[i].
func pyStringEnd(src []byte, i int) int {
	q := src[i]
	if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		for j := i + 3; j < len(src); j++ {
			if src[j] == '\\' {
				j++
				continue
			}
			if src[j] == q && j+2 < len(src) && src[j+1] == q && src[j+2] == q {
				return j + 3
			}
		}
		return len(src)
	}
	return skipQuoted(src, i, q, false)
}

// pyNumberEnd returns the end of the number literal at src[i], an
// imaginary "j" (or Python 2's "L") included.
func pyNumberEnd(src []byte, i int) int {
	j := numberEnd(src, i, anyPoint)
	if j < len(src) && (src[j]|0x20 == 'j' || src[j]|0x20 == 'l') {
		j++
	}
	return j
}

// pyOpLen is the length of the operator or delimiter at src[i].
func pyOpLen(src []byte, i int) int {
	return longestOp(src, i, []string{"**=", "//=", ">>=", "<<=", "...", "->", ":=", "==", "!=", "<=", ">=", "**", "//",
		"<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "<>"})
}

func pyKeyword(w string) bool {
	switch w {
	case "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
		"del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
		"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield":
		return true
	}
	return false
}

// pyEndsOperand reports a token after which "(" calls and "[" subscripts:
// a name, a closing bracket, a literal.
func pyEndsOperand(src []byte, t ctok) bool {
	switch t.kind {
	case cNumber, cPyString, cPyJoined:
		return true
	case cVerbatim:
		if c := src[t.start]; isIdentByte(c) && !isDigit(c) {
			w := text(src, t)
			return !pyKeyword(w) || w == "None" || w == "True" || w == "False"
		}
		return isByte(src, t, ')') || isByte(src, t, ']') || isByte(src, t, '}')
	}
	return false
}

// pySemicolons writes "a; b" as two lines, as black does; a semicolon
// that ends a line goes.
func pySemicolons(src []byte, toks []ctok) []ctok {
	var drop []bool
	depth := 0
	for i := range toks {
		t := &toks[i]
		switch {
		case isOpener(src, *t):
			depth++
		case isCloser(src, *t):
			depth = max(depth-1, 0)
		case depth == 0 && isByte(src, *t, ';'):
			if i+1 < len(toks) && !toks[i+1].separator() {
				t.kind = cNewline
				continue
			}
			if drop == nil {
				drop = make([]bool, len(toks))
			}
			drop[i] = true
		}
	}
	return compact(toks, drop)
}

// pyCompoundBodies writes a compound statement's body given on its
// header's line ("if x: y") as a block, as black does: a line break and
// an indentation after the colon, a dedent after the line.
func pyCompoundBodies(src []byte, toks []ctok) []ctok {
	var out []ctok
	for first := 0; first < len(toks); {
		if toks[first].separator() {
			if out != nil {
				out = append(out, toks[first])
			}
			first++
			continue
		}
		end := first // the line's NEWLINE
		for end < len(toks) && toks[end].kind != cNewline {
			end++
		}
		colon := -1
		if pyCompoundKeyword(src, toks, first) {
			colon = pyBlockColon(src, toks, first, end)
		}
		if colon < 0 || colon+1 >= end {
			if out != nil {
				out = append(out, toks[first:min(end+1, len(toks))]...)
			}
			first = end + 1
			continue
		}
		if out == nil {
			out = append(make([]ctok, 0, len(toks)+16), toks[:first]...)
		}
		out = append(out, toks[first:colon+1]...)
		c := toks[colon]
		out = append(out, ctok{pos: c.end, start: c.end, end: c.end, kind: cNewline},
			ctok{pos: toks[colon+1].pos, start: toks[colon+1].pos, end: toks[colon+1].pos, kind: cIndent})
		out = append(out, toks[colon+1:min(end+1, len(toks))]...)
		p := toks[end-1].end
		if end < len(toks) {
			p = toks[end].pos
		}
		out = append(out, ctok{pos: p, start: p, end: p, kind: cDedent})
		first = end + 1
	}
	if out == nil {
		return toks
	}
	return out
}

// pyCompoundKeyword reports whether the line starting at toks[i] is a
// compound statement's header.
func pyCompoundKeyword(src []byte, toks []ctok, i int) bool {
	t := toks[i]
	if t.kind != cVerbatim {
		return false
	}
	switch text(src, t) {
	case "if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def", "class", "async":
		return true
	case "case", "match": // soft keywords: "case = 1" is a name
		if i+1 < len(toks) {
			n := toks[i+1]
			return n.kind != cVerbatim || isIdentByte(src[n.start]) || isOpener(src, n) || isByte(src, n, '-') || isByte(src, n, '*')
		}
	}
	return false
}

// pyBlockColon returns the index of the colon that ends the header of
// the compound statement toks[first:end], or -1: the first colon outside
// brackets that no lambda takes.
func pyBlockColon(src []byte, toks []ctok, first, end int) int {
	depth, lambdas := 0, 0
	for k := first; k < end; k++ {
		t := toks[k]
		switch {
		case isOpener(src, t):
			depth++
		case isCloser(src, t):
			depth--
		case depth != 0:
		case is(src, t, "lambda"):
			lambdas++
		case isByte(src, t, ':'):
			if lambdas == 0 {
				return k
			}
			lambdas--
		}
	}
	return -1
}

// pyDropBareStrings leaves out statements that are only a string: the
// docstrings of modules, classes and functions, and the ones that
// document attributes. They do nothing (an f-string, which evaluates its
// fields, and bytes stay).
func pyDropBareStrings(src []byte, toks []ctok) []ctok {
	var drop []bool
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != cPyString || (i > 0 && !toks[i-1].separator()) {
			continue
		}
		k := i
		for k < len(toks) && toks[k].kind == cPyString && pyPlainString(src, toks[k]) {
			k++
		}
		if k == i || (k < len(toks) && toks[k].kind != cNewline) {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		for j := i; j <= k && j < len(toks); j++ {
			drop[j] = true
		}
		i = k
	}
	return compact(toks, drop)
}

// pyJoinStrings writes each run of adjacent string literals of one kind
// ("a" "b", r"a" r"b", f"{a}" "b") as one cPyJoined token, which spells
// the literal they make: Python joins them when it compiles, and people
// and formatters split a long string or join its pieces (black's preview
// style splits an f-string into f-strings and plain ones). Strings and
// bytes ("a" b"b"), a raw piece beside one with escapes (their bodies are
// read two ways), and a piece ending in an octal escape before a digit
// ("\1" "2" is not "\12") stay apart. Template strings (t) are never
// joined.
func pyJoinStrings(src []byte, toks []ctok) []ctok {
	read := func(t ctok) (pyStr, bool) {
		if t.kind != cPyString {
			return pyStr{}, false
		}
		s, ok := pyLiteral(src[t.start:t.end])
		return s, ok && s.letters&pyT == 0
	}
	var last pyStr        // the run's last piece
	var raw, escaped bool // the run so far has a raw piece, a piece with escapes
	return joinLiterals(toks, cPyJoined, func(i int) bool {
		s, ok := read(toks[i])
		last, raw, escaped = s, s.raw, s.escaped
		return ok
	}, func(j int) (int, bool) {
		k := j + 1
		if k >= len(toks) {
			return k, false
		}
		s, ok := read(toks[k])
		if !ok || s.letters|pyF != last.letters|pyF || (raw || s.raw) && (escaped || s.escaped) ||
			last.escaped && len(s.body) > 0 && octalEnd(last.body, s.body[0]) {
			return k, false
		}
		last, raw, escaped = s, raw || s.raw, escaped || s.escaped
		return k, true
	})
}

// pyPlainString reports a string literal without f, t or b prefix.
func pyPlainString(src []byte, t ctok) bool {
	for _, c := range src[t.start:t.end] {
		if c == '"' || c == '\'' {
			return true
		}
		switch c | 0x20 {
		case 'f', 't', 'b':
			return false
		}
	}
	return true
}

// pyDropEmptyClassParens writes "class A():" as "class A:", as black does.
func pyDropEmptyClassParens(src []byte, toks []ctok) []ctok {
	var drop []bool
	for i := 0; i+3 < len(toks); i++ {
		if is(src, toks[i], "class") && isByte(src, toks[i+2], '(') && isByte(src, toks[i+3], ')') {
			if drop == nil {
				drop = make([]bool, len(toks))
			}
			drop[i+2], drop[i+3] = true, true
		}
	}
	return compact(toks, drop)
}

// pyDropStatementParens drops the parentheses black adds or removes
// around the whole of a statement's expression: the right side of an
// assignment, the operand of return, del, await (a primary), the test of
// if, elif, while and assert, a for loop's target and iterable, a with
// statement's items, an except clause's one exception, a return
// annotation, a tuple's element
// ("return (a and b)" is "return a and b"). The group must be the
// whole of it: nothing but the statement's next delimiter after it.
func pyDropStatementParens(sc *scratch, src []byte, toks []ctok) []ctok {
	match := sc.brackets(src, toks)
	var drop []bool
	first, depth := -1, 0
	forIn := false // the line's for loop has met its "in"
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.separator() {
			first, depth, forIn = -1, 0, false
			continue
		}
		if first < 0 {
			first = i
		}
		if isCloser(src, t) {
			depth--
			continue
		}
		if !isOpener(src, t) {
			continue
		}
		depth++
		c := match[i]
		if depth != 1 || !isByte(src, t, '(') || c < 0 || c == i+1 {
			continue
		}
		lead := text(src, toks[first])
		if lead == "async" && first+1 < len(toks) {
			lead = text(src, toks[first+1])
		}
		var p, n string
		if i > first {
			p = text(src, toks[i-1])
			if toks[i-1].kind != cVerbatim {
				p = ""
			}
		}
		if c+1 < len(toks) && !toks[c+1].separator() {
			n = text(src, toks[c+1])
			if toks[c+1].kind != cVerbatim {
				n = "?"
			}
		}
		tuple := hasTopComma(src, toks, i, c, match)
		if is(src, toks[i+1], "yield") {
			continue
		}
		ok := false
		switch {
		case p == "await":
			ok = !tuple && pyPrimary(src, toks, i+1, c, match)
		case i == first || p == "=" || pyAugmented(p) || p == "return" || p == "yield":
			ok = n == "" || n == "=" || pyAugmented(n) || (n == ":" && pyCompoundKeyword(src, toks, first)) ||
				(n == "," && !tuple)
		case (p == "if" || p == "elif" || p == "while" || p == "assert") && i-1 == first || p == "->":
			ok = !tuple && (n == ":" || n == "" || n == ",")
		case p == "del" && i-1 == first:
			ok = n == "" || n == ","
		case p == "for" && lead == "for":
			ok = n == "in"
		case p == "in" && lead == "for" && !forIn:
			ok = n == ":"
		case p == "except" && i-1 == first:
			ok = !tuple && (n == ":" || n == "as")
		case p == "with" && lead == "with":
			ok = n == ":" || (!tuple && (n == "," || n == "as"))
		case p == ",":
			ok = !tuple && (n == "" || n == "," || n == "=" || (n == ":" && pyCompoundKeyword(src, toks, first)) ||
				(n == "in" && lead == "for" && !forIn) || (n == "as" && lead == "with"))
		}
		if p == "in" && lead == "for" {
			forIn = true
		}
		if !ok {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i], drop[c] = true, true
	}
	return compact(toks, drop)
}

func pyAugmented(op string) bool {
	switch op {
	case "+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^=", "@=":
		return true
	}
	return false
}

// pyPrimary reports whether toks[from:to] is a primary: a name or literal
// with attributes, calls and subscripts, no operator.
func pyPrimary(src []byte, toks []ctok, from, to int, match []int) bool {
	for k := from; k < to; k++ {
		t := toks[k]
		if m := match[k]; m > k {
			k = m
			continue
		}
		switch {
		case t.kind == cNumber || t.kind == cPyString || t.kind == cPyJoined:
		case t.kind == cVerbatim && isIdentByte(src[t.start]) && !pyKeyword(text(src, t)):
		case isByte(src, t, '.') && k > from:
		default:
			return false
		}
	}
	return true
}
