package analyzer

import "bytes"

// rubyRedundant reads away what RuboCop's Style/RedundantBegin and
// Style/RedundantReturn drop, where Ruby reads the same without it: a
// begin … end that is the whole body of a def or a do block (both take
// rescue, else and ensure clauses of their own) or a statement of its
// own without clauses, and a return whose value is the def's (see
// tailReturns; several values read as the array RuboCop writes). The
// ends are paired by rubyEnds; a stream whose ends do not balance is
// left as it is.
func rubyRedundant(src []byte, toks []ctok) []ctok {
	match := rubyEnds(src, toks)
	if match == nil {
		return toks
	}
	var ed rubyEdits
	for k := range toks {
		if match[k] < k {
			continue // no opener
		}
		switch string(rawWord(src, toks, k)) {
		case "begin":
			if o := bodyOf(src, toks, match, k); (o >= 0 && match[o] == match[k]+1) || plainBegin(src, toks, match, k) {
				ed.drop(toks, k)
				if toks[k+1].kind == cSemi {
					ed.drop(toks, k+1)
				}
				ed.drop(toks, match[k])
			}
		case "def":
			tailReturns(src, toks, match, k, &ed)
		}
	}
	return ed.apply(toks)
}

// rubyEdits are what rubyRedundant does to a stream: tokens dropped, and
// the ] of an array closed after a token (see tailOf).
type rubyEdits struct {
	dropped, closed []bool
}

func (e *rubyEdits) drop(toks []ctok, k int) {
	if e.dropped == nil {
		e.dropped = make([]bool, len(toks))
	}
	e.dropped[k] = true
}

func (e *rubyEdits) closeAfter(toks []ctok, k int) {
	if e.closed == nil {
		e.closed = make([]bool, len(toks))
	}
	e.closed[k] = true
}

func (e *rubyEdits) apply(toks []ctok) []ctok {
	if e.closed == nil {
		return compact(toks, e.dropped)
	}
	out := make([]ctok, 0, len(toks)+4)
	for k, t := range toks {
		if e.dropped == nil || !e.dropped[k] {
			out = append(out, t)
		}
		if e.closed[k] {
			out = append(out, ctok{pos: t.pos, start: t.end, end: t.end, kind: cRubyClose, lang: t.lang})
		}
	}
	return out
}

// bodyOf is the def or do block (its opener) whose body begins with
// toks[k], or -1: k follows a do (or its block's parameters), or the line
// end that ends a def's line.
func bodyOf(src []byte, toks []ctok, match []int, k int) int {
	p := k - 1
	if p < 0 {
		return -1
	}
	if string(rawWord(src, toks, p)) == "|" {
		if p = paramsOf(src, toks, p); p < 0 {
			return -1
		}
	}
	if toks[p].kind == cRubyDo || wordAt(src, toks, p) == "do" {
		if match[p] > p {
			return p
		}
		return -1
	}
	if toks[p].kind != cSemi {
		return -1
	}
	for d := p - 1; d >= 0 && toks[d].kind != cSemi; d-- {
		if wordAt(src, toks, d) == "def" && match[d] > d {
			return d
		}
	}
	return -1
}

// plainBegin reports whether the begin at toks[k] is a statement of its
// own, no value (its end ends the statement: no while or until after it,
// which would run its body first, no method called on it), and without
// rescue, else or ensure clauses: its statements are read as they are.
func plainBegin(src []byte, toks []ctok, match []int, k int) bool {
	if k > 0 && toks[k-1].kind != cSemi {
		return false
	}
	e := match[k]
	if e+1 < len(toks) && toks[e+1].kind != cSemi && toks[e+1].kind != cRubyEnd && wordAt(src, toks, e+1) != "end" {
		return false
	}
	for j := k + 1; j < e; j++ {
		if match[j] > j {
			j = match[j]
			continue
		}
		if w := wordAt(src, toks, j); w == "rescue" && toks[j-1].kind == cSemi || w == "else" || w == "ensure" {
			return false
		}
	}
	return true
}

// tailReturns marks each return that begins a statement whose value is
// the value of the def at toks[d]: its body's last statement, and where
// that is an if, unless, case or begin … end, the last statement of each
// of their branches (see rubyRedundant).
func tailReturns(src []byte, toks []ctok, match []int, d int, ed *rubyEdits) {
	end := match[d]
	h := d + 1
	for h < end && toks[h].kind != cSemi {
		h++
	}
	if main, ok := mainBody(src, toks, match, h+1, end); ok {
		tailOf(src, toks, match, h+1, main, ed)
	}
}

// mainBody is where the statements toks[from:to] of a def's or a begin's
// body end: at its first rescue or ensure clause, or at to. ok is false
// when an else clause gives the body's value instead.
func mainBody(src []byte, toks []ctok, match []int, from, to int) (end int, ok bool) {
	end = to
	for j := from; j < to; j++ {
		if match[j] > j {
			j = match[j] // a body of its own
			continue
		}
		switch w := wordAt(src, toks, j); {
		case w == "else":
			return to, false
		case w == "ensure" || (w == "rescue" && toks[j-1].kind == cSemi):
			end = min(end, j)
		}
	}
	return end, true
}

// tailOf marks the returns of tailReturns in the statements toks[from:to].
func tailOf(src []byte, toks []ctok, match []int, from, to int, ed *rubyEdits) {
	for to > from && toks[to-1].kind == cSemi {
		to-- // the line end before a clause
	}
	last := from // the last statement's first token
	for j := from; j < to; j++ {
		if match[j] > j {
			j = match[j]
			continue
		}
		if toks[j].kind == cSemi {
			last = j + 1
		}
	}
	if last >= to {
		return
	}
	switch w := wordAt(src, toks, last); {
	case w == "return":
		switch returned(src, toks, match, last, to) {
		case 1:
			ed.drop(toks, last)
		case 2:
			toks[last].kind = cRubyOpen // return a, b is [a, b]
			ed.closeAfter(toks, to-1)
		}
	case match[last] != to-1:
		// not a body that ends the statements
	case w == "if" || w == "unless" || w == "case" || w == "begin":
		// its branches: from the line end after a condition (if, elsif,
		// when, in) or right after else, to the next branch or the end
		if w == "begin" {
			if main, ok := mainBody(src, toks, match, last+1, to-1); ok {
				tailOf(src, toks, match, last+1, main, ed)
			}
			return
		}
		start := -1
		for j := last + 1; j < to; j++ {
			if match[j] > j {
				j = match[j]
				continue
			}
			k := wordAt(src, toks, j)
			branch := k == "else" || (w == "case" && (k == "when" || k == "in")) || (w != "case" && k == "elsif")
			switch {
			case toks[j].kind == cSemi && start < 0:
				start = j + 1
			case branch || j == to-1:
				if start >= 0 {
					tailOf(src, toks, match, start, j, ed)
				}
				start = -1
				if k == "else" {
					start = j + 1
				}
			}
		}
	}
}

// returned says what the return at toks[r] returns, the rest of its
// statement up to to: 1 for one value, 2 for several (return a, b and
// return *a return an array), 0 for none or what is left as written: a
// bare return under a modifier, return(x), several values under a
// modifier.
func returned(src []byte, toks []ctok, match []int, r, to int) int {
	if r+1 >= to || toks[r+1].kind == cSemi {
		return 0
	}
	switch wordAt(src, toks, r+1) {
	case "if", "unless", "while", "until", "rescue", "(":
		return 0
	}
	n := 1
	if wordAt(src, toks, r+1) == "*" {
		n = 2
	}
	depth := 0
	for j := r + 1; j < to; j++ {
		if match[j] > j {
			j = match[j]
			continue
		}
		switch w := wordAt(src, toks, j); w {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				n = 2
			}
		case "if", "unless", "while", "until", "rescue":
			if depth == 0 && n == 2 {
				return 0
			}
		case "and", "or":
			if depth == 0 {
				return 0 // return a and b returns a: b is never read
			}
		default:
			if n == 1 && depth == 0 && j+1 < to && rubyCallName(w) && toks[j+1].start > toks[j].end && rubyOperandStart(src, toks, j+1) {
				return 1 // a call without parentheses takes the commas: return f a, b
			}
		}
	}
	return n
}

// rubyEnds pairs each keyword that opens a body closed by end with that
// end, and each end with its opener (match[k] = -1 for other tokens): def
// (not an endless `def f = x`), class, module, begin, case, do (a block's,
// not a loop's), for, a brace block read as do … end (cRubyDo, cRubyEnd),
// and if, unless, while and until where they open a body (not a
// modifier: after an operand). It returns nil when the ends do not
// balance: the stream is then read without the rules that need them.
func rubyEnds(src []byte, toks []ctok) []int {
	match := make([]int, len(toks))
	for k := range match {
		match[k] = -1
	}
	var open []int
	header := -1 // a loop whose condition goes on: its do is no block's
	for k, t := range toks {
		if t.kind == cSemi {
			header = -1
			continue
		}
		if t.kind == cRubyDo {
			open = append(open, k)
			continue
		}
		if t.kind == cRubyEnd {
			n := len(open)
			if n == 0 || toks[open[n-1]].kind != cRubyDo {
				return nil
			}
			match[open[n-1]], match[k] = k, open[n-1]
			open = open[:n-1]
			continue
		}
		switch string(rawWord(src, toks, k)) {
		case "end", "class", "module", "begin", "case", "def", "for", "while", "until", "if", "unless", "do":
		default:
			continue // most tokens: read without a copy
		}
		w := wordAt(src, toks, k)
		if p := wordAt(src, toks, k-1); afterDot(src, toks, k) || (p == "def" && w != "self") || (p == ":" && toks[k-1].end == t.start) {
			continue // a method's name, a symbol
		}
		if k+1 < len(toks) && wordAt(src, toks, k+1) == ":" && toks[k+1].start == t.end {
			continue // a label: if: x
		}
		switch w {
		case "end":
			n := len(open)
			if n == 0 || toks[open[n-1]].kind == cRubyDo {
				return nil
			}
			match[open[n-1]], match[k] = k, open[n-1]
			open = open[:n-1]
		case "class", "module", "begin", "case":
			open = append(open, k)
		case "def":
			if !endlessDef(src, toks, k) {
				open = append(open, k)
			}
		case "for", "while", "until":
			if w == "for" || !rubyOperandBefore(src, toks, k) {
				open = append(open, k)
				header = k
			}
		case "if", "unless":
			if !rubyOperandBefore(src, toks, k) {
				open = append(open, k)
			}
		case "do":
			if header >= 0 {
				header = -1 // while c do: the loop's
				continue
			}
			open = append(open, k)
		}
	}
	if len(open) > 0 {
		return nil
	}
	return match
}

// rubyOperandBefore reports whether toks[k] follows an operand on its
// statement, so that a keyword there is a modifier: a name, a literal, a
// closing bracket, end, or a keyword that is a value or a statement of
// its own (self, nil, return, break, yield, …).
func rubyOperandBefore(src []byte, toks []ctok, k int) bool {
	if k == 0 {
		return false
	}
	p := toks[k-1]
	switch p.kind {
	case cSemi, cRubyDo:
		return false
	case cRubyEnd:
		return true
	case cVerbatim:
	default:
		return !beforeCode(src, p) // a literal, unless it opens interpolated code
	}
	if p.end <= toks[k].start && bytes.IndexByte(src[p.end:toks[k].start], '(') >= 0 {
		return false // a call's parentheses the stream dropped: t.push(if c then a end)
	}
	w := wordAt(src, toks, k-1)
	if afterDot(src, toks, k-1) && w != "(" && w != "[" {
		return true // a method's name, keyword or not (range.begin)
	}
	if k >= 2 && rubyOpSymbol(src, toks[:k]) {
		return true // a symbol that names an operator (&:==)
	}
	switch w {
	case ")", "]", "}", "end", "self", "nil", "true", "false", "return", "break", "next", "redo", "retry",
		"yield", "super", "__method__", "__FILE__", "__LINE__", "__dir__":
		return true
	}
	if rubyKeyword(w) || w == "not" || w == "then" {
		return false
	}
	c := w[0]
	return c == '_' || c == '@' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '"' || c == '\'' || c == '`' // a string written as it is (in interpolated code)
}

// endlessDef reports whether the def at toks[k] is an endless method
// (`def f(a) = a`, `def f = 1`): an = apart from the name, right after it
// or after its parameters' parentheses (a setter `def a=(v)` writes its
// = against the name; parameters without parentheses, `def f a = 1`,
// take defaults).
func endlessDef(src []byte, toks []ctok, k int) bool {
	j := k + 1 // the name's last token
	if wordAt(src, toks, j) == "self" && wordAt(src, toks, j+1) == "." {
		j += 2
	}
	if wordAt(src, toks, j) == "[" && wordAt(src, toks, j+1) == "]" {
		j++
	}
	n := j + 1
	if n < len(toks) && wordAt(src, toks, n) == "(" && toks[n].start == toks[j].end {
		depth := 0
		for ; n < len(toks) && toks[n].kind != cSemi; n++ {
			if w := wordAt(src, toks, n); w == "(" {
				depth++
			} else if w == ")" {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		n++
	}
	return n < len(toks) && wordAt(src, toks, n) == "=" && toks[n].start > toks[n-1].end
}

// rawWord is the text of toks[k] as written, as wordAt reads it, without
// copying it: for comparisons in the loops that read every token.
func rawWord(src []byte, toks []ctok, k int) []byte {
	if k < 0 || k >= len(toks) || toks[k].kind != cVerbatim {
		return nil
	}
	return src[toks[k].start:toks[k].end]
}
