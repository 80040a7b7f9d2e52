package analyzer

import (
	"bytes"
	"strings"
)

// PHP in the canonical stream: the rules scanner's tokens (phpRules), and
// what PHP_CodeSniffer's fixers and prettier's PHP plugin rewrite without
// changing what the code does:
//   - the parentheses that only group a whole expression: a whole
//     argument or array element, a whole return operand, the whole right
//     side of an assignment ("$x = ($a ?? $b);", Squiz's operator
//     brackets), read by JavaScript's rule (dropWholeExprParens) with
//     PHP's syntax; but not around and, or, xor, which bind looser than
//     an assignment ("$x = ($a and $b)" is not "$x = $a and $b");
//   - a whole expression statement's ("($a ?? $a = '');"), after a ";"
//     or a "{";
//   - "else if" and "elseif", one statement in PHP's brace syntax (the
//     colon syntax accepts only elseif, so the two never both parse
//     there);
//
// and what PHP-CS-Fixer's rule sets rewrite, as real histories show it
// (PHP's own parser reads each pair alike):
//   - a member's implied public ("const X", "function f()", "var $x"
//     are public) and its modifiers in any order (phpMembers);
//   - empty statements (phpEmptyStatements);
//   - "? :" and "?:", the short conditional (phpShortTernary);
//   - "new A" and "new A()" (phpNewParens);
//   - string literals by their value, and literals joined by "." as the
//     one literal they make; a heredoc that interpolates nothing as a
//     nowdoc (phpStrings);
//   - parentheses around a whole conditional's condition, and around a
//     whole include or echo operand (dropPHPOperandParens);
//   - parentheses around a primary: a name or variable and what it
//     calls, indexes or reaches ("!(f($a))", "(int)($a->b)";
//     dropPHPPrimaryParens);
//   - parentheses that PHP's precedence makes redundant ("(a && b) ||
//     c", "!($a instanceof B)", "false !== ($p = f())"), which prettier's
//     PHP plugin adds (dropPHPPrecedenceParens);
//   - the braces of a block of one simple statement after if, elseif,
//     else, while, for, foreach ("if ($a) return;"; dropPHPBlockBraces);
//   - "or" and "and" as "||" and "&&" inside parentheses where nothing
//     tells their lower precedence apart (phpLogicalWords);
//   - array(…) and list(…) as […] (phpShortArrays);
//   - the case of keywords, types and true, false, null, and the long
//     casts ("(boolean)" is "(bool)"; phpWords).

var phpSyntax = &exprSyntax{
	looser: set("and", "or", "xor"),
}

// canonPHP returns the canonical stream of PHP source.
func canonPHP(sc *scratch, src []byte, out []ctok) []ctok {
	toks := canonRules(sc, phpRules, src, out)
	toks = joinElseIf(src, toks)
	toks = phpEmptyStatements(src, toks)
	toks = phpMembers(src, toks)
	toks = phpShortTernary(src, toks)
	toks = phpNewParens(src, toks)
	toks = dropWholeExprParens(sc, src, toks, phpSyntax)
	toks = dropPHPStatementParens(sc, src, toks)
	toks = dropPHPOperandParens(sc, src, toks)
	toks = dropPHPPrimaryParens(sc, src, toks)
	toks = dropPHPPrecedenceParens(sc, src, toks)
	toks = dropPHPBlockBraces(sc, src, toks)
	phpLogicalWords(sc, src, toks)
	toks = phpShortArrays(sc, src, toks)
	toks = phpStrings(src, toks)
	phpWords(src, toks) // last: the passes above read words as written
	return toks
}

// dropPHPStatementParens drops the parentheses around a whole expression
// statement: "(" after ";" or "{", its ")" before ";".
func dropPHPStatementParens(sc *scratch, src []byte, toks []ctok) []ctok {
	if !parenAfter(src, toks, func(p ctok) bool { return isByte(src, p, ';') || isByte(src, p, '{') }) {
		return toks
	}
	match := sc.brackets(src, toks)
	var drop dropMask
	for i := 1; i < len(toks); i++ {
		c := match[i]
		if !isByte(src, toks[i], '(') || c <= i+1 || c+1 >= len(toks) || !isByte(src, toks[c+1], ';') ||
			!isByte(src, toks[i-1], ';') && !isByte(src, toks[i-1], '{') {
			continue
		}
		drop.mark(i, len(toks))
		drop.mark(c, len(toks))
	}
	return compact(toks, drop)
}

// joinElseIf reads "else if" as "elseif" (cElseIf).
func joinElseIf(src []byte, toks []ctok) []ctok {
	var drop dropMask
	for i := 0; i+1 < len(toks); i++ {
		if is(src, toks[i], "else") && is(src, toks[i+1], "if") {
			toks[i].kind = cElseIf
			drop.mark(i+1, len(toks))
		}
	}
	return compact(toks, drop)
}

// How a cPHP token is spelt (its tag).
const (
	phpString      uint8 = iota + 1 // string literals joined by ".": the value they make
	phpLower                        // a keyword, a type: in lower case
	phpCast                         // a cast's type: in lower case, its short name
	phpElvis                        // "? :": "?:"
	phpNowdoc                       // a heredoc's opener whose body interpolates nothing: <<<'ID'
	phpOr                           // "or" where it is "||"
	phpAnd                          // "and" where it is "&&"
	phpOpenSquare                   // the "(" of array( or list(: "["
	phpCloseSquare                  // its ")": "]"
	phpHeredoc                      // a heredoc's body and terminator: the terminator's indentation removed from each line
)

// appendPHP appends a cPHP token's text as its tag spells it.
func appendPHP(buf, text []byte, tag uint8) []byte {
	switch tag {
	case phpString:
		return appendPHPValue(buf, text)
	case phpLower:
		return append(buf, bytes.ToLower(text)...)
	case phpCast:
		w := strings.ToLower(string(text))
		if short, ok := phpLongCasts[w]; ok {
			w = short
		}
		return append(buf, w...)
	case phpElvis:
		return append(buf, "?:"...)
	case phpHeredoc:
		return appendPHPHeredoc(buf, text)
	case phpOr:
		return append(buf, "||"...)
	case phpAnd:
		return append(buf, "&&"...)
	case phpOpenSquare:
		return append(buf, '[')
	case phpCloseSquare:
		return append(buf, ']')
	case phpNowdoc:
		id := bytes.Trim(text[3:], " \t'\"")
		buf = append(buf, "<<<'"...)
		buf = append(buf, id...)
		return append(buf, '\'')
	}
	return append(buf, text...)
}

// phpCasts are the types a cast names, and phpLongCasts the long names
// of some, which PHP-CS-Fixer shortens.
var (
	phpCasts     = set("bool", "boolean", "int", "integer", "float", "double", "real", "string", "binary", "array", "object", "unset")
	phpLongCasts = map[string]string{"boolean": "bool", "integer": "int", "double": "float", "real": "float", "binary": "string"}
)

// phpKeywords are the words PHP reads whatever their case: keywords,
// and true, false and null; phpTypes the names of its types, read so
// where a type stands (elsewhere they name constants of the code's own).
var (
	phpKeywords = set("abstract", "and", "array", "as", "break", "case", "catch", "class", "clone", "const",
		"continue", "declare", "default", "do", "echo", "else", "elseif", "empty", "enddeclare", "endfor", "endforeach",
		"endif", "endswitch", "endwhile", "enum", "exit", "extends", "final", "finally", "fn", "for", "foreach", "function",
		"global", "goto", "if", "implements", "include", "include_once", "instanceof", "insteadof", "interface", "isset",
		"list", "match", "namespace", "new", "or", "print", "private", "protected", "public", "readonly", "require",
		"require_once", "return", "static", "switch", "throw", "trait", "try", "unset", "use", "var", "while", "xor",
		"yield", "null", "true", "false", "self", "parent")
	phpTypes = set("bool", "int", "float", "string", "iterable", "object", "mixed", "void", "never", "callable")
)

// phpWords marks the words PHP reads whatever their case (phpKeywords,
// and phpTypes where a type stands: before a parameter, after "?", "|"
// or a return type's ":") where they are written in another, to be
// written in lower case, and a cast's type ("(Boolean) $x"), to be
// written as its short name in lower case. A word after "->", "::", "\"
// or function and const, or before "\", is a name of the code's own (a
// property, a constant, a namespace's part) and keeps its case. A cast is
// a parenthesised type after no operand and before one.
func phpWords(src []byte, toks []ctok) {
	word := func(i int) string {
		if i < 0 || i >= len(toks) || toks[i].kind != cVerbatim || !isIdentStart(src[toks[i].start]) {
			return ""
		}
		return string(src[toks[i].start:toks[i].end])
	}
	typed := func(i int) bool {
		if i+1 < len(toks) {
			n := toks[i+1]
			if src[n.start] == '$' || isByte(src, n, '|') || isByte(src, n, '&') || is(src, n, "...") {
				return true
			}
		}
		if i > 0 {
			p := toks[i-1]
			if isByte(src, p, '?') || isByte(src, p, '|') || isByte(src, p, ':') && i > 1 && isByte(src, toks[i-2], ')') {
				return true
			}
		}
		return false
	}
	for i := range toks {
		w := word(i)
		if w == "" {
			continue
		}
		low := strings.ToLower(w)
		if i > 0 && i+1 < len(toks) && isByte(src, toks[i-1], '(') && isByte(src, toks[i+1], ')') && phpCasts[low] &&
			(i < 2 || !phpOperandEnd(src, toks[i-2])) && i+2 < len(toks) && phpOperandStart(src, toks[i+2]) {
			toks[i].kind, toks[i].tag = cPHP, phpCast
			continue
		}
		if low == w || !phpKeywords[low] && !(phpTypes[low] && typed(i)) {
			continue
		}
		if i > 0 && (is(src, toks[i-1], "->") || is(src, toks[i-1], "::") || isByte(src, toks[i-1], '\\') ||
			is(src, toks[i-1], "function") || is(src, toks[i-1], "const")) ||
			i+1 < len(toks) && isByte(src, toks[i+1], '\\') {
			continue
		}
		toks[i].kind, toks[i].tag = cPHP, phpLower
	}
}

// isIdentStart reports a byte that begins a PHP name.
func isIdentStart(c byte) bool { return c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z' || c >= 0x80 }

// phpOperandEnd reports a token that ends an operand: a name (not a
// keyword), a variable, a literal or a closing bracket (a group after one
// is a call's arguments, not a cast).
func phpOperandEnd(src []byte, t ctok) bool {
	c := src[t.start]
	if t.kind == cVerbatim && isIdentStart(c) {
		w := strings.ToLower(string(src[t.start:t.end]))
		return !phpKeywords[w] || w == "true" || w == "false" || w == "null"
	}
	return t.kind != cVerbatim || isIdentByte(c) || c == '$' || c == '\'' || c == '"' || c >= 0x80 ||
		isByte(src, t, ')') || isByte(src, t, ']') || isByte(src, t, '}')
}

// phpOperandStart reports a token that can begin an operand.
func phpOperandStart(src []byte, t ctok) bool {
	c := src[t.start]
	return t.kind != cVerbatim || isIdentByte(c) || c >= 0x80 || strings.IndexByte(`$'"([!-+@~\<`, c) >= 0
}

// phpModifiers ranks a member's modifiers in the order PSR-12 writes
// them; public, which a member without a visibility has, and var, its
// old spelling, rank below 0: they are dropped.
var phpModifiers = map[string]int{"abstract": 1, "final": 2, "protected": 3, "private": 4, "static": 5, "readonly": 6,
	"public": -1, "var": -1}

// phpMembers drops the public and var of the members of a class, an
// interface, a trait or an enum (whose innermost bracket is a "{"; not a
// promoted constructor parameter's, nor a trait's method renamed "as
// public"), and sorts every run of modifiers.
func phpMembers(src []byte, toks []ctok) []ctok {
	rank := func(t ctok) int {
		if t.kind != cVerbatim || !isIdentStart(src[t.start]) {
			return 0
		}
		return phpModifiers[string(src[t.start:t.end])]
	}
	var drop dropMask
	var stack []byte
	for i, t := range toks {
		switch {
		case isByte(src, t, '('), isByte(src, t, '['), isByte(src, t, '{'), is(src, t, "#["):
			stack = append(stack, src[t.start])
		case isByte(src, t, ')'), isByte(src, t, ']'), isByte(src, t, '}'):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case rank(t) < 0 && len(stack) > 0 && stack[len(stack)-1] == '{' && (i == 0 || !is(src, toks[i-1], "as")):
			drop.mark(i, len(toks))
		}
	}
	toks = compact(toks, drop)
	sortRuns(toks, rank)
	return toks
}

// phpEmptyStatements drops the empty statements: a ";" after a ";" or a
// "{", outside parentheses (a for's clauses are not statements).
func phpEmptyStatements(src []byte, toks []ctok) []ctok {
	var drop dropMask
	depth := 0
	for i, t := range toks {
		switch {
		case isByte(src, t, '('):
			depth++
		case isByte(src, t, ')'):
			depth = max(depth-1, 0)
		case depth == 0 && i > 0 && isByte(src, t, ';') && (isByte(src, toks[i-1], ';') || isByte(src, toks[i-1], '{')):
			drop.mark(i, len(toks))
		}
	}
	return compact(toks, drop)
}

// phpShortTernary reads "? :", blanks between, as "?:".
func phpShortTernary(src []byte, toks []ctok) []ctok {
	var drop dropMask
	for i := 0; i+1 < len(toks); i++ {
		if isByte(src, toks[i], '?') && isByte(src, toks[i+1], ':') && spacing(src[toks[i].end:toks[i+1].start]) {
			toks[i].kind, toks[i].tag, toks[i].end = cPHP, phpElvis, toks[i+1].end
			drop.mark(i+1, len(toks))
			i++
		}
	}
	return compact(toks, drop)
}

// phpNewParens drops the empty argument list of "new A()", "new \A\B()",
// "new class() {…}": "new A" passes none either.
func phpNewParens(src []byte, toks []ctok) []ctok {
	var drop dropMask
	for i := 0; i < len(toks); i++ {
		if !is(src, toks[i], "new") {
			continue
		}
		j := i + 1
		for j < len(toks) && (isByte(src, toks[j], '\\') || toks[j].kind == cVerbatim && isIdentStart(src[toks[j].start])) {
			j++
		}
		if j > i+1 && j+1 < len(toks) && isByte(src, toks[j], '(') && isByte(src, toks[j+1], ')') {
			drop.mark(j, len(toks))
			drop.mark(j+1, len(toks))
		}
		i = j - 1
	}
	return compact(toks, drop)
}

// dropPHPOperandParens drops the parentheses around the whole condition
// of a conditional ("(isset($a)) ? $a : 1") where the condition starts
// (after "=", "return", "(", ",", "[", "=>", echo or a statement's
// start) and holds nothing that binds looser than "?" (an assignment,
// and, or, xor, another conditional, a comma, an arrow, yield, print),
// and around a whole operand of include, require and echo before its
// ";".
func dropPHPOperandParens(sc *scratch, src []byte, toks []ctok) []ctok {
	if !parenAfter(src, toks, func(p ctok) bool { return true }) {
		return toks
	}
	match := sc.brackets(src, toks)
	var drop dropMask
	for i := 1; i < len(toks); i++ {
		c := match[i]
		if !isByte(src, toks[i], '(') || c <= i+1 || c+1 >= len(toks) {
			continue
		}
		p, n := toks[i-1], toks[c+1]
		switch {
		case phpIncludes[string(src[p.start:p.end])] && p.kind == cVerbatim && isByte(src, n, ';'):
		case (isByte(src, n, '?') || is(src, n, "?:") || n.kind == cPHP && n.tag == phpElvis) &&
			phpExprStart(src, p) &&
			!topHas(toks, i, c, match, func(t ctok) bool {
				return isByte(src, t, '=') || compoundAssign(src, t) || isByte(src, t, '?') ||
					is(src, t, "?:") || t.kind == cPHP || isByte(src, t, ',') || is(src, t, "=>") ||
					has(phpLooser, src, t)
			}):
		default:
			continue
		}
		drop.mark(i, len(toks))
		drop.mark(c, len(toks))
	}
	return compact(toks, drop)
}

// phpExprStart reports a token after which an expression starts: an
// assignment, an opening bracket, a comma, "=>", return, echo, or a
// statement's start.
func phpExprStart(src []byte, t ctok) bool {
	return isByte(src, t, '=') || compoundAssign(src, t) || isByte(src, t, '(') || isByte(src, t, ',') ||
		isByte(src, t, '[') || is(src, t, "=>") || is(src, t, "return") || is(src, t, "echo") ||
		isByte(src, t, ';') || isByte(src, t, '{') || isByte(src, t, '}')
}

var (
	phpIncludes = set("include", "include_once", "require", "require_once", "echo", "print")
	phpLooser   = set("and", "or", "xor", "yield", "print", "throw", "fn", "function", "include", "include_once", "require", "require_once")
)

// dropPHPPrimaryParens drops the parentheses around a primary: a
// variable, a name, a string literal, isset, empty or array, and what
// follows it to reach, index or call ("->b", "::c", "[0]", "(…)"). The
// group starts an operand: it follows an operator, an opening bracket, a
// comma, a cast or one of return, echo, print, yield, throw, and, or,
// xor (after a name or a closing bracket it is a call's arguments), and
// no "(" follows it unless it ends with a call or an index, or is a
// variable ("($a->b)()" calls the property, "$a->b()" the method;
// "(A::f($x))()" calls what f returns, as "A::f($x)()" does), nor an
// assignment (which cannot write to a group). A cast's own parentheses
// are no group, nor a number's ("(1).'a'" is not "1.'a'").
func dropPHPPrimaryParens(sc *scratch, src []byte, toks []ctok) []ctok {
	if !parenAfter(src, toks, func(p ctok) bool { return true }) {
		return toks
	}
	match := sc.brackets(src, toks)
	word := func(t ctok) string {
		if t.kind != cVerbatim || !isIdentStart(src[t.start]) {
			return ""
		}
		return strings.ToLower(string(src[t.start:t.end]))
	}
	castAt := func(k int) bool { // toks[k] is the ")" of a cast
		return k >= 2 && isByte(src, toks[k], ')') && isByte(src, toks[k-2], '(') && phpCasts[word(toks[k-1])] &&
			(k < 3 || !phpOperandEnd(src, toks[k-3]))
	}
	var drop dropMask
	for i := 1; i < len(toks); i++ {
		c := match[i]
		if !isByte(src, toks[i], '(') || c <= i+1 || c+1 < len(toks) && (isByte(src, toks[c+1], '(') &&
			!isByte(src, toks[c-1], ')') && !isByte(src, toks[c-1], ']') && !(c == i+2 && src[toks[i+1].start] == '$') ||
			isByte(src, toks[c+1], '=') || compoundAssign(src, toks[c+1])) {
			continue
		}
		p := toks[i-1]
		if w := word(p); w != "" && !phpOperandWords[w] || w == "" && phpOperandEnd(src, p) && !castAt(i-1) {
			continue
		}
		first := toks[i+1]
		w := word(first)
		if w == "new" && phpNewGroup(src, toks, i, c, match) {
			drop.mark(i, len(toks))
			drop.mark(c, len(toks))
			continue
		}
		if c == i+2 && phpCasts[w] || w != "" && phpKeywords[w] && !phpPrimaryWords[w] ||
			first.kind == cNumber || first.kind == cVerbatim && '0' <= src[first.start] && src[first.start] <= '9' {
			continue
		}
		if (w == "self" || w == "parent" || w == "static") && !(c > i+2 && is(src, toks[i+2], "::")) {
			continue
		}
		primary := true
		for k := i + 1; k < c && primary; k++ {
			t := toks[k]
			switch {
			case match[k] > k && !isByte(src, t, '{') || isByte(src, t, '{') && k > i+1 && is(src, toks[k-1], "->"):
				k = match[k]
			case word(t) != "" && (k == i+1 || !phpKeywords[word(t)] || is(src, toks[k-1], "->") || is(src, toks[k-1], "::")),
				src[t.start] == '$', isByte(src, t, '\\'), is(src, t, "->"), is(src, t, "::"),
				isByte(src, t, '?') && k+1 < c && is(src, toks[k+1], "->"),
				k == i+1 && (t.kind == cQuoted || src[t.start] == '\'' || src[t.start] == '"'):
			default:
				primary = false
			}
		}
		if primary {
			drop.mark(i, len(toks))
			drop.mark(c, len(toks))
		}
	}
	return compact(toks, drop)
}

// phpNewGroup reports a group toks[i..c] that holds an object's
// creation, "new A(…)" or "new A", followed by a member access, a static
// one or an index: PHP 8.4 reads "new A()->m()" as "(new A())->m()",
// and earlier versions do not parse it.
func phpNewGroup(src []byte, toks []ctok, i, c int, match []int) bool {
	if c+1 >= len(toks) || !is(src, toks[c+1], "->") && !is(src, toks[c+1], "::") && !isByte(src, toks[c+1], '[') &&
		!(isByte(src, toks[c+1], '?') && c+2 < len(toks) && is(src, toks[c+2], "->")) {
		return false
	}
	k := i + 2
	for k < c && (isByte(src, toks[k], '\\') || toks[k].kind == cVerbatim && isIdentStart(src[toks[k].start])) {
		k++
	}
	if k < c && isByte(src, toks[k], '(') && match[k] > k {
		k = match[k] + 1
	}
	return k == c && c > i+2
}

var (
	// phpOperandWords are the words after which an operand starts.
	phpOperandWords = set("return", "echo", "print", "yield", "throw", "and", "or", "xor")
	// phpPrimaryWords are the keywords that begin a primary.
	phpPrimaryWords = set("isset", "empty", "array", "self", "parent", "static")
)

// dropPHPBlockBraces drops the braces of a block that holds one simple
// statement (one ";", its last token, at the block's top) after the
// condition of if, elseif, while, for or foreach, or after else: "if
// ($a) { return; }" is "if ($a) return;". A statement that is itself
// an if (which an else after the block would join), a loop, a switch, a
// try or a block keeps them.
func dropPHPBlockBraces(sc *scratch, src []byte, toks []ctok) []ctok {
	match := sc.brackets(src, toks)
	var drop dropMask
	for i := 1; i < len(toks); i++ {
		m := match[i]
		if !isByte(src, toks[i], '{') || m <= i+1 || !isByte(src, toks[m-1], ';') {
			continue
		}
		p := toks[i-1]
		head := is(src, p, "else")
		if isByte(src, p, ')') && match[i-1] > 0 {
			k := toks[match[i-1]-1]
			head = k.kind == cElseIf || is(src, k, "if") || is(src, k, "elseif") || is(src, k, "while") ||
				is(src, k, "for") || is(src, k, "foreach")
		}
		if !head || phpCompound[string(src[toks[i+1].start:toks[i+1].end])] || toks[i+1].kind == cElseIf ||
			topHas(toks, i, m-1, match, func(t ctok) bool { return isByte(src, t, ';') }) {
			continue
		}
		drop.mark(i, len(toks))
		drop.mark(m, len(toks))
	}
	return compact(toks, drop)
}

// phpCompound are the words that begin a statement holding statements.
var phpCompound = set("if", "elseif", "else", "while", "do", "for", "foreach", "switch", "try", "declare", "{")

// phpPrec is the precedence of PHP's binary operators, tighter higher
// (PHP 8: "." below "+" and "<<"); phpPrefixNot is "!"'s, which binds
// looser than instanceof.
var phpPrec = map[string]int{"or": 1, "xor": 2, "and": 3, "??": 6, "||": 7, "&&": 8, "|": 9, "^": 10, "&": 11,
	"==": 12, "!=": 12, "===": 12, "!==": 12, "<>": 12, "<=>": 12, "<": 13, "<=": 13, ">": 13, ">=": 13,
	".": 14, "<<": 15, ">>": 15, "+": 16, "-": 16, "*": 17, "/": 17, "%": 17, "instanceof": 19, "**": 20}

const phpPrefixNot = 18

// dropPHPPrecedenceParens drops the parentheses around a binary operation
// that its neighbours would group the same way without them: both bind
// less tightly, or on the right equally and to the left ("(a - b) - c"),
// or on the left equally where the operator associates ("a && (b && c)",
// "a . (b . c)", "a ?? (b ?? c)"); after "!" only an instanceof
// ("!($a instanceof B)"). Not around a conditional, ** or a comma. And around
// an assignment to a variable that ends an operation's right operand or
// follows "!" ("false !== ($p = f())", "!($a = f())"): PHP reads the
// assignment whole there.
func dropPHPPrecedenceParens(sc *scratch, src []byte, toks []ctok) []ctok {
	op := func(k int) int { // the precedence of a binary operator at toks[k], or 0
		t := toks[k]
		if t.kind != cVerbatim || k == 0 || !phpOperandEnd(src, toks[k-1]) {
			return 0
		}
		return phpPrec[strings.ToLower(string(src[t.start:t.end]))]
	}
	start := func(t ctok) bool { // an expression starts after t, a conditional's branch too
		return phpExprStart(src, t) || isByte(src, t, '?') || isByte(src, t, ':') || is(src, t, "?:") ||
			t.kind == cPHP && t.tag == phpElvis
	}
	end := func(t ctok) bool { // an expression ends before t
		return isByte(src, t, ')') || isByte(src, t, ',') || isByte(src, t, ']') || isByte(src, t, ';') ||
			isByte(src, t, '?') || isByte(src, t, ':') || t.kind == cPHP && t.tag == phpElvis || is(src, t, "?:") ||
			is(src, t, "=>") || is(src, t, "as") || isByte(src, t, '}')
	}
	for pass := 0; pass < 8; pass++ {
		match := sc.brackets(src, toks)
		var drop dropMask
		moved := false
		for o := 1; o < len(toks); o++ {
			c := match[o]
			if !isByte(src, toks[o], '(') || c <= o+1 || c+1 >= len(toks) || phpOperandEnd(src, toks[o-1]) {
				continue
			}
			top, assign, cond, ok := 100, 0, false, true
			q := 0 // the first assignment's operator
			for k := o + 1; k < c && ok; k++ {
				if m := match[k]; m > k {
					k = m
					continue
				}
				t := toks[k]
				switch {
				case isByte(src, t, '=') || compoundAssign(src, t):
					assign++
					if q == 0 {
						q = k
					}
				case isByte(src, t, '?') || isByte(src, t, ':') || is(src, t, "?:") || t.kind == cPHP && t.tag == phpElvis:
					cond = true
					ok = q > 0 // a conditional's part may be an assignment, or the assignment's value a conditional
				case t.kind == cPHP || isByte(src, t, ',') || is(src, t, "=>") || has(phpLooser, src, t) || is(src, t, "**"):
					ok = false
				default:
					if p := op(k); p > 0 && q == 0 {
						top = min(top, p)
					}
				}
			}
			if !ok || cond && assign == 0 {
				continue
			}
			inward := false
			if assign > 0 && src[toks[o+1].start] != '$' {
				// "(null !== $a = f())": an operation whose right operand
				// is an assignment, which takes the rest of the group. It
				// is read as "null !== ($a = f())", the parentheses moved
				// in to the assignment, where its neighbours would group
				// the operation the same way without them.
				if q < o+3 || src[toks[q-1].start] != '$' || op(q-2) == 0 || top == 100 {
					continue
				}
				assign, inward = 0, true
			}
			p := toks[o-1]
			pl := op(o - 1)
			if assign > 0 {
				// an assignment to a variable, whole, as the right operand
				if assign > 1 || src[toks[o+1].start] != '$' || pl == 0 && !is(src, p, "!") || !end(toks[c+1]) {
					continue
				}
			} else {
				if top == 100 {
					continue // a primary: dropPHPPrimaryParens's
				}
				switch {
				case pl > 0: // equal on the left where the operator associates; ?? groups to the right
					if top < pl || top == pl && pl != 6 && pl != 7 && pl != 8 && pl != 14 {
						continue
					}
				case is(src, p, "!"):
					if top <= phpPrefixNot {
						continue
					}
				case !start(p):
					continue
				}
				if pr := op(c + 1); pr > 0 {
					if top < pr || top == pr && (pr == 6 || pr == 12 || pr == 13) {
						continue
					}
				} else if !end(toks[c+1]) {
					continue
				}
			}
			if inward {
				// toks[o] goes to just before the assigned variable;
				// tokens keep the positions of their places.
				pos := toks[q-2].pos
				for k := q - 2; k > o; k-- {
					toks[k].pos = toks[k-1].pos
				}
				open := toks[o]
				copy(toks[o:q-2], toks[o+1:q-1])
				open.pos = pos
				toks[q-2] = open
				moved = true
				o = c
				continue
			}
			drop.mark(o, len(toks))
			drop.mark(c, len(toks))
			o = c
		}
		if drop == nil && !moved {
			return toks
		}
		toks = compact(toks, drop)
	}
	return toks
}

// phpShortArrays reads "array(…)" and "list(…)" as "[…]", the short
// syntax PHP 5.4 and 7.1 added for them: the word is dropped and its
// parentheses are written as brackets. Not a method or constant named so
// ("->list(", "::array(") nor a function declared so.
func phpShortArrays(sc *scratch, src []byte, toks []ctok) []ctok {
	match := sc.brackets(src, toks)
	var drop dropMask
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != cVerbatim || !isIdentStart(src[t.start]) || !isByte(src, toks[i+1], '(') || match[i+1] < 0 {
			continue
		}
		w := strings.ToLower(string(src[t.start:t.end]))
		if w != "array" && w != "list" || i > 0 && (is(src, toks[i-1], "->") || is(src, toks[i-1], "::") ||
			is(src, toks[i-1], "function") || isByte(src, toks[i-1], '\\')) {
			continue
		}
		drop.mark(i, len(toks))
		toks[i+1].kind, toks[i+1].tag = cPHP, phpOpenSquare
		toks[match[i+1]].kind, toks[match[i+1]].tag = cPHP, phpCloseSquare
	}
	return compact(toks, drop)
}

// phpLogicalWords marks "or" and "and" at the top of a parenthesised
// group to be written "||" and "&&" (PHP-CS-Fixer's logical_operators):
// they differ only in binding looser than an assignment, a conditional,
// "??" and each other. So the group holds none of those ("=", "?", "??",
// xor, print, yield, throw, a comma or an arrow), and "and" no "||" or
// "or" ("a and b || c" is "a && (b || c)", not "a && b || c"); "or"
// beside "&&" is "||" beside it ("a or b && c" is "a || b && c").
func phpLogicalWords(sc *scratch, src []byte, toks []ctok) {
	if !parenAfter(src, toks, func(p ctok) bool { return true }) {
		return
	}
	match := sc.brackets(src, toks)
	word := func(t ctok, w string) bool {
		return t.kind == cVerbatim && strings.EqualFold(string(src[t.start:t.end]), w)
	}
	for o := 0; o < len(toks); o++ {
		c := match[o]
		if !isByte(src, toks[o], '(') || c <= o+1 {
			continue
		}
		var or, and, orOp, bad bool
		for k := o + 1; k < c && !bad; k++ {
			if m := match[k]; m > k {
				k = m
				continue
			}
			t := toks[k]
			switch {
			case word(t, "or"):
				or = true
			case word(t, "and"):
				and = true
			case is(src, t, "||"):
				orOp = true
			case isByte(src, t, '=') || compoundAssign(src, t) || isByte(src, t, '?') || is(src, t, "?:") ||
				is(src, t, "??") || t.kind == cPHP || isByte(src, t, ',') || is(src, t, "=>") ||
				word(t, "xor") || word(t, "print") || word(t, "yield") || word(t, "throw") || word(t, "fn") || word(t, "function"):
				bad = true
			}
		}
		if bad || !or && !and || and && (or || orOp) {
			continue
		}
		for k := o + 1; k < c; k++ {
			if m := match[k]; m > k {
				k = m
				continue
			}
			switch t := toks[k]; {
			case word(t, "or"):
				toks[k].kind, toks[k].tag = cPHP, phpOr
			case word(t, "and"):
				toks[k].kind, toks[k].tag = cPHP, phpAnd
			}
		}
	}
}
