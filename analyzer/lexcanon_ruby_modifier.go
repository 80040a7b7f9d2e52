package analyzer

// rubyModifiers reads a conditional or a loop whose body is one statement
// as that statement with a modifier: `if c` + `x` + `end` over three
// lines is `x if c`, and so for unless, while and until (RuboCop's
// Style/IfUnlessModifier and WhileUntilModifier write either way, by the
// line's length). Ruby reads both the same but where a name is read
// before it is assigned: a modifier's body comes first, so a name the
// body assigns is a local variable in the condition after it, a method
// call in the condition before it. The rewrite is therefore left out
// where the condition assigns or binds (=, =~ with named captures, a
// pattern's in or =>) or names a variable the body assigns, and for a
// loop around begin … end (which runs its body once before the test). A
// body is one statement: no line end of its own but inside a do block,
// or a begin … end under if or unless, holding no conditional, loop or
// definition of its own (their ends are not paired here). Innermost first, so that `if a` around
// `if b` around `x` reads as `x if b if a`, as `if a` around `x if b`
// does. toks is tidyRuby's stream; the rewritten tokens take the places
// of the tokens they replace, as a stretch (ctok.run).
func rubyModifiers(src []byte, toks []ctok) []ctok {
	loopDo(src, toks)
	var gone []bool // slots emptied by a rewrite
	for k := len(toks) - 1; k >= 0; k-- {
		switch string(rawWord(src, toks, k)) {
		case "if", "unless", "while", "until":
		default:
			continue
		}
		if !rubyStatementStart(src, toks, k) {
			continue
		}
		if gone == nil {
			gone = make([]bool, len(toks))
		}
		rubyModifier(src, toks, gone, k)
	}
	return compact(toks, gone)
}

// loopDo reads the do that ends a while or until loop's condition as the
// line end it stands for (RuboCop's Style/WhileUntilDo drops it): in a
// loop's condition a do opens no block. (tidyRuby reads a line end after
// a do as none.)
func loopDo(src []byte, toks []ctok) {
	for k := range toks {
		if w := rawWord(src, toks, k); (string(w) != "while" && string(w) != "until") || !rubyStatementStart(src, toks, k) {
			continue
		}
		depth := 0
	cond:
		for j := k + 1; j < len(toks); j++ {
			switch w := wordAt(src, toks, j); {
			case toks[j].kind == cSemi || toks[j].kind == cRubyDo || toks[j].kind == cRubyEnd:
				break cond
			case w == "(" || w == "[" || w == "{":
				depth++
			case w == ")" || w == "]" || w == "}":
				depth--
			case w == "do" && depth == 0:
				toks[j].kind = cSemi
				break cond
			}
		}
	}
}

// rubyStatementStart reports whether toks[k] starts a statement: the
// stream's first token, or one after a line end, a block's do (or its
// parameters' closing |), else, begin or ensure.
func rubyStatementStart(src []byte, toks []ctok, k int) bool {
	if k == 0 {
		return true
	}
	p := toks[k-1]
	if p.kind == cSemi || p.kind == cRubyDo {
		return true
	}
	switch string(rawWord(src, toks, k-1)) {
	case "do", "else", "begin", "ensure":
		return !afterDot(src, toks, k-1) && string(rawWord(src, toks, k-2)) != "def"
	case "|":
		o := paramsOf(src, toks, k-1) // a block's parameters' end, not a bitwise or
		return o >= 0 && (toks[o].kind == cRubyDo || string(rawWord(src, toks, o)) == "do")
	}
	return false
}

// afterDot reports whether toks[k] follows ., &. or ::, naming a method
// or a constant whatever its spelling (range.begin, x.class).
func afterDot(src []byte, toks []ctok, k int) bool {
	switch string(rawWord(src, toks, k-1)) {
	case ".", "&.", "::":
		return true
	}
	return false
}

// paramsOf is the token before the | that opens the block parameters
// whose closing | is toks[k] (a do, or the { of a block), or -1 when no
// | opens them on the line.
func paramsOf(src []byte, toks []ctok, k int) int {
	for j := k - 1; j >= 0 && j > k-40; j-- {
		if toks[j].kind == cSemi {
			return -1
		}
		if string(rawWord(src, toks, j)) == "|" {
			return j - 1
		}
	}
	return -1
}

// rubyModifier rewrites the block-form conditional or loop at toks[k] as
// a modifier when rubyModifiers allows it, leaving the slots its line
// end and its end emptied in gone.
func rubyModifier(src []byte, toks []ctok, gone []bool, k int) {
	kw := rawWord(src, toks, k)
	loop := string(kw) == "while" || string(kw) == "until"
	next := func(j int) int {
		for j++; j < len(toks) && gone[j]; j++ {
		}
		return j
	}
	// The condition: to the first line end.
	var cond []int
	semi := -1
	for j := next(k); j < len(toks); j = next(j) {
		t := toks[j]
		if t.kind == cSemi {
			semi = j
			break
		}
		if t.kind == cRubyDo || t.kind == cRubyEnd {
			return
		}
		switch w := rawWord(src, toks, j); {
		case string(w) == "=~" && toks[j-1].kind == cRubyRegexp:
			return // a regular expression's named groups assign variables
		case string(w) == "do" || string(w) == "then" || string(w) == "end" || string(w) == "in" || string(w) == "=>" || string(w) == "begin":
			return
		case rubyAssignment(w):
			return
		}
		cond = append(cond, j)
	}
	if semi < 0 || len(cond) == 0 {
		return
	}
	// The body: one statement, then end.
	var body []int
	end, depth := -1, 0
	var assigned []string
	for j := next(semi); j < len(toks); j = next(j) {
		t := toks[j]
		w := string(rawWord(src, toks, j)) // compared only: not copied
		keyword := !afterDot(src, toks, j) && string(rawWord(src, toks, j-1)) != "def"
		switch {
		case t.kind == cSemi:
			if depth == 0 {
				return // a second statement, or a heredoc's body
			}
		case t.kind == cRubyDo || (w == "do" && keyword):
			depth++
		case w == "begin" && keyword && !loop && len(body) == 0:
			depth++ // begin … end if c runs its body as if c … end around it does
		case depth > 0 && keyword && (w == "rescue" || w == "ensure" || w == "else"):
			// a do block's or a begin's
		case t.kind == cRubyEnd:
			if depth == 0 {
				return
			}
			depth--
		case w == "end" && keyword:
			if depth == 0 {
				end = j
			} else {
				depth--
			}
		case keyword && (w == "begin" || w == "case" || w == "def" || w == "class" || w == "module" || w == "for" ||
			w == "else" || w == "elsif" || w == "when" || w == "then" || w == "ensure" ||
			(depth > 0 && (w == "if" || w == "unless" || w == "while" || w == "until") && rubyStatementStart(src, toks, j))):
			return
		case rubyAssignment(rawWord(src, toks, j)):
			assigned = rubyAssigned(src, toks, body, assigned)
		}
		if end >= 0 {
			break
		}
		body = append(body, j)
	}
	if end < 0 || len(body) == 0 || (loop && string(rawWord(src, toks, body[0])) == "begin") {
		return
	}
	for _, n := range assigned {
		for _, c := range cond {
			if string(rawWord(src, toks, c)) == n && !rubyLocalBefore(src, toks, k, n) {
				return // the condition reads a method the body's variable would hide
			}
		}
	}
	// The slots the statement took, in order, and its tokens in their new
	// order: the body, the keyword, the condition.
	slots := make([]int, 0, len(cond)+len(body)+3)
	for j := k; j <= end; j = next(j) {
		slots = append(slots, j)
	}
	order := make([]ctok, 0, len(slots))
	for _, j := range body {
		order = append(order, toks[j])
	}
	order = append(order, toks[k])
	for _, j := range cond {
		order = append(order, toks[j])
	}
	run := uint8(1)
	for (k > 0 && toks[k-1].run == run) || (next(end) < len(toks) && toks[next(end)].run == run) {
		run++
	}
	for i, t := range order {
		t.pos = toks[slots[i]].pos
		t.run = run
		toks[slots[i]] = t
	}
	for _, j := range slots[len(order):] {
		gone[j] = true
	}
}

// rubyAssigned adds to names the local variables the assignment after
// body's last token assigns: a name written before it, or the names of a
// multiple assignment (a, b = …); not an attribute or an element (x.a =,
// h[k] =), which are method calls.
func rubyAssigned(src []byte, toks []ctok, body []int, names []string) []string {
	for i := len(body) - 1; i >= 0; i-- {
		w := wordAt(src, toks, body[i])
		switch {
		case w == "*" || w == "(" || w == ")":
			continue
		case w == "" || !rubyLocalName([]byte(w)):
			return names
		}
		if afterDot(src, toks, body[i]) {
			return names
		}
		names = append(names, w)
		if i == 0 || wordAt(src, toks, body[i-1]) != "," {
			return names
		}
		i--
	}
	return names
}

// rubyLocalBefore reports whether name is a local variable already at
// toks[k]: a parameter of the def around it (a name on the def's line),
// a block's parameter, or assigned before k in that def.
func rubyLocalBefore(src []byte, toks []ctok, k int, name string) bool {
	def := -1
	for j := k - 1; j >= 0; j-- {
		if wordAt(src, toks, j) == "def" {
			def = j
			break
		}
	}
	if def < 0 {
		return false
	}
	from := def + 2 // past the def's name
	if wordAt(src, toks, def+1) == "self" {
		from = def + 4 // def self.name
	}
	header := true
	for j := from; j < k; j++ {
		if toks[j].kind == cSemi {
			header = false
			continue
		}
		if wordAt(src, toks, j) != name {
			continue
		}
		if afterDot(src, toks, j) {
			continue
		}
		if n := rawWord(src, toks, j+1); header || string(n) == "|" || rubyAssignment(n) {
			return true
		}
	}
	return false
}

// rubyAssignment reports whether w assigns: =, +=, ||=, … (not ==, ===,
// !=, <=, >=).
func rubyAssignment(w []byte) bool {
	switch string(w) {
	case "==", "===", "!=", "<=", ">=":
		return false
	}
	return len(w) > 0 && w[len(w)-1] == '='
}

// rubyLocalName reports whether w may name a local variable: a name
// starting with a lowercase letter or _, not a keyword.
func rubyLocalName(w []byte) bool {
	c := w[0]
	return (c == '_' || (c >= 'a' && c <= 'z')) && !rubyKeyword(string(w))
}
