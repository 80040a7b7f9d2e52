package analyzer

import "sort"

// canonGo builds Go's canonical stream from its lexer tokens (goLexer:
// comments and semicolons already gone). See docs/fingerprints.md.
//
// Each token is classified once, as it is read (goTagOf): the passes
// below compare that byte instead of the token's source, and share one
// bracket matching until a pass moves tokens.
func canonGo(sc *scratch, src []byte, spans []span, out []ctok) []ctok {
	if sc == nil {
		sc = &scratch{}
	}
	toks := out
	var prev uint8 // the previous token's tag
	for k, s := range spans {
		if k > 0 {
			toks = goSeparators(src, spans[k-1], s, prev, toks)
		}
		t := ctok{pos: int32(s.start), start: int32(s.start), end: int32(s.end), lang: langGo}
		if c := src[s.start]; isDigit(c) || (c == '.' && s.end-s.start > 1) {
			t.kind = cNumber
		} else {
			t.tag = goTagOf(src[s.start:s.end])
		}
		prev = t.tag // a number's 0 still ends a statement: it starts with a digit or '.'
		switch t.tag {
		case ')', '}':
			// A separator never begins a statement: "{ a() }" is
			// "{\n\ta()\n}".
			if n := len(toks); n > 0 && toks[n-1].kind == cSemi {
				toks = toks[:n-1]
			}
			fallthrough
		case ']':
			// A trailing comma: "f(a, b,)" is "f(a, b)".
			if n := len(toks); n > 0 && toks[n-1].tag == ',' {
				toks = toks[:n-1]
			}
		}
		toks = append(toks, t)
	}
	m := goMatch(sc, toks)
	var changed bool
	toks, changed = goUngroup(sc, src, toks, m)
	if changed {
		m = goMatch(sc, toks)
	}
	if toks, changed = goExpandParams(sc, toks, m); changed {
		m = goMatch(sc, toks)
	}
	if toks, changed = goNamedReturns(sc, toks, m); changed {
		m = goMatch(sc, toks)
	}
	if toks, changed = goNameParens(sc, src, toks); changed {
		m = goMatch(sc, toks)
	}
	return goSortImports(src, toks, m)
}

// Go token tags (ctok.tag): a one-byte operator or bracket is tagged
// with its byte; names, keywords and the operators the passes read are
// tagged with these, all below the first printable byte. Numbers,
// strings and separators are 0.
const (
	gName uint8 = 1 + iota // an identifier that is not a keyword
	gBreak
	gCase
	gChan
	gConst
	gContinue
	gDefault
	gDefer
	gElse
	gFallthrough
	gFor
	gFunc
	gGo
	gGoto
	gIf
	gImport
	gInterface
	gMap
	gPackage
	gRange
	gReturn
	gSelect
	gStruct
	gSwitch
	gType
	gVar
	gArrow // <-
	gInc   // ++
	gDec   // --
)

// goTagOf returns the tag of the token t (see the g constants).
func goTagOf(t []byte) uint8 {
	c := t[0]
	if goIdentStart(c) || c >= 0x80 {
		if k := goKeywordTag(t); k != 0 {
			return k
		}
		return gName
	}
	if len(t) == 1 {
		if isDigit(c) {
			return 0
		}
		return c
	}
	if len(t) == 2 {
		switch string(t) {
		case "<-":
			return gArrow
		case "++":
			return gInc
		case "--":
			return gDec
		}
	}
	return 0
}

// goKeywordTag returns the tag of the keyword t, or 0 when t is not one.
func goKeywordTag(t []byte) uint8 {
	switch len(t) {
	case 2:
		switch string(t) {
		case "go":
			return gGo
		case "if":
			return gIf
		}
	case 3:
		switch string(t) {
		case "for":
			return gFor
		case "map":
			return gMap
		case "var":
			return gVar
		}
	case 4:
		switch string(t) {
		case "case":
			return gCase
		case "chan":
			return gChan
		case "else":
			return gElse
		case "func":
			return gFunc
		case "goto":
			return gGoto
		case "type":
			return gType
		}
	case 5:
		switch string(t) {
		case "break":
			return gBreak
		case "const":
			return gConst
		case "defer":
			return gDefer
		case "range":
			return gRange
		}
	case 6:
		switch string(t) {
		case "import":
			return gImport
		case "return":
			return gReturn
		case "select":
			return gSelect
		case "struct":
			return gStruct
		case "switch":
			return gSwitch
		}
	case 7:
		switch string(t) {
		case "default":
			return gDefault
		case "package":
			return gPackage
		}
	case 8:
		if string(t) == "continue" {
			return gContinue
		}
	case 9:
		if string(t) == "interface" {
			return gInterface
		}
	case 11:
		if string(t) == "fallthrough" {
			return gFallthrough
		}
	}
	return 0
}

// goMatch is matchBrackets by tags, into the scratch's buffer.
func goMatch(sc *scratch, toks []ctok) []int {
	match, stack := sc.match[:0], sc.stack[:0]
	for i, t := range toks {
		match = append(match, -1)
		switch c := t.tag; c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			if n := len(stack); n > 0 && toks[stack[n-1]].tag == opener(c) {
				match[stack[n-1]] = i
				match[i] = stack[n-1]
				stack = stack[:n-1]
			}
		}
	}
	sc.match, sc.stack = match, stack
	return match
}

// dropFor returns the scratch's drop marks for n tokens, all false.
func (sc *scratch) dropFor(n int) []bool {
	if cap(sc.drop) < n {
		sc.drop = make([]bool, n)
	}
	sc.drop = sc.drop[:n]
	clear(sc.drop)
	return sc.drop
}

// goNameParens writes "(T)(x)" as "T(x)" (gofumpt does): parentheses
// around one name, or a qualified one, that is then called or converted
// to group nothing. "(*T)(x)" and "v.(T)(x)" keep theirs.
func goNameParens(sc *scratch, src []byte, toks []ctok) ([]ctok, bool) {
	var drop []bool
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].tag != '(' || (i > 0 && (goOperandEnd(src, toks[i-1]) || toks[i-1].tag == '.')) {
			continue
		}
		k := i + 1
		if toks[k].tag != gName {
			continue
		}
		if k+2 < len(toks) && toks[k+1].tag == '.' && toks[k+2].tag == gName {
			k += 2
		}
		if k+2 >= len(toks) || toks[k+1].tag != ')' || toks[k+2].tag != '(' {
			continue
		}
		if drop == nil {
			drop = sc.dropFor(len(toks))
		}
		drop[i], drop[k+1] = true, true
	}
	return compact(toks, drop), drop != nil
}

// goOperandEnd reports a token that ends an operand, after which "(" calls.
func goOperandEnd(src []byte, t ctok) bool {
	switch t.tag {
	case gName, ')', ']', '}':
		return true
	}
	return t.kind == cNumber || (t.kind == cVerbatim && (src[t.start] == '"' || src[t.start] == '`' || src[t.start] == '\''))
}

// goSortImports sorts the specs of each import declaration group: their
// order means nothing (since Go 1.21 packages are initialised in the
// order of their paths), and gofmt and gofumpt regroup and sort them. m
// matches toks' brackets.
func goSortImports(src []byte, toks []ctok, m []int) []ctok {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].tag != gImport || toks[i+1].tag != '(' {
			continue
		}
		sortStatements(src, toks, i+2, m[i+1], m, func(t ctok) bool { return t.kind == cSemi })
	}
	return toks
}

// goSeparators appends the statement separators between tokens a and b,
// a tagged prev: each semicolon written there, or else the one Go
// inserts at a line break after a token that can end a statement.
func goSeparators(src []byte, a, b span, prev uint8, toks []ctok) []ctok {
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
	if semis == 0 && newline && goEndsStatement(prev, src[a.start]) {
		semis = 1
	}
	for ; semis > 0; semis-- {
		toks = append(toks, ctok{pos: int32(a.end), start: int32(a.end), end: int32(a.end), kind: cSemi})
	}
	return toks
}

// goEndsStatement reports a token, tagged tag and beginning with byte c,
// after which a line break ends the statement (the Go spec's semicolon
// rule).
func goEndsStatement(tag, c byte) bool {
	switch tag {
	case gName, gBreak, gContinue, gFallthrough, gReturn, gInc, gDec, ')', ']', '}':
		return true
	}
	return isDigit(c) || c == '.' || c == '"' || c == '\'' || c == '`'
}

// goUngroup writes each declaration group of var, const or type as its
// declarations one by one: "var ( x = 1 ; y int )" is "var x = 1 ; var y
// int" (gofumpt ungroups a group of one and groups adjacent top-level
// declarations; the same declarations either way), and then "var x = y"
// as "x := y" (gofumpt's rewrite in function bodies; at the top level
// ":=" cannot be written, so nothing else reads the same). A const group
// where a spec leaves out its value or any uses iota keeps its grouping:
// there the group gives the values. Each keyword written again takes the
// place of its spec's first token, so that a spec's lines read alike in
// both. m matches toks' brackets; changed says whether tokens moved.
func goUngroup(sc *scratch, src []byte, toks []ctok, m []int) (out []ctok, changed bool) {
	var drop []bool
	var again map[int]int // a separator a keyword is written again after: that keyword's index
	for i := 0; i+1 < len(toks); i++ {
		switch toks[i].tag {
		case gVar, gConst, gType, gImport:
		default:
			continue
		}
		if toks[i+1].tag != '(' {
			continue
		}
		c := m[i+1]
		if c < 0 || c == i+2 {
			continue
		}
		var seps []int
		valued, iota := false, false
		allValued := true
		for k := i + 2; k < c; k++ {
			if j := m[k]; j > k {
				k = j
				continue
			}
			switch t := toks[k]; {
			case t.kind == cSemi:
				seps = append(seps, k)
				allValued = allValued && valued
				valued = false
			case t.tag == '=':
				valued = true
			case t.tag == gName && string(src[t.start:t.end]) == "iota":
				iota = true
			}
		}
		allValued = allValued && valued
		if len(seps) > 0 && (toks[i].tag == gImport || toks[i].tag == gConst && (iota || !allValued)) {
			continue
		}
		if drop == nil {
			drop = sc.dropFor(len(toks))
		}
		drop[i+1], drop[c] = true, true
		toks[i].pos = max(toks[i].pos, toks[i+2].pos) // the keyword on the first spec's line, as on the others'
		for _, k := range seps {
			if again == nil {
				again = map[int]int{}
			}
			again[k] = i
		}
	}
	if len(again) > 0 {
		grown := make([]ctok, 0, len(toks)+len(again))
		keep := make([]bool, 0, len(toks)+len(again))
		for i, t := range toks {
			grown, keep = append(grown, t), append(keep, drop[i])
			if kw, ok := again[i]; ok {
				k := toks[kw]
				k.pos = t.pos
				if i+1 < len(toks) {
					k.pos = max(t.pos, toks[i+1].pos)
				}
				grown, keep = append(grown, k), append(keep, false)
			}
		}
		toks, drop = grown, keep
	}
	toks = compact(toks, drop)
	changed = drop != nil
	drop = nil
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].tag != gVar || (i > 0 && toks[i-1].kind != cSemi && toks[i-1].tag != '{') {
			continue
		}
		k := i + 1
		for k+1 < len(toks) && toks[k].tag == gName && toks[k+1].tag == ',' {
			k += 2
		}
		if k+1 >= len(toks) || toks[k].tag != gName || toks[k+1].tag != '=' {
			continue
		}
		if drop == nil {
			drop = sc.dropFor(len(toks))
		}
		drop[i] = true
		toks[k+1].kind, toks[k+1].tag = cDefine, 0
	}
	return compact(toks, drop), changed || drop != nil
}

// goInsert is a run of tokens a pass copies in after token at:
// toks[from:to], or the named results names[from:to] (goNamedReturns).
type goInsert struct{ at, from, to int }

// goInsertAll returns toks with each of ins (in any order; a later one
// for the same token replaces an earlier) copied in, written to the
// scratch's other stream, whose buffer toks then takes over. Each copy
// takes the position of the end of the token it follows.
func goInsertAll(sc *scratch, toks []ctok, ins []goInsert, names []int) []ctok {
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at < ins[j].at })
	out := sc.alt[:0]
	next := 0
	for i, t := range toks {
		out = append(out, t)
		for next < len(ins) && ins[next].at < i {
			next++
		}
		if next == len(ins) || ins[next].at != i {
			continue
		}
		for next+1 < len(ins) && ins[next+1].at == i {
			next++
		}
		r := ins[next]
		if names == nil {
			for _, c := range toks[r.from:r.to] {
				c.pos = t.end
				out = append(out, c)
			}
			continue
		}
		for _, k := range names[r.from:r.to] {
			c := toks[k]
			c.pos = t.end
			out = append(out, c)
		}
	}
	sc.alt = toks[:0]
	return out
}

// goExpandParams gives every name of a parameter list its own type:
// "(a, b int)" is "(a int, b int)" (gofumpt -extra groups them). A
// bracket group reads as a parameter list when each element is a name
// or a name followed by a type, one at least and the last with a type:
// in an expression two operands never stand side by side. m matches
// toks' brackets.
func goExpandParams(sc *scratch, toks []ctok, m []int) ([]ctok, bool) {
	ins := sc.ins[:0]
	for i := range toks {
		if toks[i].tag != '(' && toks[i].tag != '[' {
			continue
		}
		c := m[i]
		if c < 0 || c == i+1 {
			continue
		}
		// The elements, tokens [from, to): each a name, or a name and a
		// type; the first that is neither rules the group out.
		elems := sc.elems[:0]
		named, ok := 0, true
		from := i + 1
		for k := i + 1; k <= c; k++ {
			if k == from && toks[k].tag != gName {
				ok = false
				break
			}
			if j := m[k]; j > k {
				k = j
				continue
			}
			if k == c || toks[k].tag == ',' {
				if k-from >= 2 {
					if !goTypeStart(toks, from+1, k, m) {
						ok = false
						break
					}
					named++
				}
				elems = append(elems, [2]int{from, k})
				from = k + 1
			}
		}
		sc.elems = elems
		if !ok {
			continue
		}
		last := elems[len(elems)-1]
		if named == 0 || named == len(elems) || last[1]-last[0] < 2 {
			continue
		}
		for k, e := range elems {
			if e[1]-e[0] != 1 {
				continue
			}
			for _, n := range elems[k+1:] {
				if n[1]-n[0] > 1 {
					ins = append(ins, goInsert{at: e[0], from: n[0] + 1, to: n[1]})
					break
				}
			}
		}
	}
	sc.ins = ins
	if len(ins) == 0 {
		return toks, false
	}
	return goInsertAll(sc, toks, ins, nil), true
}

// goTypeStart reports whether toks[k:end] reads as a type after a name.
// "..." is not among the starts: canonGo reads it as a number (a '.'
// and more), untagged, so a variadic list keeps its grouping; reading
// it as a type would change the shapes stored (a format change).
func goTypeStart(toks []ctok, k, end int, m []int) bool {
	switch toks[k].tag {
	case gName, gFunc, gMap, gChan, gStruct, gInterface, gArrow, '*':
		return true
	case '[':
		// "a []int" or "a [4]int", not the instance "G[T]" of an unnamed
		// parameter.
		return m[k] > k && m[k] < end-1
	}
	return false
}

// goNamedReturns writes a bare "return" in a function with named results
// as "return" and those names, as gofumpt -extra does: the same values
// are returned (a name shadowed at the return would not compile). m
// matches toks' brackets.
func goNamedReturns(sc *scratch, toks []ctok, m []int) ([]ctok, bool) {
	ins, names := sc.ins[:0], sc.names[:0]
	for i := range toks {
		if toks[i].tag != gFunc {
			continue
		}
		results, body := goSignature(toks, i, m)
		if results < 0 || body < 0 || m[body] < 0 {
			continue
		}
		// The names: the first token of each element of the results.
		first := len(names)
		for k, from := results+1, results+1; k <= m[results]; k++ {
			if j := m[k]; j > k {
				k = j
				continue
			}
			if k == m[results] || toks[k].tag == ',' {
				if k-from < 2 || toks[from].tag != gName {
					names = names[:first]
					break
				}
				if len(names) > first {
					names = append(names, from-1) // the comma before it
				}
				names = append(names, from)
				from = k + 1
			}
		}
		if len(names) == first {
			continue
		}
		for k := body + 1; k < m[body]; k++ {
			switch {
			case toks[k].tag == gFunc: // a function literal has its own results
				if _, b := goSignature(toks, k, m); b > k && m[b] > b {
					k = m[b]
				}
			case toks[k].tag == gReturn && k+1 < len(toks) && (toks[k+1].kind == cSemi || toks[k+1].tag == '}'):
				ins = append(ins, goInsert{at: k, from: first, to: len(names)})
			}
		}
	}
	sc.ins, sc.names = ins, names
	if len(ins) == 0 {
		return toks, false
	}
	return goInsertAll(sc, toks, ins, names), true
}

// goSignature reads the function whose "func" is toks[i]: the index of
// its results' "(" (-1 when they are not in parentheses) and of its
// body's "{" (-1 for a function type).
func goSignature(toks []ctok, i int, m []int) (results, body int) {
	k := i + 1
	if k < len(toks) && toks[k].tag == '(' && m[k] > k && m[k]+2 < len(toks) && toks[m[k]+1].tag == gName {
		k = m[k] + 1 // a method's receiver
	}
	if k < len(toks) && toks[k].tag == gName {
		k++
	}
	if k < len(toks) && toks[k].tag == '[' && m[k] > k {
		k = m[k] + 1
	}
	if k >= len(toks) || toks[k].tag != '(' || m[k] < 0 {
		return -1, -1
	}
	k = m[k] + 1
	results = -1
	if k < len(toks) && toks[k].tag == '(' && m[k] > k {
		results = k
		k = m[k] + 1
	}
	for ; k < len(toks); k++ {
		t := toks[k]
		switch t.tag {
		case '{':
			if k > 0 && (toks[k-1].tag == gStruct || toks[k-1].tag == gInterface) && m[k] > k {
				k = m[k]
				continue
			}
			return results, k
		case '(', '[':
			if m[k] > k {
				k = m[k]
			}
		case ',', ')', ']', '}', '=':
			return results, -1
		default:
			if t.kind == cSemi {
				return results, -1
			}
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
