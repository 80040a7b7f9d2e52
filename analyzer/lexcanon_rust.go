package analyzer

import "bytes"

// Rust in the canonical stream (docs/fingerprints.md): trailing commas
// but a one-element tuple's, nested parentheses and those rustc's
// unused_parens lint removes, match arms written with or without a block
// around a lone expression and a comma after it, and closures with or
// without a block around theirs.

// canonRust returns the canonical stream of Rust source.
func canonRust(sc *scratch, src []byte, out []ctok) []ctok {
	toks := lexRust(src, out)
	toks = rustUnusedParens(sc, src, toks)
	toks = rustMatchArms(sc, src, toks)
	toks = rustClosureBodies(sc, src, toks)
	toks = dropTrailingCommas(sc, src, toks, func(comma int, match []int) bool {
		// "(a,)" is a one-element tuple; a call's, a macro's or a tuple
		// struct's parentheses follow a name, ">", "!" or ")".
		if !soleElement(src, toks, comma, match) {
			return false
		}
		o := groupOpen(src, toks, comma, match)
		return o >= 0 && isByte(src, toks[o], '(') && !(o > 0 && rustEndsOperand(src, toks[o-1]))
	})
	toks = dropJSTypeArgCommas(src, toks)
	toks = rustWhereCommas(sc, src, toks)
	toks = rustSortUses(sc, src, toks)
	return dropDoubleParens(sc, src, toks, nil)
}

// rustUnusedParens drops the parentheses around a whole operand where
// rustc's unused_parens lint calls them unnecessary (and `cargo fix`
// takes them away): a condition or scrutinee before its block ("if (a) {",
// "match (x) {", "for i in (0..n) {", "if let Some(v) = (x) {"), a value
// assigned, returned or broken with ("let x = (y);", "n += (1);",
// "return (x);"), a match arm's value ("=> (x),"), a block's last
// expression ("{ (x) }"), a closure's body ("|x| (x + 1)"), an
// argument, element or index ("f((a), b)", "v[(i)]"), a type ("x: (u8)",
// "-> (u16) {"). The group holds one expression (no comma at its top; "(a,)"
// and "(a, b)" are tuples) and is the whole operand: the tokens around it
// end the operand, so no operator reaches into it. The tokens of a macro
// call and of an attribute are left as written: a macro may read "(x)"
// and "x" differently.
func rustUnusedParens(sc *scratch, src []byte, toks []ctok) []ctok {
	if bytes.IndexByte(src, '(') < 0 {
		return toks
	}
	m := sc.brackets(src, toks)
	var drop dropMask
	body := -1 // the closing bar of the last closure's parameters
	for i := 0; i+1 < len(toks); i++ {
		if end := rustTokenTree(src, toks, i, m); end > i {
			i = end
			continue
		}
		if i > body && rustClosureOpens(src, toks, i) {
			body = rustClosureBar(src, toks, i, m)
			continue
		}
		c := m[i]
		if i == 0 || !isByte(src, toks[i], '(') || c <= i+1 || c+1 >= len(toks) || hasTopComma(src, toks, i, c, m) {
			continue
		}
		if i-1 == body {
			// A closure's body reaches as far as it can.
			if n := toks[c+1]; !isCloser(src, n) && !isByte(src, n, ',') && !isByte(src, n, ';') {
				continue
			}
		} else if !rustWholeOperand(src, toks, i-1, toks[c+1]) {
			continue
		}
		drop.mark(i, len(toks))
		drop.mark(c, len(toks))
	}
	return compact(toks, drop)
}

// rustWholeOperand reports whether a group between toks[p] and next is a
// whole operand, as rustUnusedParens reads it.
func rustWholeOperand(src []byte, toks []ctok, p int, next ctok) bool {
	prev := toks[p]
	switch {
	case is(src, prev, "if"), is(src, prev, "while"), is(src, prev, "match"), is(src, prev, "in"):
		return isByte(src, next, '{')
	case isByte(src, prev, '='):
		// "<=" and ">=" are two tokens here: a comparison's right side
		// is no whole operand ("a >= (b || c);").
		if p > 0 && toks[p-1].end == prev.start && (isByte(src, toks[p-1], '<') || isByte(src, toks[p-1], '>')) {
			return false
		}
		return isByte(src, next, ';') || isByte(src, next, '{') || is(src, next, "else")
	case isByte(src, prev, ':'): // a type, a field's value
		return isByte(src, next, ',') || isByte(src, next, ')') || isByte(src, next, '=') || isByte(src, next, ';') || isByte(src, next, '}')
	case is(src, prev, "->"): // a return type
		return isByte(src, next, '{') || isByte(src, next, ';') || is(src, next, "where")
	case prev.kind == cVerbatim && prev.end-prev.start == 2 && src[prev.end-1] == '=' && !is(src, prev, "==") && !is(src, prev, "!="):
		return isByte(src, next, ';') // a compound assignment
	case is(src, prev, "return"), is(src, prev, "break"):
		return isByte(src, next, ';') || isByte(src, next, '}') || isByte(src, next, ',')
	case is(src, prev, "=>"):
		return isByte(src, next, ',') || isByte(src, next, '}')
	case isByte(src, prev, '{'), isByte(src, prev, ';'):
		return isByte(src, next, '}')
	case isByte(src, prev, '('), isByte(src, prev, '['), isByte(src, prev, ','):
		return isByte(src, next, ')') || isByte(src, next, ']') || isByte(src, next, ',')
	}
	return false
}

// rustTokenTree returns the index of the last token of the macro call's
// or attribute's token tree that starts at toks[i] ("name!(…)",
// "macro_rules! name {…}", "#[…]", "#![…]"), or -1.
func rustTokenTree(src []byte, toks []ctok, i int, m []int) int {
	open := -1
	switch {
	case isByte(src, toks[i], '#'):
		open = i + 1
		if open < len(toks) && isByte(src, toks[open], '!') {
			open++
		}
		if open >= len(toks) || !isByte(src, toks[open], '[') {
			return -1
		}
	case isByte(src, toks[i], '!') && i > 0 && toks[i-1].kind == cVerbatim && isIdentByte(src[toks[i-1].start]) && rustEndsOperand(src, toks[i-1]):
		open = i + 1
		if open+1 < len(toks) && is(src, toks[i-1], "macro_rules") && !isOpener(src, toks[open]) {
			open++ // the macro's name
		}
		if open >= len(toks) || !isOpener(src, toks[open]) {
			return -1
		}
	default:
		return -1
	}
	return m[open]
}

// rustWhereCommas drops the comma that ends a where clause ("where T: A,
// {"), as rustfmt writes it or not.
func rustWhereCommas(sc *scratch, src []byte, toks []ctok) []ctok {
	var m []int
	var drop []bool
	for i := range toks {
		if !is(src, toks[i], "where") {
			continue
		}
		if m == nil {
			m = sc.brackets(src, toks)
		}
		for k := i + 1; k < len(toks); k++ {
			if j := m[k]; j > k && !isByte(src, toks[k], '{') {
				k = j
				continue
			}
			if isByte(src, toks[k], '{') || isByte(src, toks[k], ';') || isCloser(src, toks[k]) {
				if isByte(src, toks[k-1], ',') {
					if drop == nil {
						drop = make([]bool, len(toks))
					}
					drop[k-1] = true
				}
				break
			}
		}
	}
	return compact(toks, drop)
}

// rustSortUses sorts each run of use declarations, and the names in each
// "{…}" of a use, by their canonical text: their order means nothing, and
// rustfmt sorts them.
func rustSortUses(sc *scratch, src []byte, toks []ctok) []ctok {
	var m []int
	for i := 0; i < len(toks); i++ {
		if rustUseStart(src, toks, i) < 0 {
			continue
		}
		if m == nil {
			m = sc.brackets(src, toks)
		}
		// The run: use items one after another, each to its ";".
		var items [][2]int
		k := i
		for {
			body := rustUseStart(src, toks, k)
			if body < 0 {
				break
			}
			end := -1
			for j := body; j < len(toks); j++ {
				if mj := m[j]; mj > j {
					j = mj
					continue
				}
				if isByte(src, toks[j], ';') {
					end = j + 1
					break
				}
				if isCloser(src, toks[j]) {
					break
				}
			}
			if end < 0 {
				break
			}
			// The names inside its braces, innermost first.
			for j := end - 1; j >= body; j-- {
				if isByte(src, toks[j], '{') && m[j] > j && m[j] < end {
					sortStatements(src, toks, j+1, m[j], m, func(t ctok) bool { return isByte(src, t, ',') })
				}
			}
			items = append(items, [2]int{k, end})
			k = end
		}
		if len(items) > 1 {
			sortSegments(src, toks, items[0][0], items[len(items)-1][1], items)
		}
		i = max(i, k-1)
	}
	return toks
}

// rustUseStart returns the index of the "use" of a use declaration that
// starts at toks[i] (with its attributes and visibility), or -1.
func rustUseStart(src []byte, toks []ctok, i int) int {
	for i < len(toks) {
		switch {
		case is(src, toks[i], "use"):
			return i
		case isByte(src, toks[i], '#') && i+1 < len(toks) && isByte(src, toks[i+1], '['):
			depth := 0
			for i++; i < len(toks); i++ {
				if isByte(src, toks[i], '[') {
					depth++
				} else if isByte(src, toks[i], ']') {
					if depth--; depth == 0 {
						break
					}
				}
			}
			i++
		case is(src, toks[i], "pub"):
			i++
			if i < len(toks) && isByte(src, toks[i], '(') {
				for i < len(toks) && !isByte(src, toks[i], ')') {
					i++
				}
				i++
			}
		default:
			return -1
		}
	}
	return -1
}

// lexRust splits src into tokens, comments (doc comments too) left out.
func lexRust(src []byte, out []ctok) []ctok {
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = lexer{nestedBlocks: true}.skipBlock(src, i)
			continue
		}
		start := i
		kind := cVerbatim
		switch {
		case c == '"':
			i = skipQuoted(src, i, '"', true)
		case c == '\'':
			if isRustChar(src, i) {
				i = skipQuoted(src, i, '\'', false)
			} else { // a lifetime or label
				i++
				for i < n && isIdentByte(src[i]) {
					i++
				}
			}
		case isDigit(c):
			i = rustNumberEnd(src, i)
			kind = cNumber
		case isIdentByte(c):
			j := i + 1
			for j < n && isIdentByte(src[j]) {
				j++
			}
			i = j
			w := string(src[start:j])
			if j < n && (w == "r" || w == "br" || w == "cr") && (src[j] == '#' || src[j] == '"') {
				if k, ok := skipRawRust(src, j, []byte("r")); ok {
					i = k
				} else if w == "r" && src[j] == '#' && j+1 < n && isIdentByte(src[j+1]) { // r#ident
					i = j + 1
					for i < n && isIdentByte(src[i]) {
						i++
					}
				}
			} else if j < n && (w == "b" || w == "c") && (src[j] == '"' || src[j] == '\'') {
				i = skipQuoted(src, j, src[j], src[j] == '"')
			}
		default:
			i += rustPunctLen(src, i)
		}
		out = append(out, ctok{pos: int32(start), start: int32(start), end: int32(i), kind: kind, lang: langRust})
	}
	return out
}

// rustNumberEnd returns the end of the number literal at src[i], its
// suffix included; "1..2" and "1.max(2)" leave the dot alone.
func rustNumberEnd(src []byte, i int) int {
	j := numberEnd(src, i, func(j int) bool {
		return !(j+1 < len(src) && (src[j+1] == '.' || isIdentByte(src[j+1]) && !isDigit(src[j+1])))
	})
	for j < len(src) && isIdentByte(src[j]) { // a suffix: u8, f64, usize
		j++
	}
	return j
}

// rustPunctLen is the length of the punctuation at src[i], longest
// first; '<' and '>' are always alone (generics nest them).
func rustPunctLen(src []byte, i int) int {
	return longestOp(src, i, []string{"...", "..=", "::", "->", "=>", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", ".."})
}

// rustEndsOperand reports a token after which "(" calls: a name, ")",
// "]", ">" (a turbofish), "!" (a macro).
func rustEndsOperand(src []byte, t ctok) bool {
	if t.kind != cVerbatim {
		return true
	}
	if c := src[t.start]; isIdentByte(c) && !isDigit(c) {
		switch text(src, t) {
		case "as", "break", "const", "continue", "else", "enum", "extern", "fn", "for", "if", "impl", "in",
			"let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "trait",
			"type", "unsafe", "use", "where", "while", "async", "await", "dyn", "box", "yield":
			return false
		}
		return true
	}
	return isByte(src, t, ')') || isByte(src, t, ']') || isByte(src, t, '>') || isByte(src, t, '!')
}

// rustMatchArms writes every match arm one way: no comma between arms
// (commas inside a match's braces separate arms, and an arm that ends
// with a block needs none), and no block around an arm's lone expression
// ("X => { f(x) }" is "X => f(x),", as rustfmt writes it either way).
func rustMatchArms(sc *scratch, src []byte, toks []ctok) []ctok {
	var m []int
	var drop []bool
	for i := range toks {
		if !is(src, toks[i], "match") {
			continue
		}
		if m == nil {
			m = sc.brackets(src, toks)
		}
		// The arms' braces: the first "{" after the scrutinee, outside
		// its brackets (a struct literal there needs parentheses).
		o := -1
		for k := i + 1; k < len(toks); k++ {
			if isByte(src, toks[k], '{') {
				o = k
				break
			}
			if j := m[k]; j > k {
				k = j
				continue
			}
			if toks[k].kind == cVerbatim && isByte(src, toks[k], ';') {
				break
			}
		}
		if o < 0 || m[o] < 0 {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		for k := o + 1; k < m[o]; k++ {
			if j := m[k]; j > k {
				k = j
				continue
			}
			switch {
			case isByte(src, toks[k], ','):
				drop[k] = true
			case is(src, toks[k], "=>") && k+1 < m[o] && isByte(src, toks[k+1], '{') && rustLoneExpr(src, toks, k+1, m):
				drop[k+1], drop[m[k+1]] = true, true
			}
		}
	}
	return compact(toks, drop)
}

// rustLoneExpr reports whether the block toks[open..m[open]] holds one
// expression: something, no statement (no ";", no "let", no item), and
// no block-like expression followed by more.
func rustLoneExpr(src []byte, toks []ctok, open int, m []int) bool {
	c := m[open]
	if c < 0 || c == open+1 {
		return false
	}
	if t := toks[open+1]; t.kind == cVerbatim {
		switch text(src, t) {
		case "let", "fn", "struct", "enum", "impl", "trait", "use", "mod", "static", "const", "type", "#", "extern", "macro_rules":
			return false
		}
	}
	for k := open + 1; k < c; k++ {
		t := toks[k]
		if j := m[k]; j > k {
			if isByte(src, t, '{') && j+1 < c {
				switch n := toks[j+1]; {
				case isByte(src, n, '.'), isByte(src, n, '?'), is(src, n, "else"), is(src, n, "as"):
				default:
					if n.kind != cVerbatim || isIdentByte(src[n.start]) || isOpener(src, n) {
						return false
					}
				}
			}
			k = j
			continue
		}
		if isByte(src, t, ';') || is(src, t, "let") {
			return false
		}
	}
	return true
}

// rustClosureBodies writes a closure whose body is a block around a lone
// expression without the block ("|a| { f(a) }" is "|a| f(a)"), as rustfmt
// writes it either way; a closure with a return type keeps its block.
func rustClosureBodies(sc *scratch, src []byte, toks []ctok) []ctok {
	var m []int
	var drop []bool
	for i := range toks {
		if !rustClosureOpens(src, toks, i) {
			continue
		}
		if m == nil {
			m = sc.brackets(src, toks)
		}
		end := rustClosureBar(src, toks, i, m)
		if end < 0 || end+1 >= len(toks) || !isByte(src, toks[end+1], '{') || !rustLoneExpr(src, toks, end+1, m) {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[end+1], drop[m[end+1]] = true, true
	}
	return compact(toks, drop)
}

// rustClosureOpens reports whether toks[i] is the "|" (or "||", no
// parameters) that opens a closure: not after an operand, where it is a
// binary or ("move |x|" is a closure).
func rustClosureOpens(src []byte, toks []ctok, i int) bool {
	if !isByte(src, toks[i], '|') && !is(src, toks[i], "||") {
		return false
	}
	return i == 0 || !rustEndsOperand(src, toks[i-1]) || is(src, toks[i-1], "move")
}

// rustClosureBar returns the index of the bar that closes the parameters
// of the closure whose "|" (or "||", no parameters) is toks[i], or -1 when
// none does (see rustClosureOpens).
func rustClosureBar(src []byte, toks []ctok, i int, m []int) int {
	if is(src, toks[i], "||") {
		return i
	}
	for k := i + 1; k < len(toks); k++ {
		if j := m[k]; j > k {
			k = j
			continue
		}
		if isCloser(src, toks[k]) {
			return -1
		}
		if isByte(src, toks[k], '|') {
			return k
		}
	}
	return -1
}
