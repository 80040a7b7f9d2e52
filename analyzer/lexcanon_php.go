package analyzer

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
//     there).

var phpSyntax = &exprSyntax{
	looser: set("and", "or", "xor"),
}

// canonPHP returns the canonical stream of PHP source.
func canonPHP(sc *scratch, src []byte, out []ctok) []ctok {
	toks := canonRules(sc, phpRules, src, out)
	toks = joinElseIf(src, toks)
	toks = dropWholeExprParens(sc, src, toks, phpSyntax)
	return dropPHPStatementParens(sc, src, toks)
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
