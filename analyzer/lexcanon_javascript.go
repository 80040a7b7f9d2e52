package analyzer

// JavaScript and TypeScript in the canonical stream (docs/fingerprints.md):
// a lexer that knows regular expressions and template substitutions, then
// semicolons as automatic semicolon insertion reads them, trailing commas
// and parentheses that only group a whole expression.

// jtok is a token of the JavaScript lexer.
type jtok struct {
	ctok
	nl    bool // a line break before it
	class jclass
}

type jclass uint8

const (
	jPunct        jclass = iota
	jName                // an identifier or keyword
	jLiteral             // a number, string, regular expression
	jTemplate            // a whole template, or the part that ends one
	jTemplateOpen        // "`…${" or "}…${": a substitution follows
)

// canonJS returns the canonical stream of JavaScript or TypeScript source.
func canonJS(src []byte, out []ctok, tsx bool) []ctok {
	toks := lexJS(src)
	toks = jsSemicolons(src, toks)
	cs := out
	for _, t := range toks {
		cs = append(cs, t.ctok)
	}
	cs = dropTrailingCommas(src, cs, func(comma int, match []int) bool {
		// "[a,,]" has a hole: the comma after a comma (or an opening
		// bracket) is an element, not a trailing comma.
		return comma > 0 && (isByte(src, cs[comma-1], ',') || isOpener(src, cs[comma-1]))
	})
	cs = dropJSTypeArgCommas(src, cs)
	cs = dropDoubleParens(src, cs, nil)
	return dropWholeExprParens(src, cs)
}

// lexJS splits src into tokens, comments left out.
func lexJS(src []byte) []jtok {
	var toks []jtok
	var braces []bool // open braces: true for a template substitution
	n := len(src)
	nl := false
	i := 0
	if n > 1 && src[0] == '#' && src[1] == '!' { // a hashbang line
		for i < n && src[i] != '\n' {
			i++
		}
	}
	add := func(start, end int, kind ckind, class jclass) {
		toks = append(toks, jtok{ctok: ctok{pos: int32(start), start: int32(start), end: int32(end), kind: kind, lang: langJS}, nl: nl, class: class})
		nl = false
	}
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			nl = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := i + 2
			for j+1 < n && !(src[j] == '*' && src[j+1] == '/') {
				nl = nl || src[j] == '\n'
				j++
			}
			i = min(j+2, n)
			continue
		case c == '"' || c == '\'':
			j := skipQuoted(src, i, c, false)
			add(i, j, cQuoted, jLiteral)
			i = j
			continue
		case c == '`':
			j, open := skipTemplate(src, i+1)
			if open {
				braces = append(braces, true)
				add(i, j, cVerbatim, jTemplateOpen)
			} else {
				add(i, j, cVerbatim, jTemplate)
			}
			i = j
			continue
		case c == '}' && len(braces) > 0 && braces[len(braces)-1]:
			braces = braces[:len(braces)-1]
			j, open := skipTemplate(src, i+1)
			if open {
				braces = append(braces, true)
				add(i, j, cVerbatim, jTemplateOpen)
			} else {
				add(i, j, cVerbatim, jTemplate)
			}
			i = j
			continue
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(src[i+1])):
			j := jsNumberEnd(src, i)
			add(i, j, cNumber, jLiteral)
			i = j
			continue
		case isIdentByte(c) || (c == '#' && i+1 < n && isIdentByte(src[i+1])) || c == '\\':
			j := i + 1
			for j < n && (isIdentByte(src[j]) || src[j] == '\\') {
				j++
			}
			add(i, j, cVerbatim, jName)
			i = j
			continue
		case c == '/' && jsRegexAllowed(src, toks, i):
			if j, ok := jsRegexLiteralEnd(src, i); ok {
				add(i, j, cVerbatim, jLiteral)
				i = j
				continue
			}
		}
		switch c {
		case '{':
			braces = append(braces, false)
		case '}':
			if len(braces) > 0 {
				braces = braces[:len(braces)-1]
			}
		}
		l := jsPunctLen(src, i)
		add(i, i+l, cVerbatim, jPunct)
		i += l
	}
	return toks
}

// skipTemplate scans a template's text from i: the end of the template
// (after its backquote) or of a "${" that opens a substitution (open).
func skipTemplate(src []byte, i int) (end int, open bool) {
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '`':
			return i + 1, false
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				return i + 2, true
			}
		}
		i++
	}
	return len(src), false
}

// jsNumberEnd returns the end of the number literal at src[i].
func jsNumberEnd(src []byte, i int) int {
	n := len(src)
	j := i
	if src[j] == '0' && j+1 < n && (src[j+1]|0x20 == 'x' || src[j+1]|0x20 == 'o' || src[j+1]|0x20 == 'b') {
		j += 2
		for j < n && (isHexDigit(src[j]) || src[j] == '_') {
			j++
		}
	} else {
		for j < n && (isDigit(src[j]) || src[j] == '_') {
			j++
		}
		if j < n && src[j] == '.' {
			j++
			for j < n && (isDigit(src[j]) || src[j] == '_') {
				j++
			}
		}
		if j < n && src[j]|0x20 == 'e' {
			k := j + 1
			if k < n && (src[k] == '+' || src[k] == '-') {
				k++
			}
			if k < n && isDigit(src[k]) {
				for k < n && (isDigit(src[k]) || src[k] == '_') {
					k++
				}
				j = k
			}
		}
	}
	if j < n && src[j] == 'n' {
		j++
	}
	return j
}

// jsRegexAllowed reports whether a slash after toks starts a regular
// expression rather than a division: after an operator, an opening
// bracket, a keyword that takes an expression, or nothing.
func jsRegexAllowed(src []byte, toks []jtok, i int) bool {
	if len(toks) == 0 {
		return true
	}
	t := toks[len(toks)-1]
	switch t.class {
	case jLiteral, jTemplate:
		return false
	case jName:
		switch text(src, t.ctok) {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
			return true
		}
		return false
	}
	switch text(src, t.ctok) {
	case ")", "]", "}", "++", "--":
		return false
	case "<": // a closing tag: "</div>"
		return int(t.end) != i
	}
	return true
}

// jsRegexLiteralEnd returns the end of the regular expression at src[i] (with its
// flags); ok is false when it does not end on its line.
func jsRegexLiteralEnd(src []byte, i int) (int, bool) {
	j := i + 1
	class := false
	for j < len(src) {
		switch c := src[j]; {
		case c == '\n':
			return 0, false
		case c == '\\':
			j += 2
			continue
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			j++
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			return j, true
		}
		j++
	}
	return 0, false
}

// jsPunctLen is the length of the punctuator at src[i], longest first;
// '>' is always alone, as TypeScript's scanner reads it ("Array<Array<T>>"
// closes two lists; ">=" and ">>" are put together only where no type
// list can end, and a space there changes no program).
func jsPunctLen(src []byte, i int) int {
	rest := src[i:]
	for _, p := range [...]string{"...", "===", "!==", "**=", "<<=", "&&=", "||=", "??=",
		"=>", "==", "!=", "<=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<"} {
		if len(rest) >= len(p) && string(rest[:len(p)]) == p {
			if p == "?." && len(rest) > 2 && isDigit(rest[2]) {
				continue // "a?.5:b" is a conditional
			}
			return len(p)
		}
	}
	return 1
}

// jsSemicolons writes statement ends one way whether or not semicolons
// are written (docs/fingerprints.md): a semicolon that automatic
// semicolon insertion would put there anyway is dropped, one that it
// would not (the next line begins with "(", "[", "`", "+", "-", "/"…) is
// kept, and the line breaks that insertion reads (after return, before
// ++) become semicolons.
func jsSemicolons(src []byte, toks []jtok) []jtok {
	type open struct {
		c      byte
		head   bool // ( of if, while, for, with: its ) ends no expression
		doBody bool // { of do … while
	}
	var stack []open
	headClose := make([]bool, len(toks))
	out := make([]jtok, 0, len(toks))
	afterDo := false // the last token closed a do body
	for i, t := range toks {
		var prev *jtok
		if i > 0 {
			prev = &toks[i-1]
		}
		atBraceLevel := len(stack) == 0 || stack[len(stack)-1].c == '{'
		if t.class == jPunct && src[t.start] == ';' && t.end-t.start == 1 {
			if atBraceLevel {
				var next *jtok
				if i+1 < len(toks) {
					next = &toks[i+1]
				}
				switch {
				case next == nil || (next.class == jPunct && src[next.start] == '}'):
					continue // a separator before the block's end
				case prev != nil && jsEnds(src, toks, i-1, headClose) && !jsContinues(src, *next):
					continue // insertion puts it there anyway
				}
			}
			t.kind = cSemi
			out = append(out, t)
			afterDo = false
			continue
		}
		if t.nl && prev != nil && atBraceLevel && !(t.class == jPunct && src[t.start] == '}') {
			if jsRestricted(src, toks, i-1) ||
				(t.class == jPunct && (is(src, t.ctok, "++") || is(src, t.ctok, "--")) && jsEnds(src, toks, i-1, headClose)) {
				out = append(out, jtok{ctok: ctok{pos: t.pos, start: t.pos, end: t.pos, kind: cSemi}})
			}
		}
		if t.class == jPunct && t.end-t.start == 1 {
			switch src[t.start] {
			case '(':
				head := false
				if prev != nil && prev.class == jName {
					switch text(src, prev.ctok) {
					case "if", "for", "with":
						head = true
					case "while":
						head = !afterDo
					case "await":
						head = i > 1 && is(src, toks[i-2].ctok, "for")
					}
				}
				stack = append(stack, open{c: '(', head: head})
			case '[':
				stack = append(stack, open{c: '['})
			case '{':
				stack = append(stack, open{c: '{', doBody: prev != nil && is(src, prev.ctok, "do")})
			case ')', ']', '}':
				afterDo = false
				if n := len(stack); n > 0 {
					o := stack[n-1]
					stack = stack[:n-1]
					headClose[i] = o.head
					afterDo = o.doBody
				}
				out = append(out, t)
				continue
			}
		}
		if t.class == jTemplateOpen && src[t.start] == '`' {
			stack = append(stack, open{c: '$'})
		} else if t.class == jTemplate && src[t.start] == '}' {
			if n := len(stack); n > 0 {
				stack = stack[:n-1]
			}
		}
		afterDo = false
		out = append(out, t)
	}
	return out
}

// jsEnds reports whether toks[i] can end a statement, so that a semicolon
// after it may go unwritten.
func jsEnds(src []byte, toks []jtok, i int, headClose []bool) bool {
	if i < 0 {
		return false
	}
	t := toks[i]
	switch t.class {
	case jLiteral, jTemplate:
		return true
	case jName:
		if i > 0 && (is(src, toks[i-1].ctok, ".") || is(src, toks[i-1].ctok, "?.")) {
			return true // a property name
		}
		return !jsKeepsSemicolon(text(src, t.ctok))
	case jPunct:
		switch text(src, t.ctok) {
		case ")":
			return !headClose[i]
		case "]", "}", "++", "--":
			return true
		case "!": // TypeScript's non-null assertion "x!"
			return i > 0 && jsEnds(src, toks, i-1, headClose) && toks[i-1].end == t.start
		}
	}
	return false
}

// jsKeepsSemicolon lists the words after which "w;" and "w" followed by
// more both parse, differently: statements that take an operand, modifiers
// and declarators ("static;\nfoo() {}" is a field and a method, "static
// foo() {}" one static method), else and do. Other words (and these after
// a dot) are names, or never stand before a semicolon.
func jsKeepsSemicolon(w string) bool {
	switch w {
	case "return", "break", "continue", "yield", "await", "async", "get", "set", "static", "accessor",
		"readonly", "declare", "abstract", "public", "private", "protected", "override", "let", "type",
		"namespace", "module", "global", "else", "do":
		return true
	}
	return false
}

// jsRestricted reports a token after which a line break ends the
// statement: return, break, continue, throw, yield, async.
func jsRestricted(src []byte, toks []jtok, i int) bool {
	t := toks[i]
	if t.class != jName || (i > 0 && (is(src, toks[i-1].ctok, ".") || is(src, toks[i-1].ctok, "?."))) {
		return false
	}
	switch text(src, t.ctok) {
	case "return", "break", "continue", "throw", "yield", "async":
		return true
	}
	return false
}

// jsContinues reports whether t, at the start of a line, would continue
// the previous statement rather than begin one: an opening bracket or
// template, an operator, a dot.
func jsContinues(src []byte, t jtok) bool {
	switch t.class {
	case jName:
		switch text(src, t.ctok) {
		case "in", "instanceof", "as", "satisfies":
			return true
		}
		return false
	case jTemplate, jTemplateOpen:
		return src[t.start] == '`'
	case jLiteral:
		return src[t.start] == '/' || src[t.start] == '.'
	}
	switch text(src, t.ctok) {
	case "{", "!", "~", "@", "#":
		return false
	}
	return true
}

// dropJSTypeArgCommas drops a comma just before a '>' ("<T,>" is "<T>"):
// no expression puts a comma there.
func dropJSTypeArgCommas(src []byte, toks []ctok) []ctok {
	var drop []bool
	for i := 0; i+1 < len(toks); i++ {
		if isByte(src, toks[i], ',') && isByte(src, toks[i+1], '>') {
			if drop == nil {
				drop = make([]bool, len(toks))
			}
			drop[i] = true
		}
	}
	return compact(toks, drop)
}

// dropWholeExprParens drops parentheses around the whole operand of
// return and throw, the whole body of an arrow function (but an object
// literal) and the whole right side of "=": "return (\n\ta && b\n)" is
// "return a && b". The group must hold one expression (no comma) and end
// where the operand ends: before a separator, a closing bracket, a comma,
// a colon or the start of another statement.
func dropWholeExprParens(src []byte, toks []ctok) []ctok {
	match := matchBrackets(src, toks, nil)
	var drop []bool
	for i := 1; i < len(toks); i++ {
		if !isByte(src, toks[i], '(') || match[i] < 0 {
			continue
		}
		c := match[i]
		p := toks[i-1]
		switch {
		case is(src, p, "return") || is(src, p, "throw"):
		case is(src, p, "=>"):
			if isByte(src, toks[i+1], '{') {
				continue
			}
		case isByte(src, p, '='):
		default:
			continue
		}
		if c == i+1 || hasTopComma(src, toks, i, c, match) {
			continue
		}
		if c+1 < len(toks) {
			n := toks[c+1]
			if !(n.kind == cSemi || isCloser(src, n) || isByte(src, n, ',') || isByte(src, n, ':') || jsStarts(src, n)) {
				continue
			}
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i], drop[c] = true, true
	}
	return compact(toks, drop)
}

// jsStarts reports a token that can only begin a statement after an
// expression ends: a name (not an operator word), a literal.
func jsStarts(src []byte, t ctok) bool {
	if t.kind == cNumber || t.kind == cQuoted {
		return true
	}
	if t.kind != cVerbatim || !isIdentByte(src[t.start]) {
		return false
	}
	switch text(src, t) {
	case "in", "instanceof", "as", "satisfies", "of":
		return false
	}
	return true
}
