package analyzer

// canonGo builds Go's canonical stream from its lexer tokens (goLexer:
// comments and semicolons already gone). See docs/fingerprints.md.
func canonGo(sc *scratch, src []byte, spans []span, out []ctok) []ctok {
	toks := out
	for k, s := range spans {
		if k > 0 {
			toks = goSeparators(src, spans[k-1], s, toks)
		}
		t := ctok{pos: int32(s.start), start: int32(s.start), end: int32(s.end), lang: langGo}
		if c := src[s.start]; isDigit(c) || (c == '.' && s.end-s.start > 1) {
			t.kind = cNumber
		}
		toks = append(toks, t)
	}
	toks = dropSemisBeforeClosers(src, toks)
	toks = dropTrailingCommas(sc, src, toks, nil)
	toks = goUngroupSingleSpecs(sc, src, toks)
	toks = goShortVarDecls(src, toks)
	toks = goExpandParams(sc, src, toks)
	toks = goNamedReturns(sc, src, toks)
	toks = goNameParens(src, toks)
	return goSortImports(sc, src, toks)
}

// goNameParens writes "(T)(x)" as "T(x)" (gofumpt does): parentheses
// around one name, or a qualified one, that is then called or converted
// to group nothing. "(*T)(x)" and "v.(T)(x)" keep theirs.
func goNameParens(src []byte, toks []ctok) []ctok {
	var drop []bool
	for i := 0; i+3 < len(toks); i++ {
		if !isByte(src, toks[i], '(') || (i > 0 && (goOperandEnd(src, toks[i-1]) || isByte(src, toks[i-1], '.'))) {
			continue
		}
		k := i + 1
		if !goName(src, toks[k]) {
			continue
		}
		if k+2 < len(toks) && isByte(src, toks[k+1], '.') && goName(src, toks[k+2]) {
			k += 2
		}
		if !isByte(src, toks[k+1], ')') || k+2 >= len(toks) || !isByte(src, toks[k+2], '(') {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i], drop[k+1] = true, true
	}
	return compact(toks, drop)
}

// goOperandEnd reports a token that ends an operand, after which "(" calls.
func goOperandEnd(src []byte, t ctok) bool {
	return t.kind == cNumber || goName(src, t) || (t.kind == cVerbatim && (src[t.start] == '"' || src[t.start] == '`' ||
		src[t.start] == '\'' || isCloser(src, t)))
}

// goSortImports sorts the specs of each import declaration group: their
// order means nothing (since Go 1.21 packages are initialised in the
// order of their paths), and gofmt and gofumpt regroup and sort them.
func goSortImports(sc *scratch, src []byte, toks []ctok) []ctok {
	var m []int
	for i := 0; i+1 < len(toks); i++ {
		if !is(src, toks[i], "import") || !isByte(src, toks[i+1], '(') {
			continue
		}
		if m == nil {
			m = sc.brackets(src, toks)
		}
		sortStatements(src, toks, i+2, m[i+1], m, func(t ctok) bool { return t.kind == cSemi })
	}
	return toks
}

// goSeparators appends the statement separators between tokens a and b:
// each semicolon written there, or else the one Go inserts at a line
// break after a token that can end a statement.
func goSeparators(src []byte, a, b span, toks []ctok) []ctok {
	semis, newline := 0, false
	for i := a.end; i < b.start; i++ {
		switch src[i] {
		case ';':
			semis++
		case '\n':
			newline = true
		case '/':
			if i+1 < b.start && src[i+1] == '/' {
				for i < b.start && src[i] != '\n' {
					i++
				}
				newline = newline || i < b.start
			} else if i+1 < b.start && src[i+1] == '*' {
				for i += 2; i+1 < b.start && !(src[i] == '*' && src[i+1] == '/'); i++ {
					newline = newline || src[i] == '\n'
				}
				i++
			}
		}
	}
	if semis == 0 && newline && goEndsStatement(src[a.start:a.end]) {
		semis = 1
	}
	for ; semis > 0; semis-- {
		toks = append(toks, ctok{pos: int32(a.end), start: int32(a.end), end: int32(a.end), kind: cSemi})
	}
	return toks
}

// goEndsStatement reports a token after which a line break ends the
// statement (the Go spec's semicolon rule).
func goEndsStatement(t []byte) bool {
	switch string(t) {
	case "break", "continue", "fallthrough", "return", "++", "--", ")", "]", "}":
		return true
	}
	c := t[0]
	return goIdentStart(c) && !goKeyword(string(t)) || isDigit(c) || c == '.' || c == '"' || c == '\'' || c == '`' || c >= 0x80
}

func goKeyword(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
		"go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
		"switch", "type", "var":
		return true
	}
	return false
}

// dropSemisBeforeClosers removes separators before ) and }: "{ a() }" is
// "{\n\ta()\n}", and a separator never begins a statement.
func dropSemisBeforeClosers(src []byte, toks []ctok) []ctok {
	var drop []bool
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].kind == cSemi && (isByte(src, toks[i+1], ')') || isByte(src, toks[i+1], '}')) {
			if drop == nil {
				drop = make([]bool, len(toks))
			}
			drop[i] = true
		}
	}
	return compact(toks, drop)
}

// goUngroupSingleSpecs writes "var ( x = 1 )" as "var x = 1" (gofumpt
// ungroups a declaration group of one): the same declaration.
func goUngroupSingleSpecs(sc *scratch, src []byte, toks []ctok) []ctok {
	var drop []bool
	var m []int
	for i := 0; i+1 < len(toks); i++ {
		if !(is(src, toks[i], "var") || is(src, toks[i], "const") || is(src, toks[i], "type") || is(src, toks[i], "import")) || !isByte(src, toks[i+1], '(') {
			continue
		}
		if m == nil {
			m = sc.brackets(src, toks)
		}
		c := m[i+1]
		if c < 0 || c == i+2 {
			continue
		}
		single := true
		for k := i + 2; k < c; k++ {
			if j := m[k]; j > k {
				k = j
				continue
			}
			if toks[k].kind == cSemi {
				single = false
				break
			}
		}
		if single {
			if drop == nil {
				drop = make([]bool, len(toks))
			}
			drop[i+1], drop[c] = true, true
		}
	}
	return compact(toks, drop)
}

// goShortVarDecls writes "var x = y" as "x := y" (gofumpt's rewrite in
// function bodies; at the top level ":=" cannot be written, so nothing
// else reads the same).
func goShortVarDecls(src []byte, toks []ctok) []ctok {
	var drop []bool
	for i := 0; i+2 < len(toks); i++ {
		if !is(src, toks[i], "var") || (i > 0 && toks[i-1].kind != cSemi && !isByte(src, toks[i-1], '{')) {
			continue
		}
		k := i + 1
		for k+1 < len(toks) && goName(src, toks[k]) && isByte(src, toks[k+1], ',') {
			k += 2
		}
		if !goName(src, toks[k]) || k+1 >= len(toks) || !isByte(src, toks[k+1], '=') {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[i] = true
		toks[k+1].kind = cDefine
	}
	return compact(toks, drop)
}

func goName(src []byte, t ctok) bool {
	return t.kind == cVerbatim && (goIdentStart(src[t.start]) || src[t.start] >= 0x80) && !goKeyword(text(src, t))
}

// goExpandParams gives every name of a parameter list its own type:
// "(a, b int)" is "(a int, b int)" (gofumpt -extra groups them). A
// bracket group reads as a parameter list when each element is a name
// or a name followed by a type, one at least and the last with a type:
// in an expression two operands never stand side by side.
func goExpandParams(sc *scratch, src []byte, toks []ctok) []ctok {
	var m []int
	var insert map[int][2]int // bare name → the type's token range
	for i := range toks {
		if !isByte(src, toks[i], '(') && !isByte(src, toks[i], '[') {
			continue
		}
		if m == nil {
			m = sc.brackets(src, toks)
		}
		c := m[i]
		if c < 0 || c == i+1 {
			continue
		}
		type elem struct{ from, to int } // tokens [from, to)
		var elems []elem
		from := i + 1
		for k := i + 1; k <= c; k++ {
			if j := m[k]; j > k {
				k = j
				continue
			}
			if k == c || isByte(src, toks[k], ',') {
				elems = append(elems, elem{from, k})
				from = k + 1
			}
		}
		named, ok := 0, true
		for _, e := range elems {
			switch {
			case e.to-e.from == 1 && goName(src, toks[e.from]):
			case e.to-e.from >= 2 && goName(src, toks[e.from]) && goTypeStart(src, toks, e.from+1, e.to, m):
				named++
			default:
				ok = false
			}
		}
		last := elems[len(elems)-1]
		if !ok || named == 0 || named == len(elems) || last.to-last.from < 2 {
			continue
		}
		for k, e := range elems {
			if e.to-e.from != 1 {
				continue
			}
			for _, n := range elems[k+1:] {
				if n.to-n.from > 1 {
					if insert == nil {
						insert = map[int][2]int{}
					}
					insert[e.from] = [2]int{n.from + 1, n.to}
					break
				}
			}
		}
	}
	if insert == nil {
		return toks
	}
	out := make([]ctok, 0, len(toks)+4*len(insert))
	for i, t := range toks {
		out = append(out, t)
		if r, ok := insert[i]; ok {
			for _, ty := range toks[r[0]:r[1]] {
				ty.pos = t.end
				out = append(out, ty)
			}
		}
	}
	return out
}

// goTypeStart reports whether toks[k:end] reads as a type after a name.
func goTypeStart(src []byte, toks []ctok, k, end int, m []int) bool {
	t := toks[k]
	switch {
	case goName(src, t), is(src, t, "func"), is(src, t, "map"), is(src, t, "chan"), is(src, t, "struct"),
		is(src, t, "interface"), is(src, t, "..."), is(src, t, "<-"), isByte(src, t, '*'):
		return true
	case isByte(src, t, '['):
		// "a []int" or "a [4]int", not the instance "G[T]" of an unnamed
		// parameter.
		return m[k] > k && m[k] < end-1
	}
	return false
}

// goNamedReturns writes a bare "return" in a function with named results
// as "return" and those names, as gofumpt -extra does: the same values
// are returned (a name shadowed at the return would not compile).
func goNamedReturns(sc *scratch, src []byte, toks []ctok) []ctok {
	var m []int
	var insert map[int][]int // bare return → tokens to copy after it
	for i := range toks {
		if !is(src, toks[i], "func") {
			continue
		}
		if m == nil {
			m = sc.brackets(src, toks)
		}
		results, body := goSignature(src, toks, i, m)
		if results < 0 || body < 0 || m[body] < 0 {
			continue
		}
		// The names: the first token of each element of the results.
		var names []int
		for k, from := results+1, results+1; k <= m[results]; k++ {
			if j := m[k]; j > k {
				k = j
				continue
			}
			if k == m[results] || isByte(src, toks[k], ',') {
				if k-from < 2 || !goName(src, toks[from]) {
					names = nil
					break
				}
				if len(names) > 0 {
					names = append(names, from-1) // the comma before it
				}
				names = append(names, from)
				from = k + 1
			}
		}
		if len(names) == 0 {
			continue
		}
		for k := body + 1; k < m[body]; k++ {
			switch {
			case is(src, toks[k], "func"): // a function literal has its own results
				if _, b := goSignature(src, toks, k, m); b > k && m[b] > b {
					k = m[b]
				}
			case is(src, toks[k], "return") && k+1 < len(toks) && (toks[k+1].kind == cSemi || isByte(src, toks[k+1], '}')):
				if insert == nil {
					insert = map[int][]int{}
				}
				insert[k] = names
			}
		}
	}
	if insert == nil {
		return toks
	}
	out := make([]ctok, 0, len(toks)+4*len(insert))
	for i, t := range toks {
		out = append(out, t)
		for _, k := range insert[i] {
			c := toks[k]
			c.pos = t.end
			out = append(out, c)
		}
	}
	return out
}

// goSignature reads the function whose "func" is toks[i]: the index of
// its results' "(" (-1 when they are not in parentheses) and of its
// body's "{" (-1 for a function type).
func goSignature(src []byte, toks []ctok, i int, m []int) (results, body int) {
	k := i + 1
	if k < len(toks) && isByte(src, toks[k], '(') && m[k] > k && m[k]+2 < len(toks) && goName(src, toks[m[k]+1]) {
		k = m[k] + 1 // a method's receiver
	}
	if k < len(toks) && goName(src, toks[k]) {
		k++
	}
	if k < len(toks) && isByte(src, toks[k], '[') && m[k] > k {
		k = m[k] + 1
	}
	if k >= len(toks) || !isByte(src, toks[k], '(') || m[k] < 0 {
		return -1, -1
	}
	k = m[k] + 1
	results = -1
	if k < len(toks) && isByte(src, toks[k], '(') && m[k] > k {
		results = k
		k = m[k] + 1
	}
	for ; k < len(toks); k++ {
		t := toks[k]
		switch {
		case isByte(src, t, '{'):
			if k > 0 && (is(src, toks[k-1], "struct") || is(src, toks[k-1], "interface")) && m[k] > k {
				k = m[k]
				continue
			}
			return results, k
		case (isByte(src, t, '(') || isByte(src, t, '[')) && m[k] > k:
			k = m[k]
		case t.kind == cSemi, isByte(src, t, ','), isCloser(src, t), isByte(src, t, '='):
			return results, -1
		}
	}
	return results, -1
}

// canonC builds C's and Java's canonical stream from their lexer tokens:
// numbers by value and trailing commas dropped.
func canonC(sc *scratch, src []byte, spans []span, out []ctok) []ctok {
	for _, s := range spans {
		t := ctok{pos: int32(s.start), start: int32(s.start), end: int32(s.end), lang: langC}
		if c := src[s.start]; isDigit(c) {
			t.kind = cNumber
		}
		out = append(out, t)
	}
	return dropTrailingCommas(sc, src, out, nil)
}
