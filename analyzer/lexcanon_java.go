package analyzer

import "slices"

// Java in the canonical stream: C's rules (the lexer's tokens, numbers by
// value, trailing commas), and what prettier's Java plugin and
// google-java-format rewrite without changing what the code does:
//   - the parentheses that only group a whole expression or restate
//     precedence, which prettier's plugin adds and removes as it breaks
//     lines ("return (\n\ta && b\n)", "(a * b) - c", "f(a, (b = c))",
//     "(x) -> y"), read by the rules of JavaScript's stream
//     (dropArrowParamParens, dropWholeExprParens, dropPrecedenceParens)
//     with Java's words;
//   - string literals joined by +, one literal (google-java-format splits
//     a long one: "a b" becomes "a" + " b");
//   - modifiers, in one order ("static abstract" is "abstract static");
//   - an array declarator's brackets, after its type ("byte b[]" is
//     "byte[] b");
//   - a declaration of several variables, one declaration each ("K a,
//     b;" is "K a; K b;"), as Checkstyle's MultipleVariableDeclarations
//     asks and IDEs split them;
//   - a try-with-resources declaration's "final", which it has without
//     one (Checkstyle's RedundantModifier removes it);
//   - ";" a statement separator, left out at either end of a range like
//     every language's and before "}", and an enum's constants without a
//     trailing comma before it: prettier writes "A, B,\n;" as "A, B;",
//     and "A, B; }" as "A, B }".

var javaSyntax = &exprSyntax{casts: true,
	notOperand: set("new", "instanceof", "return", "throw", "case", "else", "do", "extends", "implements", "assert", "yield"),
	startWords: set("return", "throw", "case", "assert", "yield"),
	stops:      set(",", "?", "->", ":", ";", "::", "switch"),
}

// javaOps are Java's operators of more than one byte but those that start
// with '>', which stays alone as in JavaScript's stream (jsPunctLen):
// "List<List<T>>" closes two lists.
var javaOps = []string{"<<=", "->", "::", "==", "!=", "<=", "&&", "||", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<"}

// canonJava returns the canonical stream of Java source. The lexer writes
// punctuation a byte a token, and so do shapes: the parenthesis rules read
// a view with Java's operators put together, and the parentheses they drop
// there are dropped from the stream.
func canonJava(sc *scratch, src []byte, spans []span, out []ctok) []ctok {
	toks := resourcesFinal(src, javaSemicolons(src, joinStrings(src, canonC(sc, src, spans, out))))
	sortModifiers(src, toks)
	toks = dropUnusedJavaImports(src, toks)
	sortJavaImports(src, toks)
	toks = splitDeclarators(sc, src, toks)
	arrayTypesFirst(src, toks)
	if !parenAfter(src, toks, func(ctok) bool { return true }) {
		return toks
	}
	view := javaOperators(src, toks)
	n := len(view)
	kept := dropArrowParamParens(src, view, "->")
	kept = dropPrecedenceParens(sc, src, dropWholeExprParens(sc, src, kept, javaSyntax), javaSyntax)
	if len(kept) == n {
		return toks
	}
	// Parentheses are never reordered (sortModifiers, arrayTypesFirst move
	// names and brackets): those kept are in order in both.
	paren := func(t ctok) bool { return isByte(src, t, '(') || isByte(src, t, ')') }
	drop := make([]bool, len(toks))
	j := 0
	for i, t := range toks {
		if !paren(t) {
			continue
		}
		for j < len(kept) && !paren(kept[j]) {
			j++
		}
		if j < len(kept) && kept[j].start == t.start {
			j++
			continue
		}
		drop[i] = true
	}
	return compact(toks, drop)
}

// javaOperators returns a copy of toks with each operator of javaOps, as
// the lexer writes it (a byte a token, nothing between), in one token.
func javaOperators(src []byte, toks []ctok) []ctok {
	view := make([]ctok, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == cVerbatim && t.end-t.start == 1 && src[t.start] != '>' {
			n := longestOp(src, int(t.start), javaOps)
			if last := i + n - 1; n > 1 && last < len(toks) && toks[last].start == t.start+int32(n-1) && toks[last].end == t.start+int32(n) {
				t.end = toks[last].end
				i = last
			}
		}
		view = append(view, t)
	}
	return view
}

// joinStrings writes a run of string literals joined by + ("a" + "b",
// nothing but blanks around each +) as one cJoined token, which spells
// the literal they make: Java joins them when it compiles. A literal
// followed by "." (a method's receiver) or ending in an octal escape
// before a digit ("\1" + "2" is not "\12") ends a run, and one after ")"
// (a cast's operand) starts none.
func joinStrings(src []byte, toks []ctok) []ctok {
	return joinLiterals(toks, cJoined,
		func(i int) bool { return javaString(src, toks[i]) && (i == 0 || !isByte(src, toks[i-1], ')')) },
		func(j int) (int, bool) {
			k := j + 2
			return k, k < len(toks) && isByte(src, toks[j+1], '+') && javaString(src, toks[k]) &&
				spacing(src[toks[j].end:toks[j+1].start]) && spacing(src[toks[j+1].end:toks[k].start]) &&
				!octalEnd(src[toks[j].start+1:toks[j].end-1], src[toks[k].start+1]) &&
				(k+1 == len(toks) || !isByte(src, toks[k+1], '.'))
		})
}

// javaString reports a string literal ("…", not a text block) as the
// lexer writes it.
func javaString(src []byte, t ctok) bool {
	b := src[t.start:t.end]
	return cString(src, t) && !(len(b) >= 6 && b[1] == '"' && b[2] == '"')
}

// octalEnd reports whether the content of a literal ends with an octal
// escape that next, the first byte of the following literal's content,
// would continue.
func octalEnd(content []byte, next byte) bool {
	if next < '0' || next > '7' {
		return false
	}
	i := len(content)
	for i > 0 && len(content)-i < 3 && content[i-1] >= '0' && content[i-1] <= '7' {
		i--
	}
	return i < len(content) && i > 0 && content[i-1] == '\\' && unescaped(content, i-1)
}

// appendJoined appends the literal that the literals of b, joined by +,
// make: their contents between one pair of quotes.
func appendJoined(buf, b []byte) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				j++
			}
			j++
		}
		buf = append(buf, b[i+1:min(j, len(b))]...)
		i = j
	}
	return append(buf, '"')
}

// sortJavaImports puts each run of two or more import declarations in
// the order of their canonical text: google-java-format and prettier's
// Java plugin sort them (static ones first, in a block of their own), and
// their order means nothing to the compiler. Anything else between two
// (a class) ends a run.
func sortJavaImports(src []byte, toks []ctok) {
	// decl returns the end of the import declaration at toks[i] (past its
	// ";"), or 0.
	decl := func(i int) int {
		if i >= len(toks) || !is(src, toks[i], "import") {
			return 0
		}
		for k := i + 1; k < len(toks); k++ {
			switch t := toks[k]; {
			case t.kind == cSemi || isByte(src, t, ';'):
				return k + 1
			case t.kind != cVerbatim || !(isIdentByte(src[t.start]) || isByte(src, t, '.') || isByte(src, t, '*')):
				return 0
			}
		}
		return 0
	}
	eachRun(len(toks), decl, func(segs [][2]int, to int) {
		sortSegments(src, toks, segs[0][0], to, segs)
	})
}

// dropUnusedJavaImports leaves out each single import (not "*") of a name
// the file's code never uses, or of a type of the file's own package:
// google-java-format removes them, and such an import changes nothing.
// One used only in a comment (a Javadoc link), which the formatter keeps,
// is left out as well.
func dropUnusedJavaImports(src []byte, toks []ctok) []ctok {
	ident := func(t ctok) bool { return t.kind == cVerbatim && isIdentByte(src[t.start]) && !isDigit(src[t.start]) }
	semi := func(t ctok) bool { return t.kind == cSemi || isByte(src, t, ';') }
	// spell returns the text of toks[from:to], blanks left out.
	spell := func(from, to int) string {
		var b []byte
		for _, t := range toks[from:to] {
			b = append(b, src[t.start:t.end]...)
		}
		return string(b)
	}
	// The package and import declarations come first in a file.
	type imp struct{ from, to, name int }
	var imps []imp
	pkg := ""
	i := 0
	for i < len(toks) && (is(src, toks[i], "package") || is(src, toks[i], "import")) {
		k := i + 1
		for k < len(toks) && !semi(toks[k]) {
			k++
		}
		if is(src, toks[i], "package") {
			pkg = spell(i+1, k)
		} else if k < len(toks) && k-1 > i && ident(toks[k-1]) {
			imps = append(imps, imp{i, k + 1, k - 1})
		}
		i = k + 1
	}
	if len(imps) == 0 {
		return toks
	}
	name := func(m imp) []byte { return src[toks[m.name].start:toks[m.name].end] }
	names := make(map[string]int, len(imps)) // an imported name: its index in used
	for _, m := range imps {
		if _, ok := names[string(name(m))]; !ok {
			names[string(name(m))] = len(names)
		}
	}
	used := make([]bool, len(names))
	for _, t := range toks[min(i, len(toks)):] {
		if ident(t) {
			if k, ok := names[string(src[t.start:t.end])]; ok {
				used[k] = true
			}
		}
	}
	var drop dropMask
	for _, m := range imps {
		own := pkg != "" && m.name-1 > m.from+1 && !is(src, toks[m.from+1], "static") && spell(m.from+1, m.name-1) == pkg
		if own || !used[names[string(name(m))]] {
			for k := m.from; k < m.to; k++ {
				drop.mark(k, len(toks))
			}
		}
	}
	return compact(toks, drop)
}

// javaModifiers ranks Java's modifiers in the order the language
// specification recommends, which both formatters write.
var javaModifiers = map[string]int{"public": 1, "protected": 2, "private": 3, "abstract": 4, "static": 5,
	"final": 6, "sealed": 7, "transient": 8, "volatile": 9, "synchronized": 10, "native": 11, "strictfp": 12, "default": 13}

// sortModifiers puts each run of modifiers in javaModifiers' order: their
// order means nothing.
func sortModifiers(src []byte, toks []ctok) {
	sortRuns(toks, func(t ctok) int {
		if t.kind != cVerbatim || !isIdentByte(src[t.start]) {
			return 0
		}
		return javaModifiers[string(src[t.start:t.end])]
	})
}

// sortRuns sorts each run of tokens that rank above 0 by their rank.
// Tokens take the positions of the places they move to, so the stream
// stays ordered by position.
func sortRuns(toks []ctok, rank func(ctok) int) {
	byRank := func(a, b ctok) int { return rank(a) - rank(b) }
	for i := 0; i < len(toks); {
		j := i
		for j < len(toks) && rank(toks[j]) > 0 {
			j++
		}
		if run := toks[i:j]; len(run) > 1 && !slices.IsSortedFunc(run, byRank) {
			pos := make([]int32, len(run))
			for k := range run {
				pos[k] = run[k].pos
			}
			slices.SortStableFunc(run, byRank)
			for k := range run {
				run[k].pos = pos[k]
			}
		}
		i = max(j, i+1)
	}
}

// arrayTypesFirst writes a declarator's brackets after its type: "byte
// b[]" as "byte[] b", "int[] a[]" as "int[][] a". A declarator is a name
// after a type's end (a name but new, ">" or "]") followed by empty
// brackets. Tokens take the positions of the places they move to.
func arrayTypesFirst(src []byte, toks []ctok) {
	name := func(t ctok) bool { return t.kind == cVerbatim && isIdentByte(src[t.start]) && !isDigit(src[t.start]) }
	for i := 1; i+2 < len(toks); i++ {
		p := toks[i-1]
		typeEnd := (name(p) && !is(src, p, "new")) || isByte(src, p, '>') || isByte(src, p, ']')
		if !typeEnd || !name(toks[i]) || !isByte(src, toks[i+1], '[') || !isByte(src, toks[i+2], ']') {
			continue
		}
		j := i + 3 // after the brackets
		for j+1 < len(toks) && isByte(src, toks[j], '[') && isByte(src, toks[j+1], ']') {
			j += 2
		}
		n := toks[i]
		for k := i; k < j-1; k++ {
			pos := toks[k].pos
			toks[k] = toks[k+1]
			toks[k].pos = pos
		}
		n.pos = toks[j-1].pos
		toks[j-1] = n
		i = j - 1
	}
}

// javaSemicolons marks each ";" a statement separator (cSemi), drops a
// comma right before one (the trailing comma of an enum's constants), one
// right before "}" (the end of an enum's constants with nothing after
// them; anywhere else, Java needs it) and one right after "}" (an empty
// declaration after a member's body, which prettier's Java plugin
// removes; after an initializer's or an anonymous class's "}" Java needs
// it, so no two programs differ only there).
func javaSemicolons(src []byte, toks []ctok) []ctok {
	var drop dropMask
	for i, t := range toks {
		if !isByte(src, t, ';') {
			continue
		}
		toks[i].kind = cSemi
		if i > 0 && isByte(src, toks[i-1], ',') {
			drop.mark(i-1, len(toks))
		}
		if i+1 < len(toks) && isByte(src, toks[i+1], '}') || i > 0 && isByte(src, toks[i-1], '}') {
			drop.mark(i, len(toks))
		}
	}
	return compact(toks, drop)
}

// signed reports a sign or an increment, which after a parenthesised
// Java type may be a binary operator.
func signed(src []byte, t ctok) bool {
	return is(src, t, "-") || is(src, t, "+") || is(src, t, "++") || is(src, t, "--")
}

// javaPrimary reports whether a group without a binary operator whose
// first token is t is a Java primary (a name, a literal, a call, new),
// not a cast or a prefix operation: "." after it binds to all of it.
func javaPrimary(src []byte, t ctok) bool {
	return !isByte(src, t, '(') && !prefixOp(src, t, javaSyntax)
}

// primitiveType reports whether toks spell a Java primitive type or an
// array of one.
func primitiveType(src []byte, toks []ctok) bool {
	if len(toks) == 0 {
		return false
	}
	switch text(src, toks[0]) {
	case "boolean", "byte", "char", "short", "int", "long", "float", "double":
	default:
		return false
	}
	for k := 1; k < len(toks); k++ {
		if !is(src, toks[k], "[") && !is(src, toks[k], "]") {
			return false
		}
	}
	return true
}

// resourcesFinal drops "final" from the declarations of a
// try-with-resources statement's resources ("try (final InputStream in =
// open())"): the language makes them final either way, and javac's
// parser reads both as one tree.
func resourcesFinal(src []byte, toks []ctok) []ctok {
	var drop dropMask
	var m []int
	for i := 0; i+1 < len(toks); i++ {
		if !is(src, toks[i], "try") || !isByte(src, toks[i+1], '(') {
			continue
		}
		if m == nil {
			m = matchBrackets(src, toks, nil)
		}
		end := m[i+1]
		if end < 0 {
			continue
		}
		start := true // at the start of a resource
		for k := i + 2; k < end; k++ {
			switch t := toks[k]; {
			case t.kind == cSemi:
				start = true
			case start && is(src, t, "final"):
				drop.mark(k, len(toks))
			case start && isByte(src, t, '@'):
				// an annotation, which may come before final
				if k+2 < end && isByte(src, toks[k+2], '(') && m[k+2] > 0 {
					k = m[k+2]
				} else {
					k++
				}
			default:
				if m[k] > k {
					k = m[k]
				}
				start = false
			}
		}
	}
	return compact(toks, drop)
}

// javaKeywords are the words that start a statement or an expression,
// never a declaration's type or name.
var javaKeywords = set("return", "throw", "new", "case", "default", "assert", "yield", "break", "continue",
	"if", "else", "for", "while", "do", "switch", "try", "catch", "finally", "synchronized", "this", "super",
	"class", "interface", "enum", "record", "package", "import", "instanceof", "true", "false", "null")

// splitDeclarators writes a declaration of several fields or local
// variables as one declaration each: "K a, b;" is "K a; K b;" and
// "@Ann static int a = 1, b[];" is "@Ann static int a = 1; @Ann static int
// b[];" (arrayTypesFirst, after it, moves the brackets). javac reads both
// as the same declarations. A declaration starts a statement (after ";",
// "{" or "}"); its head is its annotations, modifiers and type, copied
// after each comma that parts two declarators, which becomes a ";". Java
// has no comma operator, so a statement of a type, a name and a comma is
// a declaration; an initialiser holding "<" outside brackets (a
// comparison, or type arguments) is left alone, its commas unreadable.
func splitDeclarators(sc *scratch, src []byte, toks []ctok) []ctok {
	if sc == nil {
		sc = &scratch{}
	}
	d := declReader{src: src, toks: toks}
	ins := sc.ins[:0]
	for i := range toks {
		if i > 0 && toks[i-1].kind != cSemi && !isByte(src, toks[i-1], '{') && !isByte(src, toks[i-1], '}') {
			continue
		}
		if d.m == nil {
			d.m = matchBrackets(src, toks, nil)
		}
		head, ok := d.head(i)
		if !ok {
			continue
		}
		commas, ok := d.commas(head)
		if !ok {
			continue
		}
		for _, c := range commas {
			toks[c].kind = cSemi
			ins = append(ins, goInsert{at: c, from: i, to: head})
		}
	}
	sc.ins = ins
	if len(ins) == 0 {
		return toks
	}
	return goInsertAll(sc, toks, ins, nil)
}

// declReader reads declarations from a Java stream; m matches its
// brackets.
type declReader struct {
	src  []byte
	toks []ctok
	m    []int
}

func (d declReader) is(k int, c byte) bool { return k < len(d.toks) && isByte(d.src, d.toks[k], c) }

// name reports an identifier that is not a keyword.
func (d declReader) name(k int) bool {
	if k >= len(d.toks) {
		return false
	}
	t := d.toks[k]
	return t.kind == cVerbatim && isIdentByte(d.src[t.start]) && !isDigit(d.src[t.start]) && !javaKeywords[text(d.src, t)]
}

// head returns the end of the head of a declaration starting at toks[i]
// (its annotations, modifiers and type), where its first declarator's
// name is.
func (d declReader) head(i int) (int, bool) {
	k := i
	for {
		if d.is(k, '@') && d.name(k+1) {
			k += 2
			for d.is(k, '.') && d.name(k+1) {
				k += 2
			}
			if d.is(k, '(') {
				if d.m[k] < 0 {
					return 0, false
				}
				k = d.m[k] + 1
			}
			continue
		}
		if k < len(d.toks) && d.toks[k].kind == cVerbatim && javaModifiers[text(d.src, d.toks[k])] > 0 {
			k++
			continue
		}
		break
	}
	if !d.name(k) {
		return 0, false
	}
	for k++; ; {
		switch {
		case d.is(k, '.') && d.name(k+1):
			k += 2
		case d.is(k, '<'):
			end, ok := d.typeArgs(k)
			if !ok {
				return 0, false
			}
			k = end
		case d.is(k, '[') && d.is(k+1, ']'):
			k += 2
		default:
			return k, d.name(k)
		}
	}
}

// typeArgs returns the end of the type arguments opening at toks[k]:
// names, ".", ",", "?", "&", "extends", "super", brackets and nested
// arguments only.
func (d declReader) typeArgs(k int) (int, bool) {
	depth := 0
	for ; k < len(d.toks); k++ {
		switch {
		case d.is(k, '<'):
			depth++
		case d.is(k, '>'):
			if depth--; depth == 0 {
				return k + 1, true
			}
		case d.is(k, ',') || d.is(k, '.') || d.is(k, '?') || d.is(k, '&') || d.is(k, '[') || d.is(k, ']') || d.name(k) ||
			is(d.src, d.toks[k], "extends") || is(d.src, d.toks[k], "super"):
		default:
			return 0, false
		}
	}
	return 0, false
}

// commas returns the commas that part the declarators starting at
// toks[k], a name: each a name, empty brackets, and an initialiser after
// "="; the last ended by ";" (or by the "}" it came before, as the
// stream drops such a ";"). ok is false for anything else.
func (d declReader) commas(k int) (commas []int, ok bool) {
	for {
		k++ // the name
		for d.is(k, '[') && d.is(k+1, ']') {
			k += 2
		}
		if d.is(k, '=') {
			for k++; k < len(d.toks) && !d.is(k, ',') && !d.is(k, '}') && d.toks[k].kind != cSemi; k++ {
				switch {
				case d.is(k, '(') || d.is(k, '[') || d.is(k, '{'):
					if d.m[k] < 0 {
						return nil, false
					}
					k = d.m[k]
				case d.is(k, ')') || d.is(k, ']') || d.is(k, '<'):
					return nil, false
				}
			}
		}
		switch {
		case k < len(d.toks) && d.toks[k].kind == cSemi, d.is(k, '}'): // a ";" before "}" is dropped
			return commas, len(commas) > 0
		case d.is(k, ',') && d.name(k+1):
			commas = append(commas, k)
			k++
		default:
			return nil, false
		}
	}
}
