package analyzer

import (
	"bytes"
	"slices"
	"unicode"
	"unicode/utf8"
)

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
func canonJS(sc *scratch, src []byte, out []ctok, tsx bool) []ctok {
	toks := lexJS(src)
	toks = jsSemicolons(src, toks)
	cs := out
	for _, t := range toks {
		cs = append(cs, t.ctok)
	}
	cs = dropTrailingCommas(sc, src, cs, func(comma int, match []int) bool {
		// "[a,,]" has a hole: the comma after a comma (or an opening
		// bracket) is an element, not a trailing comma.
		return comma > 0 && (isByte(src, cs[comma-1], ',') || isOpener(src, cs[comma-1]))
	})
	unquoteKeys(src, cs)
	cs = dropJSTypeArgCommas(src, cs)
	cs = dropNewParens(sc, src, cs)
	cs = dropDoubleParens(sc, src, cs, nil)
	cs = dropArrowParamParens(src, cs, "=>")
	cs = dropWholeExprParens(sc, src, cs, jsSyntax)
	cs = dropStatementParens(sc, src, cs)
	cs = dropUnionMemberParens(sc, src, cs)
	cs = dropPrecedenceParens(sc, src, cs, jsSyntax)
	cs = dropTSTypeParens(sc, src, cs)
	return dropIIFEParens(sc, src, cs)
}

// dropTSTypeParens drops TypeScript parentheses that prettier writes in
// one version and not another: around a type query before an indexed
// access (see typeQuery); and two kinds that prettier 2.3 removed. One is
// around a type assertion asserted again, "(x as any) as T" being "x as
// any as T" (an assertion binds to its left as "<" does), where the group
// starts an expression or follows an operator that binds less tightly,
// and holds no operator but the assertion's own and those that bind more
// tightly (see assertedGroup). The other is around the whole type a
// conditional type tests against, "T extends ((k: infer I) => void) ? I
// : never" being "T extends (k: infer I) => void ? I : never": that type
// cannot be a conditional one without its group, so a function type's
// result ends before the "?"; the group must hold no "?" and not begin
// with infer.
func dropTSTypeParens(sc *scratch, src []byte, toks []ctok) []ctok {
	var match []int
	var drop []bool
	for o := 1; o+1 < len(toks); o++ {
		if !isByte(src, toks[o], '(') {
			continue
		}
		if match == nil {
			match = sc.brackets(src, toks)
		}
		c := match[o]
		if c < 0 || c == o+1 || c+1 == len(toks) {
			continue
		}
		n := toks[c+1]
		switch {
		case is(src, toks[o-1], "extends") && isByte(src, n, '?'):
			if is(src, toks[o+1], "infer") || topHas(toks, o, c, match, func(t ctok) bool { return isByte(src, t, '?') }) {
				continue
			}
		case isByte(src, n, '[') && typeQuery(src, toks, o, c):
		case is(src, n, "as") || is(src, n, "satisfies"):
			if !assertedGroup(src, toks, o, c, match) {
				continue
			}
			if pl, k := jsBinaryOpBefore(src, toks, o, jsSyntax); !(k > 0 && pl < 8) && (k > 0 || !jsExprStart(src, toks, o-1, jsSyntax)) {
				continue
			}
		default:
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[o], drop[c] = true, true
	}
	return compact(toks, drop)
}

// typeQuery reports whether the group toks[o..c] is a type query of a
// name, "(typeof a.b)", before an index only a type has, "[number]" or
// "[keyof …]": an indexed access takes the query whole in a type, so
// "(typeof groups)[number]" is "typeof groups[number]" (prettier 2.8
// writes the group). In an expression "(typeof a)[0]" indexes the name of
// a type, and "typeof a[0]" is another thing.
func typeQuery(src []byte, toks []ctok, o, c int) bool {
	if c-o < 3 || c+3 >= len(toks) || !is(src, toks[o+1], "typeof") ||
		!(is(src, toks[c+2], "number") && isByte(src, toks[c+3], ']') || is(src, toks[c+2], "keyof")) {
		return false
	}
	// typeof, then names and dots in turn: a name, ".", a name, …
	for k := o + 2; k < c; k++ {
		if name := (k-o)%2 == 0; name && (toks[k].kind != cVerbatim || !isIdentByte(src[toks[k].start])) || !name && !isByte(src, toks[k], '.') {
			return false
		}
	}
	return (c-o)%2 == 1
}

// assertedGroup reports whether the group toks[o..c] is a type assertion
// ("x as T", "f(a).b satisfies T<K, V>"): an "as" or "satisfies" at its
// top, and before it no operator but those that bind more tightly than
// "<" (after it is the type, which ends at the group's end).
func assertedGroup(src []byte, toks []ctok, o, c int, match []int) bool {
	for k := o + 1; k < c; k++ {
		if m := match[k]; m > k {
			k = m
			continue
		}
		t := toks[k]
		switch {
		case is(src, t, "as") || is(src, t, "satisfies"):
			return k > o+1
		case has(jsSyntax.stops, src, t), k == o+1 && prefixOp(src, t, jsSyntax):
			return false
		case k == o+1 || !jsOperandEnd(src, toks[k-1], jsSyntax):
			continue
		}
		if p, n := jsBinaryOp(src, toks, k); p < 0 || n > 0 && p <= 8 {
			return false
		}
	}
	return false
}

// exprSyntax is what the parenthesis rules (dropWholeExprParens,
// dropPrecedenceParens) read of a language's expressions, written with
// JavaScript's punctuators ('>' alone, see jsPunctLen): JavaScript's and
// TypeScript's, or Java's (javaSyntax).
type exprSyntax struct {
	// asi: a name or literal after an expression may begin the next
	// statement (automatic semicolons). In Java only ";" ends one.
	asi bool
	// casts: a parenthesised type before an operand casts it, and type
	// arguments stand in expressions (Java): a name after a group is a
	// cast's operand, a comma in a group may be a type argument's, and a
	// group of no binary operator is a primary or a cast.
	casts bool
	// typed: TypeScript's "as" and "satisfies" follow an expression.
	typed bool
	// looser: the words of operators that bind looser than an
	// assignment (PHP's and, or, xor): a group holding one is never the
	// whole right side of an assignment.
	looser map[string]bool
	// notOperand are the words that cannot end an operand, startWords
	// those after which an expression starts, stops those that make a
	// group something the precedence rule leaves alone, prefix the
	// operators spelt as words that bind as "!" does.
	notOperand, startWords, stops, prefix map[string]bool
}

var jsSyntax = &exprSyntax{asi: true, typed: true,
	notOperand: set("typeof", "void", "delete", "await", "new", "in", "instanceof", "of", "return", "throw", "case",
		"yield", "else", "do", "extends", "keyof", "as", "satisfies"),
	startWords: set("return", "throw", "case", "of"),
	stops:      set(",", "?", "=>", "...", "as", "satisfies", "in", "yield", "function", "class", ":", ";"),
	prefix:     set("typeof", "void", "delete", "await"),
}

// jsTypeOps are TypeScript's type operators spelt as words, which bind
// less tightly than an array's "[]".
var jsTypeOps = set("keyof", "readonly", "unique", "infer", "asserts")

// has reports whether t is one of the words of m.
func has(m map[string]bool, src []byte, t ctok) bool {
	return t.kind == cVerbatim && m[string(src[t.start:t.end])]
}

// lexJS splits src into tokens, comments left out.
func lexJS(src []byte) []jtok {
	toks := make([]jtok, 0, len(src)/5)
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
		if c >= utf8.RuneSelf {
			if w := jsSpace(src[i:]); w > 0 {
				i += w // a no-break space and the others JavaScript reads as blanks
				continue
			}
		}
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
		case c == '`', c == '}' && len(braces) > 0 && braces[len(braces)-1]:
			if c == '}' { // a substitution ends: the template goes on
				braces = braces[:len(braces)-1]
			}
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
				add(i, j, cRegexp, jLiteral)
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

// jsSpace returns the length of the blank beyond ASCII that b starts
// with, 0 for none: a space separator (U+00A0 among them) or the byte
// order mark. (The line terminators U+2028 and U+2029 stay tokens.)
func jsSpace(b []byte) int {
	r, size := utf8.DecodeRune(b)
	if unicode.Is(unicode.Zs, r) || r == '\ufeff' {
		return size
	}
	return 0
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

// jsNumberEnd returns the end of the number literal at src[i], a BigInt's
// "n" included.
func jsNumberEnd(src []byte, i int) int {
	j := numberEnd(src, i, anyPoint)
	if j < len(src) && src[j] == 'n' {
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

// dropNewParens writes "new X()" as "new X" (prettier writes the empty
// arguments): X a name, a dotted path or a parenthesised expression, and
// nothing after the arguments that would bind to them rather than to the
// new object's ("new X().y" is not "new X.y", nor "new X()[0]" "new
// X[0]", nor "new X()()" "new X()").
func dropNewParens(sc *scratch, src []byte, toks []ctok) []ctok {
	var drop dropMask
	var match []int
	for i := 0; i+2 < len(toks); i++ {
		if !is(src, toks[i], "new") || (i > 0 && (isByte(src, toks[i-1], '.') || is(src, toks[i-1], "?."))) {
			continue
		}
		k := i + 1 // the constructor's last token
		switch {
		case isByte(src, toks[k], '('):
			if match == nil {
				match = sc.brackets(src, toks)
			}
			if k = match[k]; k < 0 {
				continue
			}
		case toks[k].kind == cVerbatim && isIdentByte(src[toks[k].start]) && !isDigit(src[toks[k].start]):
			for k+2 < len(toks) && isByte(src, toks[k+1], '.') && toks[k+2].kind == cVerbatim && isIdentByte(src[toks[k+2].start]) {
				k += 2
			}
		default:
			continue
		}
		if k+2 >= len(toks) || !isByte(src, toks[k+1], '(') || !isByte(src, toks[k+2], ')') {
			continue
		}
		if k+3 < len(toks) {
			n := toks[k+3]
			if isByte(src, n, '.') || is(src, n, "?.") || isByte(src, n, '[') || isByte(src, n, '(') ||
				(n.kind == cVerbatim && src[n.start] == '`') {
				continue
			}
		}
		drop.mark(k+1, len(toks))
		drop.mark(k+2, len(toks))
	}
	return compact(toks, drop)
}

// dropIIFEParens writes "x = (function () {…})()" as "x = function ()
// {…}()" (prettier wraps a function expression called where it is
// written): the group holds one function expression, a call follows,
// and an expression starts before it (at a statement's start the
// function would be a declaration).
func dropIIFEParens(sc *scratch, src []byte, toks []ctok) []ctok {
	var drop dropMask
	var match []int
	for o := 1; o+1 < len(toks); o++ {
		if !isByte(src, toks[o], '(') || !is(src, toks[o+1], "function") {
			continue
		}
		p := toks[o-1]
		if p.kind == cSemi || isByte(src, p, ';') || !jsExprStart(src, toks, o-1, jsSyntax) {
			continue
		}
		if match == nil {
			match = sc.brackets(src, toks)
		}
		if isByte(src, p, ':') && !propertyValue(src, toks, o-1, match) {
			continue // a label's or a case's: a statement starts
		}
		c := match[o]
		if c < 0 || c+1 >= len(toks) || !isByte(src, toks[c+1], '(') || !isByte(src, toks[c-1], '}') {
			continue
		}
		// the body's "{" is the first brace at the group's top level
		body := -1
		for k := o + 2; k < c; k++ {
			if isByte(src, toks[k], '{') {
				body = k
				break
			}
			if m := match[k]; m > k {
				k = m
			}
		}
		if body < 0 || match[body] != c-1 {
			continue
		}
		drop.mark(o, len(toks))
		drop.mark(c, len(toks))
	}
	return compact(toks, drop)
}

// propertyValue reports whether the ":" at toks[k] is a property's of an
// object literal, not a label's or a case's, after which a statement
// starts: a key after a "," whose list opens with "{" ("{a: 1, b: …"),
// with no case before it. The first property is left alone: "{a: …" may
// be a block and its label.
func propertyValue(src []byte, toks []ctok, k int, match []int) bool {
	if k < 3 || !isByte(src, toks[k-2], ',') {
		return false
	}
	if key := toks[k-1]; key.kind != cQuoted && key.kind != cNumber && key.kind != cKey && !(key.kind == cVerbatim && isIdentByte(src[key.start])) {
		return false
	}
	for j := k - 3; j >= 0; j-- {
		if m := match[j]; m >= 0 && m < j {
			j = m
			continue
		}
		t := toks[j]
		switch {
		case isByte(src, t, '{'):
			return true
		case isOpener(src, t), t.kind == cSemi, isByte(src, t, ';'), is(src, t, "case"), isByte(src, t, '?'):
			return false
		}
	}
	return false
}

// unquoteKeys marks the quoted keys of object literals and type members
// that need no quotes, a name or a decimal integer ({"delete": f, "0":
// x}), as their content (cKey): prettier's quoteProps writes them bare
// when all can be. The key is "{" or "," before, ":" after, or an
// optional member's "?:" after (no expression reads so); a content with a
// backslash is left as written.
func unquoteKeys(src []byte, toks []ctok) {
	for i := 1; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != cQuoted || t.end-t.start < 2 || src[t.end-1] != src[t.start] {
			continue
		}
		optional := isByte(src, toks[i+1], '?') && i+2 < len(toks) && isByte(src, toks[i+2], ':')
		if !optional && (!isByte(src, toks[i+1], ':') || !(isByte(src, toks[i-1], '{') || isByte(src, toks[i-1], ','))) {
			continue
		}
		if b := src[t.start+1 : t.end-1]; bareKey(b) {
			toks[i].kind = cKey
		}
	}
}

// bareKey reports an identifier of ASCII letters, digits, "_" and "$", or
// a decimal integer without leading zeros.
func bareKey(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if isDigit(b[0]) {
		if b[0] == '0' && len(b) > 1 {
			return false
		}
		for _, c := range b {
			if !isDigit(c) {
				return false
			}
		}
		return true
	}
	for _, c := range b {
		if !(c == '_' || c == '$' || isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
	}
	return true
}

// appendRegexp appends the regular expression literal b with its flags
// in order ("/a/mg" is "/a/gm", as prettier writes it): their order means
// nothing.
func appendRegexp(buf, b []byte) []byte {
	k := bytes.LastIndexByte(b, '/')
	buf = append(buf, b[:k+1]...)
	n := len(buf)
	buf = append(buf, b[k+1:]...)
	slices.Sort(buf[n:])
	return buf
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
	if i+2 < len(src) && src[i] == '?' && src[i+1] == '.' && isDigit(src[i+2]) {
		return 1 // "a?.5:b" is a conditional
	}
	return longestOp(src, i, []string{"...", "===", "!==", "**=", "<<=", "&&=", "||=", "??=",
		"=>", "==", "!=", "<=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<"})
}

// braceKind says what a bracket group holds.
type braceKind uint8

const (
	kBlock    braceKind = iota // statements: a block, a function body
	kClass                     // a class body
	kType                      // a type literal or interface body
	kObject                    // an object literal (or an enum's members)
	kParen                     // ( … )
	kBracket                   // [ … ]
	kTemplate                  // ${ … }
	kAngle                     // < … > in a type literal
)

// jsOpen is an open bracket of jsSemicolons.
type jsOpen struct {
	kind    braceKind
	head    bool // ( of if, while, for, with, switch, catch: its ) ends no expression
	doBody  bool // { of do … while
	typed   bool // ( in a type, or after | or &: a { right inside it opens a type literal
	inType  bool // ( in a type for certain: a < inside it opens type arguments
	stmtEnd bool // { whose } ends a statement: a block, a declaration's body
	ternary int  // conditional "?" still waiting for their ":"
}

// jsPendingBody is a declaration whose body's brace is still to come.
type jsPendingBody struct {
	word      string // function, class, interface, enum, namespace, module
	depth     int    // the bracket depth it was met at
	stmtStart bool   // it begins a statement (not an expression)
}

// jsSemicolons writes statement ends one way whether or not semicolons
// are written (docs/fingerprints.md): a semicolon that automatic
// semicolon insertion would put there anyway is dropped, one that it
// would not (the next line begins with "(", "[", "`", "+", "-", "/"…) is
// kept, one after a block or a declaration's body (an empty statement)
// is dropped, the line breaks that insertion reads (after return, before
// ++) become semicolons, and the separators of type members (";", ","
// or a line break) are dropped.
func jsSemicolons(src []byte, toks []jtok) []jtok {
	stack := []jsOpen{{kind: kBlock, stmtEnd: true}} // the top level, never closed
	headClose := make([]bool, len(toks))
	endsStmt := make([]bool, len(toks)) // a } that closed a stmtEnd brace
	out := make([]jtok, 0, len(toks))
	afterDo := false           // the last token closed a do body
	var pending *jsPendingBody // a declaration waiting for its body
	colonKind := byte(0)       // of the last ":": 't' type, 'c' case or label, 'v' value, '?' conditional
	top := func() *jsOpen { return &stack[len(stack)-1] }
	kindAt := func() braceKind { return top().kind }
	// stmtStart reports whether toks[i] begins a statement.
	var stmtStart func(i int) bool
	stmtStart = func(i int) bool {
		if k := kindAt(); k != kBlock && k != kClass {
			return false
		}
		if i == 0 {
			return true
		}
		p := toks[i-1]
		switch {
		case p.class == jPunct && is(src, p.ctok, ";"), p.class == jPunct && is(src, p.ctok, "}") && endsStmt[i-1],
			p.class == jPunct && is(src, p.ctok, "{"), is(src, p.ctok, ")") && headClose[i-1],
			p.class == jName && (is(src, p.ctok, "else") || is(src, p.ctok, "do")),
			p.class == jPunct && is(src, p.ctok, ":") && colonKind == 'c':
			return true
		case p.class == jName && (is(src, p.ctok, "export") || is(src, p.ctok, "default") || is(src, p.ctok, "declare") ||
			is(src, p.ctok, "async") || is(src, p.ctok, "abstract")):
			return stmtStart(i - 1)
		}
		return toks[i].nl && jsEnds(src, toks, i-1, headClose) && !jsContinues(src, toks[i])
	}
	for i, t := range toks {
		var prev *jtok
		if i > 0 {
			prev = &toks[i-1]
		}
		kind := kindAt()
		atBraceLevel := kind == kBlock || kind == kClass
		if pending != nil && pending.depth == len(stack) && stmtStart(i) && t.class == jName && !is(src, t.ctok, pending.word) &&
			!is(src, t.ctok, "extends") && !is(src, t.ctok, "implements") &&
			!(prev != nil && prev.class == jName && (is(src, prev.ctok, "extends") || is(src, prev.ctok, "implements"))) {
			pending = nil // a declaration without a body ("declare function f(): void"), not a header broken before or in its heritage
		}
		if t.class == jPunct && (is(src, t.ctok, ";") || (kind == kType && is(src, t.ctok, ","))) {
			if pending != nil && pending.depth == len(stack) {
				pending = nil
			}
			if kind == kType {
				continue // a type member separator
			}
			if atBraceLevel {
				var next *jtok // past empty statements
				for j := i + 1; j < len(toks); j++ {
					if !is(src, toks[j].ctok, ";") {
						next = &toks[j]
						break
					}
				}
				switch {
				case next == nil || (next.class == jPunct && src[next.start] == '}'):
					continue // a separator before the block's end
				case prev != nil && is(src, prev.ctok, "{"):
					continue // an empty statement first in a block
				case prev != nil && is(src, prev.ctok, "}") && endsStmt[i-1]:
					continue // an empty statement after a block
				case prev != nil && is(src, prev.ctok, ";"):
					continue // an empty statement after a statement
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
			if jsRestricted(src, toks, i-1, kind == kClass) ||
				(t.class == jPunct && (is(src, t.ctok, "++") || is(src, t.ctok, "--")) && jsEnds(src, toks, i-1, headClose)) {
				out = append(out, jtok{ctok: ctok{pos: t.pos, start: t.pos, end: t.pos, kind: cSemi}})
			}
		}
		if t.class == jPunct && (is(src, t.ctok, "|") || is(src, t.ctok, "&")) && prev != nil &&
			!jsOperandEnd(src, prev.ctok, jsSyntax) && !is(src, prev.ctok, ">") {
			continue // a union's or intersection's leading "|" or "&": no operand before it
		}
		if t.class == jName {
			switch w := text(src, t.ctok); w {
			case "function", "class", "interface", "enum", "namespace", "module":
				if (w != "module" && w != "namespace") || (i+1 < len(toks) && (toks[i+1].class == jName || toks[i+1].class == jLiteral)) {
					if !(prev != nil && (is(src, prev.ctok, ".") || is(src, prev.ctok, "?."))) {
						pending = &jsPendingBody{word: w, depth: len(stack), stmtStart: stmtStart(i)}
					}
				}
			}
		}
		if t.class == jPunct && t.end-t.start == 1 {
			switch src[t.start] {
			case '?':
				// "a?: T", "(a?) =>", "a?, b" mark optional names.
				optional := i+1 < len(toks) && (is(src, toks[i+1].ctok, ":") || is(src, toks[i+1].ctok, ")") ||
					is(src, toks[i+1].ctok, ",") || is(src, toks[i+1].ctok, "="))
				if !optional {
					top().ternary++
				}
			case ':':
				o := top()
				switch {
				case o.ternary > 0:
					o.ternary--
					colonKind = '?'
				case kind == kParen || kind == kClass || kind == kType || kind == kBracket || kind == kAngle ||
					(kind == kObject && prev != nil && is(src, prev.ctok, ")")):
					colonKind = 't'
				case kind == kObject || kind == kTemplate:
					colonKind = 'v'
				case prev != nil && is(src, prev.ctok, ")"):
					colonKind = 't' // a function's return type
				case jsCaseOrLabel(src, toks, i, stmtStart):
					colonKind = 'c'
				default:
					colonKind = 't' // a declared name's type: "let x: T"
				}
			case '(':
				head := false
				if prev != nil && prev.class == jName && !(i > 1 && (is(src, toks[i-2].ctok, ".") || is(src, toks[i-2].ctok, "?."))) {
					switch text(src, prev.ctok) {
					case "if", "for", "with", "switch", "catch":
						head = true
					case "while":
						head = !afterDo
					case "await":
						head = i > 1 && is(src, toks[i-2].ctok, "for")
					}
				}
				inType := kind == kType || kind == kAngle || kind == kParen && stack[len(stack)-1].inType ||
					prev != nil && prev.class == jPunct && is(src, prev.ctok, ":") && colonKind == 't'
				typed := inType || kind == kParen && stack[len(stack)-1].typed ||
					prev != nil && prev.class == jPunct && (is(src, prev.ctok, "|") || is(src, prev.ctok, "&"))
				stack = append(stack, jsOpen{kind: kParen, head: head, typed: typed, inType: inType})
			case '[':
				stack = append(stack, jsOpen{kind: kBracket})
			case '<':
				typeArgs := prev != nil && prev.class == jPunct && is(src, prev.ctok, "=") && jsTypeAlias(src, toks, i-1) // type F = <T>(…) => …
				if kind == kType || kind == kAngle || kind == kParen && stack[len(stack)-1].inType || typeArgs {
					stack = append(stack, jsOpen{kind: kAngle})
				}
			case '>':
				if kind == kAngle && len(stack) > 1 {
					stack = stack[:len(stack)-1]
				}
			case '{':
				o := jsOpen{kind: kObject}
				var p string
				if prev != nil {
					p = text(src, prev.ctok)
				}
				isPunct := prev != nil && prev.class == jPunct
				switch {
				case kind == kType, kind == kAngle, isPunct && (p == "<" || p == "|" || p == "&"), isPunct && p == ":" && colonKind == 't',
					kind == kParen && stack[len(stack)-1].typed,
					prev != nil && prev.class == jName && (p == "extends" || p == "as" || p == "satisfies" || p == "is"),
					isPunct && p == "=" && jsTypeAlias(src, toks, i-1):
					o.kind = kType
				case pending != nil && pending.depth == len(stack) && !(isPunct && (p == ":" || p == "=" || p == "," || p == "<")):
					o.stmtEnd = pending.stmtStart
					switch pending.word {
					case "class":
						o.kind = kClass
					case "interface":
						o.kind = kType
					case "enum":
						o.kind = kObject
					default:
						o.kind = kBlock
					}
					pending = nil
				case prev == nil || stmtStart(i) && kind != kClass, isPunct && p == ")" && headClose[i-1],
					prev.class == jName && (p == "else" || p == "do" || p == "try" || p == "finally" || p == "catch"),
					isPunct && p == ":" && colonKind == 'c':
					o.kind, o.stmtEnd, o.doBody = kBlock, true, p == "do"
				case isPunct && p == "=>":
					o.kind, o.stmtEnd = kBlock, true
				case kind == kClass && !(isPunct && (p == "=" || p == ":")):
					o.kind, o.stmtEnd = kBlock, true // a method's body, a static block
				case kind == kObject && (!isPunct || p == ")" || p == ">" || p == "]"):
					o.kind = kBlock // an object literal's method body
				}
				stack = append(stack, o)
			case ')', ']', '}':
				afterDo = false
				if n := len(stack); n > 1 {
					o := stack[n-1]
					stack = stack[:n-1]
					headClose[i] = o.head
					endsStmt[i] = o.stmtEnd
					afterDo = o.doBody
				}
				out = append(out, t)
				continue
			}
		}
		if t.class == jTemplateOpen && src[t.start] == '`' {
			stack = append(stack, jsOpen{kind: kTemplate})
		} else if t.class == jTemplate && src[t.start] == '}' {
			if n := len(stack); n > 1 {
				stack = stack[:n-1]
			}
		}
		afterDo = false
		out = append(out, t)
	}
	return out
}

// jsCaseOrLabel reports whether the ":" at toks[i] ends a case clause's
// test, a default, or a label.
func jsCaseOrLabel(src []byte, toks []jtok, i int, stmtStart func(int) bool) bool {
	if i > 0 && is(src, toks[i-1].ctok, "default") {
		return true
	}
	if i > 0 && toks[i-1].class == jName && stmtStart(i-1) {
		return true // a label
	}
	for k := i - 1; k >= 0; k-- { // "case" at the start of this statement
		if is(src, toks[k].ctok, "case") {
			return stmtStart(k)
		}
		if is(src, toks[k].ctok, ";") || is(src, toks[k].ctok, "{") || is(src, toks[k].ctok, "}") {
			return false
		}
	}
	return false
}

// jsTypeAlias reports whether the "=" at toks[i] is a type alias's:
// "type Name<…> =".
func jsTypeAlias(src []byte, toks []jtok, i int) bool {
	k := i - 1
	if k >= 0 && is(src, toks[k].ctok, ">") { // type parameters
		depth := 0
		for ; k >= 0; k-- {
			switch {
			case is(src, toks[k].ctok, ">"):
				depth++
			case is(src, toks[k].ctok, "<"):
				depth--
			}
			if depth == 0 {
				break
			}
		}
		k--
	}
	return k >= 1 && toks[k].class == jName && is(src, toks[k-1].ctok, "type")
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
		w := text(src, t.ctok)
		return !jsKeepsSemicolon(w) || jsPlainName(src, toks, i, w)
	case jPunct:
		switch text(src, t.ctok) {
		case ")":
			return !headClose[i]
		case "]", "}", "++", "--", ">": // ">" closes a type's arguments
			return true
		case "!": // TypeScript's non-null assertion "x!"
			return i > 0 && jsEnds(src, toks, i-1, headClose) && toks[i-1].end == t.start
		}
	}
	return false
}

// jsPlainName reports whether w, one of TypeScript's contextual words at
// toks[i], can only be a name there, what follows (past a written ";")
// beginning no construct of its: "type\nfunction f() {}" and
// "this.type = type\nthis.n = 1" end with the variable type, while
// "type\nX = 1" is a type alias.
func jsPlainName(src []byte, toks []jtok, i int, w string) bool {
	k := i + 1
	if k < len(toks) && is(src, toks[k].ctok, ";") {
		k++
	}
	at := func(j int) *jtok {
		if j < len(toks) {
			return &toks[j]
		}
		return nil
	}
	n := at(k)
	switch w {
	case "type": // type X = …, type X<T> = …
		n2 := at(k + 1)
		return n == nil || n.class != jName || n2 == nil || !(is(src, n2.ctok, "=") || is(src, n2.ctok, "<"))
	case "namespace", "module": // namespace a.b {, module "m" {
		if n == nil || (n.class != jName && n.class != jLiteral) {
			return true
		}
		for k+2 < len(toks) && is(src, toks[k+1].ctok, ".") && toks[k+2].class == jName {
			k += 2
		}
		return k+1 >= len(toks) || !is(src, toks[k+1].ctok, "{")
	case "global": // declare global {
		return n == nil || !is(src, n.ctok, "{")
	case "let": // let x, let [a], let {a}
		return n == nil || !(n.class == jName || is(src, n.ctok, "[") || is(src, n.ctok, "{"))
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
// statement: return, break, continue, throw, yield; async in a class
// body, where a line break makes it a field ("async\nfoo() {}" is a field
// and a method), and elsewhere but before what continues a name
// ("async\n? a : b").
func jsRestricted(src []byte, toks []jtok, i int, inClass bool) bool {
	t := toks[i]
	if t.class != jName || (i > 0 && (is(src, toks[i-1].ctok, ".") || is(src, toks[i-1].ctok, "?."))) {
		return false
	}
	switch text(src, t.ctok) {
	case "return", "break", "continue", "throw", "yield":
		return true
	case "async":
		return inClass || i+1 == len(toks) || !jsContinues(src, toks[i+1])
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
// literal) or of a switch rule, the whole right side of "=", a whole value
// or type after ":" or "?", a spread's whole operand, a whole element of
// a list (an argument): "return (\n\ta && b\n)" is "return a && b", "f(a,
// (b = c))" is "f(a, b = c)". The group must hold one expression (no
// comma; in Java a comma there is a type argument's) and end where the
// operand ends: before a separator, a closing bracket, a comma, the start
// of another statement, and for a type before its function's body; an
// element before a comma or a closing parenthesis or bracket. The "=" of
// ">=" is no assignment.
func dropWholeExprParens(sc *scratch, src []byte, toks []ctok, syn *exprSyntax) []ctok {
	if !parenAfter(src, toks, func(p ctok) bool {
		return is(src, p, "return") || is(src, p, "throw") || is(src, p, "=>") || is(src, p, "->") || isByte(src, p, '=') ||
			compoundAssign(src, p) || isByte(src, p, ':') || isByte(src, p, '?') || is(src, p, "...") ||
			isByte(src, p, ',') || isByte(src, p, '(') || isByte(src, p, '[') || assertion(src, p, syn)
	}) {
		return toks
	}
	match := sc.brackets(src, toks)
	var drop []bool
	for i := 1; i < len(toks); i++ {
		if !isByte(src, toks[i], '(') || match[i] < 0 {
			continue
		}
		c := match[i]
		p := toks[i-1]
		list := false
		switch {
		case isByte(src, p, ','), isByte(src, p, '('), isByte(src, p, '['):
			list = true
		case is(src, p, "return") || is(src, p, "throw"):
		case assertion(src, p, syn): // Java's condition, before ";" or ":"
		case is(src, p, "=>"), is(src, p, "->"): // an arrow function's or a switch rule's
			if isByte(src, toks[i+1], '{') {
				continue
			}
		case isByte(src, p, '='), compoundAssign(src, p): // an assignment's right side
			if isByte(src, p, '=') && comparisonEq(src, toks, i-1) ||
				syn.looser != nil && topHas(toks, i, c, match, func(t ctok) bool { return has(syn.looser, src, t) }) {
				continue
			}
		case isByte(src, p, ':'), isByte(src, p, '?'), is(src, p, "..."):
		default:
			continue
		}
		// A comma is the group's but in a returned or thrown sequence.
		seq := syn.asi && (is(src, p, "return") || is(src, p, "throw"))
		if c == i+1 || (!syn.casts && !seq && hasTopComma(src, toks, i, c, match)) {
			continue
		}
		if list {
			if c+1 == len(toks) {
				continue
			}
			if n := toks[c+1]; !isByte(src, n, ',') && !isByte(src, n, ')') && !isByte(src, n, ']') {
				continue
			}
		} else if c+1 < len(toks) {
			n := toks[c+1]
			end := n.kind == cSemi || isByte(src, n, ';') || isCloser(src, n) || isByte(src, n, ',')
			switch {
			case is(src, p, "..."): // a spread's operand
			case isByte(src, p, '?'), is(src, p, "assert"): // a conditional's middle, an assertion's condition
				end = end || isByte(src, n, ':')
			case !syn.asi: // Java: a conditional's or a for-each's, no types
			case isByte(src, p, ':'): // a value, a type: "(): (A | B) => …", "(): (A) {"
				// but "x: (a: T) => R": a function type's parameters
				params := is(src, toks[i+1], "...") || hasTopColon(src, toks, i, c, match)
				end = end || jsStarts(src, n) || isByte(src, n, '=') || (is(src, n, "=>") && !params) || isByte(src, n, '{')
			default:
				end = end || jsStarts(src, n)
			}
			if !end {
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

// dropStatementParens writes "((a = 1), (b = 2));" as "a = 1, b = 2;"
// (prettier writes an assignment in a sequence, and the sequence, in
// parentheses): a group that is a whole expression statement or a whole
// operand of a statement's comma operator, which binds looser than any
// other. The group begins a statement after a written ";", a block's
// "{", a statement's head or else and do, or follows a comma; it ends at
// a "," or at the statement's end (groups dropped around it aside). At a
// statement's start what would read as a declaration or a block keeps
// them: "({a} = b)", "(function () {})()".
func dropStatementParens(sc *scratch, src []byte, toks []ctok) []ctok {
	if !parenAfter(src, toks, func(p ctok) bool {
		return p.kind == cSemi || isByte(src, p, ';') || isByte(src, p, '{') || isByte(src, p, ',') || isByte(src, p, ')') ||
			is(src, p, "else") || is(src, p, "do")
	}) {
		return toks
	}
	match := sc.brackets(src, toks)
	var drop dropMask
	var semis []int // the ";" before a dropped group
	dropped := func(k int) bool { return drop != nil && drop[k] }
	for i := 1; i < len(toks); i++ {
		c := match[i]
		if !isByte(src, toks[i], '(') || c < 0 || c == i+1 {
			continue
		}
		p := i - 1
		for p > 0 && dropped(p) {
			p--
		}
		afterComma := isByte(src, toks[p], ',')
		if !afterComma && (dropped(p) || !jsStatementStart(src, toks, p+1, match)) {
			continue
		}
		n := c + 1
		for n < len(toks) && dropped(n) {
			n++
		}
		if n < len(toks) {
			t := toks[n]
			end := t.kind == cSemi || isByte(src, t, ';') || isByte(src, t, '}') || jsStarts(src, t)
			if !end && !isByte(src, t, ',') || afterComma && !end {
				continue // a comma after a comma is a list's, which dropWholeExprParens reads
			}
		}
		if !afterComma {
			switch f := toks[i+1]; {
			case isByte(src, f, '{'), is(src, f, "function"), is(src, f, "class"), is(src, f, "let"), is(src, f, "async"):
				continue
			}
		}
		drop.mark(i, len(toks))
		drop.mark(c, len(toks))
		if !afterComma && p == i-1 {
			semis = append(semis, p)
		}
	}
	for _, k := range semis {
		f := k + 1
		for f < len(toks) && dropped(f) {
			f++
		}
		if f < len(toks) && jsSemiBefore(src, toks, k, f, match) {
			drop.mark(k, len(toks))
		}
	}
	return compact(toks, drop)
}

// jsSemiBefore reports whether toks[k] is a ";" written only so that the
// "(" after it began a statement (prettier's ";(a = 1)" without
// semicolons), now that toks[f], a name or a literal, begins it: a
// statement-level ";" after what ends an expression, which no line break
// before toks[f] would let continue.
func jsSemiBefore(src []byte, toks []ctok, k, f int, match []int) bool {
	if t := toks[k]; k < 1 || t.kind != cSemi || t.end-t.start != 1 || src[t.start] != ';' {
		return false
	}
	switch t := toks[f]; {
	case t.kind == cNumber, t.kind == cQuoted:
	case t.kind == cVerbatim && isIdentByte(src[t.start]):
		switch text(src, t) {
		case "in", "instanceof", "as", "satisfies":
			return false
		}
	default:
		return false
	}
	p := toks[k-1]
	if !jsOperandEnd(src, p, jsSyntax) || isByte(src, p, ')') && jsStatementStart(src, toks, k, match) ||
		is(src, p, "else") || is(src, p, "do") {
		return false // an empty statement: a head's body
	}
	for j := k - 1; j >= 0; j-- { // the innermost bracket around it: a block's, or none
		if m := match[j]; m >= 0 && m < j {
			j = m
			continue
		}
		if isOpener(src, toks[j]) {
			return isByte(src, toks[j], '{')
		}
	}
	return true
}

// jsStatementStart reports whether toks[i] begins a statement: it follows
// a written ";", a "{", else, do, or the ")" of an if's, a loop's or a
// with's head. Without its ";" a statement cannot begin with "(" on a
// line of its own: the line would call what ends the previous one.
func jsStatementStart(src []byte, toks []ctok, i int, match []int) bool {
	p := toks[i-1]
	switch {
	case p.kind == cSemi, isByte(src, p, ';'), isByte(src, p, '{'):
		return true
	case is(src, p, "else"), is(src, p, "do"):
		return i < 2 || !isByte(src, toks[i-2], '.') && !is(src, toks[i-2], "?.")
	case isByte(src, p, ')'):
		o := match[i-1]
		if o < 1 {
			return false
		}
		w := toks[o-1]
		if o >= 2 && (isByte(src, toks[o-2], '.') || is(src, toks[o-2], "?.")) {
			return false
		}
		return is(src, w, "if") || is(src, w, "for") || is(src, w, "while") || is(src, w, "with") || is(src, w, "await") && o >= 2 && is(src, toks[o-2], "for")
	}
	return false
}

// compoundAssign reports an assignment operator other than "=" ("+=",
// "??="): its right operand, as the whole of an assignment's, binds
// looser than any operator but the comma.
func compoundAssign(src []byte, t ctok) bool {
	if t.kind != cVerbatim {
		return false
	}
	switch string(src[t.start:t.end]) {
	case "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=":
		return true
	}
	return false
}

// jsStarts reports a token that can only begin a statement after an
// expression ends: a name (not an operator word, nor a conditional
// type's extends), a literal.
func jsStarts(src []byte, t ctok) bool {
	if t.kind == cNumber || t.kind == cQuoted {
		return true
	}
	if t.kind != cVerbatim || !isIdentByte(src[t.start]) {
		return false
	}
	switch text(src, t) {
	case "in", "instanceof", "as", "satisfies", "of", "extends":
		return false
	}
	return true
}

// dropPrecedenceParens drops parentheses around a binary expression that
// its neighbours would group the same way without them: "(a & b) & c" is
// "a & b & c", "(a && b) || c" is "a && b || c" and "(1 << 0) as T" is
// "1 << 0 as T" (prettier adds some of these for clarity and removes
// others), and around a prefix operator's operation: "a && (!b)" is "a
// && !b". Only when both neighbours bind less tightly (or, on the right,
// equally and to the left), never across "??" and "||"/"&&" (which do
// not mix) or "**", and never around an assignment, conditional, arrow,
// comma, "in", "as" or "satisfies".
func dropPrecedenceParens(sc *scratch, src []byte, toks []ctok, syn *exprSyntax) []ctok {
	for pass := 0; pass < 8; pass++ {
		if !parenAfter(src, toks, func(p ctok) bool { return !jsOperandEnd(src, p, syn) }) {
			return toks
		}
		match := sc.brackets(src, toks)
		var drop []bool
		for o := 1; o < len(toks); o++ {
			c := match[o]
			if !isByte(src, toks[o], '(') || c < 0 || c == o+1 || c+1 > len(toks) {
				continue
			}
			top, nullish, logical, ok := jsGroupPrec(src, toks, o, c, match, syn)
			if !ok {
				continue
			}
			mix := func(p int) bool { // ?? next to || or && needs its parentheses
				return (p == 1 && logical) || ((p == 2 || p == 3) && nullish)
			}
			// left: an operator, or the start of an expression
			if pl, n := jsBinaryOpBefore(src, toks, o, syn); n > 0 {
				// "a || (b || c)" is "a || b || c": && and || associate
				if (top < pl || (top == pl && pl != 2 && pl != 3)) || mix(pl) || pl == 12 {
					continue
				}
			} else if !jsExprStart(src, toks, o-1, syn) && !(top >= 13 && prefixBefore(src, toks, o, syn)) &&
				!(top == 13 && syn.casts && isByte(src, toks[o-1], ')') && !signed(src, toks[o+1])) {
				// (Java: after a cast, "(T) (x.y())" is "(T) x.y()" but
				// for a signed operand: "(T) -x" may be a subtraction)
				continue
			}
			// right: an operator, or the end of the expression
			if c+1 < len(toks) {
				pr, n := jsBinaryOp(src, toks, c+1)
				if n == 0 && syn.typed && (is(src, toks[c+1], "as") || is(src, toks[c+1], "satisfies")) {
					pr, n = 8, 1 // a type assertion binds as < does
				}
				if n > 0 {
					if top < pr || mix(pr) || top == 12 || (top == 13 && pr == 12) { // "(-x) ** 2"
						continue
					}
				} else if pr < 0 || !jsExprEnd(src, toks[c+1], syn) && !(isByte(src, toks[c+1], '.') &&
					(top == 14 || top == 13 && syn.casts && javaPrimary(src, toks[o+1]))) &&
					!(top == 14 && !syn.casts && isByte(src, toks[c+1], '[')) {
					// (a primary's member: "(f()).m()" is "f().m()", in
					// Java "(new T()).m()" is "new T().m()"; not a cast's
					// or a prefix operation's; and a primary's element, or
					// in TypeScript a type's array: "(A)[]" is "A[]")
					continue
				}
			}
			if drop == nil {
				drop = make([]bool, len(toks))
			}
			drop[o], drop[c] = true, true
			o = c
		}
		if drop == nil {
			return toks
		}
		toks = compact(toks, drop)
	}
	return toks
}

// jsGroupPrec reads the group toks[o..c]: the precedence of its loosest
// binary operator; nullish and logical say whether "??" or "||"/"&&" are
// among them. ok is false when the group is not a binary expression the
// rules read: no operator at its top, or one of the constructs left
// alone.
func jsGroupPrec(src []byte, toks []ctok, o, c int, match []int, syn *exprSyntax) (top int, nullish, logical, ok bool) {
	top = 100
	for k := o + 1; k < c; k++ {
		t := toks[k]
		if m := match[k]; m > k {
			k = m
			continue
		}
		if t.kind != cVerbatim {
			continue
		}
		// "in" stops a group only in a for's head (JavaScript)
		inOp := is(src, t, "in") && has(syn.stops, src, t)
		if has(syn.stops, src, t) && !(inOp && k > o+1 && !inForHead(src, toks, o, match)) {
			return 0, false, false, false
		}
		if k == o+1 || !jsOperandEnd(src, toks[k-1], syn) {
			continue // a prefix operator
		}
		p, n := jsBinaryOp(src, toks, k)
		if inOp {
			p, n = 8, 1 // relational, outside a for's head (above)
		}
		if p < 0 {
			return 0, false, false, false // an assignment
		}
		if n == 0 {
			continue
		}
		top = min(top, p)
		nullish = nullish || p == 1
		logical = logical || p == 2 || p == 3
		k += n - 1
	}
	if top == 100 && !syn.casts && jsPrimaryGroup(src, toks, o, c, match) {
		return 14, false, false, true // a name, a literal, a call, a member: tighter than anything
	}
	if top == 100 && (prefixOp(src, toks[o+1], syn) || (syn.casts && !primitiveType(src, toks[o+1:c]))) {
		// a prefix operator's operation, and in Java any other operand
		// (a name, a call, a cast): tighter than any binary operator.
		// JavaScript's others are left alone (an object literal, a
		// function, a class); so is a Java cast to a primitive type,
		// which may apply to a negation: "(int) -x".
		return 13, false, false, true
	}
	return top, nullish, logical, top < 100
}

// assertion reports Java's assert, whose condition its words say starts
// an expression.
func assertion(src []byte, p ctok, syn *exprSyntax) bool {
	return is(src, p, "assert") && has(syn.startWords, src, p)
}

// prefixOp reports an operator that can be a prefix one: "!", "~", "-",
// "+", "++", "--" and syn's words.
func prefixOp(src []byte, t ctok, syn *exprSyntax) bool {
	return is(src, t, "!") || is(src, t, "~") || is(src, t, "-") || is(src, t, "+") ||
		is(src, t, "++") || is(src, t, "--") || has(syn.prefix, src, t)
}

// prefixBefore reports a prefix operator just before toks[o]: one that
// cannot be binary there ("!x", "a - -x").
func prefixBefore(src []byte, toks []ctok, o int, syn *exprSyntax) bool {
	k := o - 1
	return prefixOp(src, toks[k], syn) && (k == 0 || !jsOperandEnd(src, toks[k-1], syn))
}

// inForHead reports whether toks[o] lies inside the head of a for
// statement, where "in" is no operator: "for (x in y)".
func inForHead(src []byte, toks []ctok, o int, match []int) bool {
	for k := o - 1; k >= 0; k-- {
		if m := match[k]; m >= 0 && m < k {
			k = m // a group closed before o
			continue
		}
		if !isByte(src, toks[k], '(') {
			continue
		}
		if k > 0 && (is(src, toks[k-1], "for") || (is(src, toks[k-1], "await") && k > 1 && is(src, toks[k-2], "for"))) {
			return true
		}
	}
	return false
}

// jsPrimaryGroup reports whether the group toks[o..c], holding no binary
// operator, is a JavaScript primary or member expression that a "." or a
// "[" after it would take whole: not an object literal (a block without
// the parentheses), a type assertion ("<T>x"), new without arguments
// ("(new F).m" is not "new F.m"), a prefix operation, TypeScript's type
// operators ("(keyof T)[]" is not "keyof T[]"), or an optional chain
// ("(a?.b).c" throws where "a?.b.c" does not).
func jsPrimaryGroup(src []byte, toks []ctok, o, c int, match []int) bool {
	first := toks[o+1]
	if isByte(src, first, '{') || isByte(src, first, '<') || is(src, first, "new") || prefixOp(src, first, jsSyntax) || has(jsTypeOps, src, first) {
		return false
	}
	return !topHas(toks, o, c, match, func(t ctok) bool { return is(src, t, "?.") })
}

// jsBinaryOp returns the precedence of the binary operator at toks[k] and
// how many tokens spell it (">", ">" is ">>"); 0, 0 for none and -1 for
// an assignment.
func jsBinaryOp(src []byte, toks []ctok, k int) (prec, n int) {
	t := toks[k]
	if t.kind != cVerbatim {
		return 0, 0
	}
	w := text(src, t)
	if w == ">" {
		n = 1
		for k+n < len(toks) && n < 3 && is(src, toks[k+n], ">") && toks[k+n].start == toks[k+n-1].end {
			n++
		}
		if k+n < len(toks) && toks[k+n].start == toks[k+n-1].end && (is(src, toks[k+n], "=") || is(src, toks[k+n], "==")) {
			if n == 1 && is(src, toks[k+n], "=") {
				return 8, 2 // >=
			}
			return -1, 0 // >>=, >>>=
		}
		if n == 1 {
			return 8, 1
		}
		return 9, n
	}
	switch w {
	case "??":
		return 1, 1
	case "||":
		return 2, 1
	case "&&":
		return 3, 1
	case "|":
		return 4, 1
	case "^":
		return 5, 1
	case "&":
		return 6, 1
	case "==", "!=", "===", "!==":
		return 7, 1
	case "<", "<=", "instanceof":
		return 8, 1
	case "<<":
		return 9, 1
	case "+", "-":
		return 10, 1
	case "*", "/", "%":
		return 11, 1
	case "**":
		return 12, 1
	case "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", "&=", "|=", "^=", "&&=", "||=", "??=":
		return -1, 0
	}
	return 0, 0
}

// jsBinaryOpBefore returns the precedence of a binary operator that ends
// just before toks[o], and its length in tokens.
func jsBinaryOpBefore(src []byte, toks []ctok, o int, syn *exprSyntax) (prec, n int) {
	if o >= 3 && isByte(src, toks[o-1], '=') && comparisonEq(src, toks, o-1) && jsOperandEnd(src, toks[o-3], syn) {
		return 8, 2 // ">=", written as its two bytes
	}
	for k := o - 1; k >= 0 && k >= o-3; k-- {
		p, m := jsBinaryOp(src, toks, k)
		if m > 0 && k+m == o {
			if k == 0 || !jsOperandEnd(src, toks[k-1], syn) {
				return 0, 0 // a prefix + or -
			}
			return p, m
		}
		if !is(src, toks[k], ">") {
			break
		}
	}
	return 0, 0
}

// jsOperandEnd reports a token that can end an operand: a name (not an
// operator word), a literal, a closing bracket.
func jsOperandEnd(src []byte, t ctok, syn *exprSyntax) bool {
	switch t.kind {
	case cNumber, cQuoted, cJoined, cRegexp:
		return true
	case cVerbatim:
	default:
		return false
	}
	c := src[t.start]
	if c == '"' || c == '\'' {
		return true // a string or character as the C and Java lexers write it
	}
	if c == '`' || (c == '}' && t.end-t.start > 1) {
		return src[t.end-1] == '`' // a template's end
	}
	if isIdentByte(c) || c == '#' {
		return !has(syn.notOperand, src, t)
	}
	return isCloser(src, t)
}

// jsExprStart reports a token, toks[k], after which an expression
// starts: an opening bracket, a comma, an assignment (not the "=" of
// ">="), a spread, a statement keyword.
func jsExprStart(src []byte, toks []ctok, k int, syn *exprSyntax) bool {
	t := toks[k]
	if t.kind == cSemi {
		return true
	}
	if t.kind != cVerbatim {
		return false
	}
	switch text(src, t) {
	case "=":
		return !comparisonEq(src, toks, k)
	case "(", "[", ",", ";", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", "&=", "|=", "^=", "&&=", "||=", "??=",
		":", "?", "=>", "->", "...":
		return true
	}
	if has(syn.startWords, src, t) {
		return true
	}
	c := src[t.start]
	return (c == '`' || c == '}') && t.end-t.start > 1 && src[t.end-1] == '{' // "${"
}

// comparisonEq reports whether toks[k], a "=", ends ">=": one '>' just
// before it (">>=" and ">>>=" assign).
func comparisonEq(src []byte, toks []ctok, k int) bool {
	n := 0
	for j := k - 1; j >= 0 && is(src, toks[j], ">") && toks[j].end == toks[j+1].start; j-- {
		n++
	}
	return n == 1
}

// jsExprEnd reports a token before which an expression ends.
func jsExprEnd(src []byte, t ctok, syn *exprSyntax) bool {
	if t.kind == cSemi {
		return true
	}
	if t.kind != cVerbatim {
		return syn.asi // a literal: the next statement
	}
	switch text(src, t) {
	case ",", ";", ")", "]", "}", ":", "?":
		return true
	}
	c := src[t.start]
	if c == '}' && t.end-t.start > 1 {
		return true // a template's "}…"
	}
	return syn.asi && jsStarts(src, t)
}

// dropArrowParamParens writes "(a) => b" as "a => b" (prettier's
// arrowParens; in Java "(a) -> b"): one parameter, a bare name.
func dropArrowParamParens(src []byte, toks []ctok, arrow string) []ctok {
	var drop []bool
	for i := 0; i+3 < len(toks); i++ {
		if isByte(src, toks[i], '(') && isByte(src, toks[i+2], ')') && is(src, toks[i+3], arrow) &&
			toks[i+1].kind == cVerbatim && isIdentByte(src[toks[i+1].start]) && !isDigit(src[toks[i+1].start]) {
			if drop == nil {
				drop = make([]bool, len(toks))
			}
			drop[i], drop[i+2] = true, true
		}
	}
	return compact(toks, drop)
}

// hasTopColon reports a colon directly inside the group toks[open:close+1].
func hasTopColon(src []byte, toks []ctok, open, close int, match []int) bool {
	return topHas(toks, open, close, match, func(t ctok) bool { return isByte(src, t, ':') })
}

// dropUnionMemberParens drops parentheses around a member of a union
// ("A | (B & C)" is "A | B & C"; prettier adds them when it breaks a long
// type): "&" and every other type operator bind more tightly than "|",
// and "|" is associative. Not around a function or conditional type
// ("(() => void) | undefined" needs them), nor around an expression
// operator that binds less tightly than "|" ("||", "&&", "??", "=", ",").
func dropUnionMemberParens(sc *scratch, src []byte, toks []ctok) []ctok {
	bar := false
	for i := 0; i+1 < len(toks) && !bar; i++ {
		bar = (isByte(src, toks[i], '|') && isByte(src, toks[i+1], '(')) || (isByte(src, toks[i], ')') && isByte(src, toks[i+1], '|'))
	}
	if !bar {
		return toks
	}
	match := sc.brackets(src, toks)
	var drop []bool
	for o := 1; o < len(toks); o++ {
		c := match[o]
		if !isByte(src, toks[o], '(') || c < 0 || c == o+1 {
			continue
		}
		p := toks[o-1]
		var n ctok
		if c+1 < len(toks) {
			n = toks[c+1]
		}
		barBefore, barAfter := isByte(src, p, '|'), c+1 < len(toks) && isByte(src, n, '|')
		start := barBefore || isByte(src, p, ':') || isByte(src, p, '=') || isByte(src, p, ',') || isByte(src, p, '(') || isByte(src, p, '<')
		end := barAfter || c+1 == len(toks) || n.kind == cSemi || isCloser(src, n) || isByte(src, n, ',') ||
			isByte(src, n, '>') || isByte(src, n, '=') || isByte(src, n, '{') || is(src, n, "=>")
		if !(barBefore || barAfter) || !start || !end || !jsUnionMember(src, toks, o, c, match) {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(toks))
		}
		drop[o], drop[c] = true, true
	}
	return compact(toks, drop)
}

// jsUnionMember reports whether toks[o+1:c] is a type that needs no
// parentheses in a union: outside its own brackets and angle brackets,
// no "=>", no conditional, no "new", no operator looser than "|".
func jsUnionMember(src []byte, toks []ctok, o, c int, match []int) bool {
	angles := 0
	for k := o + 1; k < c; k++ {
		if m := match[k]; m > k {
			k = m
			continue
		}
		t := toks[k]
		if t.kind != cVerbatim {
			continue
		}
		switch text(src, t) {
		case "<":
			angles++
		case ">":
			angles--
		case "=>", "?", "extends", "new", "||", "&&", "??", "=", ",", "...", ";", "infer", "asserts", "is":
			if angles == 0 {
				return false
			}
		}
	}
	return angles == 0
}
