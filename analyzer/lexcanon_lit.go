package analyzer

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Literals in the canonical stream: numbers by value, strings by content.

// appendNumber appends the canonical spelling of the number literal lit
// read by lang's rules: letters in lower case, digit separators dropped,
// an integer as its decimal value, a decimal fraction as its exact decimal
// value ("1.50" and "15e-1" are "1.5"), a type suffix kept ("u8", "i",
// "j", "n"). An integer and a fraction stay distinct ("1" is not "1.0")
// but in JavaScript, where both are the same Number. A literal these rules
// do not read is kept as written, in lower case.
func appendNumber(buf, lit []byte, lang langCode) []byte {
	var b [64]byte
	s := b[:0]
	for _, c := range lit {
		switch {
		case c == '_' || (c == '\'' && lang == langC):
		case c >= 'A' && c <= 'Z':
			s = append(s, c+'a'-'A')
		default:
			s = append(s, c)
		}
	}
	if len(s) > 400 {
		return append(buf, s...)
	}
	base, digits := 10, s
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base, digits = 16, s[2:]
		case 'o':
			base, digits = 8, s[2:]
		case 'b':
			base, digits = 2, s[2:]
		}
	}
	n := 0 // the mantissa's digits (and the point and exponent, in base 10)
	for n < len(digits) && digitOf(digits[n]) < base {
		n++
	}
	if base == 16 && n < len(digits) && (digits[n] == '.' || digits[n] == 'p') {
		return append(buf, s...) // a hexadecimal fraction: as written
	}
	if base != 10 {
		if n == 0 {
			return append(buf, s...)
		}
		return appendInt(buf, digits[:n], base, digits[n:])
	}
	// Base 10: digits, a point and digits, an exponent.
	intEnd := n
	frac := n
	if frac < len(digits) && digits[frac] == '.' {
		// A point followed by a letter is a method call (Rust "1.max"),
		// which lexers do not hand here; a point before the digits ends.
		frac++
		for frac < len(digits) && isDigit(digits[frac]) {
			frac++
		}
	}
	end := frac
	if end+1 < len(digits) && digits[end] == 'e' {
		e := end + 1
		if digits[e] == '+' || digits[e] == '-' {
			e++
		}
		k := e
		for k < len(digits) && isDigit(digits[k]) {
			k++
		}
		if k > e {
			end = k
		}
	}
	suffix := digits[end:]
	if intEnd == 0 && frac == 0 {
		return append(buf, s...)
	}
	if end == intEnd { // an integer
		if lang == langRust && len(suffix) > 0 && suffix[0] == 'f' {
			return appendDecimal(buf, digits[:intEnd], nil, 0, lang, suffix) // 1f32 is a float
		}
		if digits[0] == '0' && intEnd > 1 && leadingZeroOctal(digits[1:intEnd], lang, suffix) {
			return appendInt(buf, digits[1:intEnd], 8, suffix)
		}
		return appendInt(buf, digits[:intEnd], 10, suffix)
	}
	var exp int64
	if end > frac {
		e, err := strconv.ParseInt(string(digits[frac+1:end]), 10, 32)
		if err != nil || e > 1<<20 || e < -(1<<20) {
			return append(buf, s...)
		}
		exp = e
	}
	var fracDigits []byte
	if frac > intEnd {
		fracDigits = digits[intEnd+1 : frac]
	}
	return appendDecimal(buf, digits[:intEnd], fracDigits, exp, lang, suffix)
}

// leadingZeroOctal reports whether an integer written with a leading zero
// and then digits is octal: in Go (but an imaginary "0755i", which is
// decimal), C and Java always, in JavaScript when every digit is octal
// ("08" is eight). Python and Rust have no such octal.
func leadingZeroOctal(digits []byte, lang langCode, suffix []byte) bool {
	switch lang {
	case langGo, langC, langJS:
	default:
		return false
	}
	if lang == langGo && len(suffix) > 0 && suffix[0] == 'i' {
		return false
	}
	for _, c := range digits {
		if c > '7' {
			return false
		}
	}
	return true
}

func digitOf(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return 99
}

// appendInt appends the decimal value of digits in base, then suffix.
func appendInt(buf, digits []byte, base int, suffix []byte) []byte {
	var v uint64
	over := false
	for _, c := range digits {
		d := uint64(digitOf(c))
		if v > (1<<64-1-d)/uint64(base) {
			over = true
			break
		}
		v = v*uint64(base) + d
	}
	if over {
		var z big.Int
		z.SetString(string(digits), base)
		buf = z.Append(buf, 10)
	} else {
		buf = strconv.AppendUint(buf, v, 10)
	}
	return append(buf, suffix...)
}

// appendDecimal appends the exact value intPart.fracPart × 10^exp: the
// significant digits around a point, with ".0" for a whole number (but in
// JavaScript) and an exponent when the value is very large or small.
func appendDecimal(buf, intPart, fracPart []byte, exp int64, lang langCode, suffix []byte) []byte {
	var b [64]byte
	d := append(append(b[:0], intPart...), fracPart...)
	exp -= int64(len(fracPart))
	for len(d) > 0 && d[0] == '0' {
		d = d[1:]
	}
	for len(d) > 0 && d[len(d)-1] == '0' {
		d = d[:len(d)-1]
		exp++
	}
	whole := lang == langJS
	if len(d) == 0 {
		buf = append(buf, '0')
		if !whole {
			buf = append(buf, ".0"...)
		}
		return append(buf, suffix...)
	}
	p := int64(len(d)) + exp // digits before the point
	switch {
	case p > 21 || p < -6:
		buf = append(buf, d[0])
		if len(d) > 1 {
			buf = append(buf, '.')
			buf = append(buf, d[1:]...)
		}
		buf = append(buf, 'e')
		buf = strconv.AppendInt(buf, p-1, 10)
	case p <= 0:
		buf = append(buf, "0."...)
		for i := int64(0); i < -p; i++ {
			buf = append(buf, '0')
		}
		buf = append(buf, d...)
	case p >= int64(len(d)):
		buf = append(buf, d...)
		for i := int64(len(d)); i < p; i++ {
			buf = append(buf, '0')
		}
		if !whole {
			buf = append(buf, ".0"...)
		}
	default:
		buf = append(buf, d[:p]...)
		buf = append(buf, '.')
		buf = append(buf, d[p:]...)
	}
	return append(buf, suffix...)
}

// appendQuoted appends a '…' or "…" string literal as `"` + its body + `"`
// with \' and \" written as the bare quote: two literals that differ only
// in their quotes, and so in which quote they escape, have the same
// content and the same canonical text. Every other escape is kept as
// written. A literal without its closing quote is kept as written.
func appendQuoted(buf, lit []byte) []byte {
	if len(lit) < 2 || lit[len(lit)-1] != lit[0] || (lit[0] != '\'' && lit[0] != '"') {
		return append(buf, lit...)
	}
	buf = append(buf, '"')
	buf = appendUnquoteEscapes(buf, lit[1:len(lit)-1])
	return append(buf, '"')
}

// appendUnquoteEscapes appends body with \' and \" written as the quote.
func appendUnquoteEscapes(buf, body []byte) []byte {
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\\' && i+1 < len(body) {
			if n := body[i+1]; n == '\'' || n == '"' {
				buf = append(buf, n)
			} else {
				buf = append(buf, c, n)
			}
			i++
			continue
		}
		buf = append(buf, c)
	}
	return buf
}

// appendPyString appends a Python string literal with its prefix in lower
// case, without the "u" that Python 3 ignores and with its letters in one
// order ("Rb" is "br"), then its body between double quotes: triple and
// single quotes alike, a raw body as written (in a raw string a backslash
// stays, whatever the quotes), any other with \' and \" as the bare quote.
// "r" is written exactly when the body is read as written and holds a
// backslash: a raw string without one is the plain string, and a plain
// string whose backslashes start no escape ("\s", which Python keeps as
// written) is the raw one, as a fix of invalid escapes writes it.
func appendPyString(buf, lit []byte) []byte {
	s, ok := pyLiteral(lit)
	if !ok {
		return append(buf, lit...)
	}
	buf = appendPyPrefix(buf, s.letters, s.raw)
	buf = append(buf, '"')
	buf = appendPyBody(buf, s)
	return append(buf, '"')
}

// appendPyJoined appends the literal that the adjacent Python string
// literals of b make (pyJoinStrings): their prefix, "f" and "r" if one of
// them has it, then their bodies between one pair of double quotes, each
// as appendPyString writes it, the braces of a plain piece doubled in an
// f-string (where "{{" is "{"). Blanks, line-continuing backslashes and
// comments stand between them.
func appendPyJoined(buf, b []byte) []byte {
	raw, letters := false, uint8(0)
	if !eachPyPiece(b, func(s pyStr) { raw, letters = raw || s.raw, letters|s.letters }) {
		return append(buf, b...) // not what pyJoinStrings joins
	}
	buf = appendPyPrefix(buf, letters, raw)
	buf = append(buf, '"')
	eachPyPiece(b, func(s pyStr) {
		if letters&pyF == 0 || s.letters&pyF != 0 {
			buf = appendPyBody(buf, s)
		} else {
			buf = appendBraces(buf, appendPyBody(nil, s))
		}
	})
	return append(buf, '"')
}

// eachPyPiece calls fn with each string literal of b, adjacent pieces
// with blanks, line-continuing backslashes and comments between them. It
// reports false, at the first, when one is no literal.
func eachPyPiece(b []byte, fn func(pyStr)) bool {
	for i := pySkipBetween(b, 0); i < len(b); i = pySkipBetween(b, i) {
		q := i // the quote, after the prefix
		for q < len(b) && b[q] != '\'' && b[q] != '"' {
			q++
		}
		if q == len(b) {
			return false
		}
		end := pyStringEnd(b, q)
		s, ok := pyLiteral(b[i:end])
		if !ok {
			return false
		}
		fn(s)
		i = end
	}
	return true
}

// appendBraces appends body with each brace doubled, as an f-string
// writes a brace that opens or closes no field.
func appendBraces(buf, body []byte) []byte {
	for _, c := range body {
		if c == '{' || c == '}' {
			buf = append(buf, c)
		}
		buf = append(buf, c)
	}
	return buf
}

// pySkipBetween returns the index of the first byte at or after i that is
// not a blank, a line-continuing backslash or a comment.
func pySkipBetween(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r', '\f', '\\':
			i++
		case '#':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// pyStr is a Python string literal as the canonical stream reads it.
type pyStr struct {
	letters uint8 // pyBytes, pyF, pyT: its prefix but u and r
	body    []byte
	raw     bool // read as written, and holds a backslash
	escaped bool // not raw, and holds an escape
}

// The letters of a string's prefix that change what it is.
const (
	pyBytes uint8 = 1 << iota
	pyF
	pyT
)

// pyLiteral reads a Python string literal; ok is false for one without
// its closing quotes. A raw string without a backslash is read as the
// plain string, and a plain string whose backslashes start no escape
// ("\s", which Python keeps as written) as the raw one.
func pyLiteral(lit []byte) (s pyStr, ok bool) {
	i := 0
	raw := false
	for i < len(lit) && lit[i] != '\'' && lit[i] != '"' {
		switch lit[i] | 0x20 {
		case 'r':
			raw = true
		case 'b':
			s.letters |= pyBytes
		case 'f':
			s.letters |= pyF
		case 't':
			s.letters |= pyT
		}
		i++
	}
	b := lit[i:]
	q := 1
	if len(b) >= 6 && b[1] == b[0] && b[2] == b[0] {
		q = 3
	}
	if i == len(lit) || len(b) < 2*q || string(b[len(b)-q:]) != string(b[:q]) {
		return pyStr{}, false
	}
	s.body = b[q : len(b)-q]
	if slices.Contains(s.body, '\\') {
		s.escaped = !raw && pyEscapes(s.body, s.letters&pyBytes != 0)
		s.raw = !s.escaped
	}
	return s, true
}

// appendPyPrefix appends a string prefix's letters in alphabetical order.
func appendPyPrefix(buf []byte, letters uint8, raw bool) []byte {
	if letters&pyBytes != 0 {
		buf = append(buf, 'b')
	}
	if letters&pyF != 0 {
		buf = append(buf, 'f')
	}
	if raw {
		buf = append(buf, 'r')
	}
	if letters&pyT != 0 {
		buf = append(buf, 't')
	}
	return buf
}

// pyEscapes reports whether a plain string's body holds an escape
// sequence: a backslash before a newline, a quote, a backslash, one of
// abfnrtv, an octal digit or x, or, but in bytes, N, u or U.
func pyEscapes(body []byte, isBytes bool) bool {
	for i := 0; i+1 < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		switch c := body[i+1]; c {
		case '\n', '\r', '\\', '\'', '"', 'a', 'b', 'f', 'n', 'r', 't', 'v', 'x':
			return true
		case 'N', 'u', 'U':
			if !isBytes {
				return true
			}
		default:
			if c >= '0' && c <= '7' {
				return true
			}
		}
	}
	return false
}

// appendPyBody appends a string's body: a raw one as written, any other
// with \' and \" as the bare quote, the hex digits of \x, \u and \U in
// lower case and the name of \N{...} in upper case (Python reads them
// either way; black writes them so). An f-string's replacement fields
// are read by pyField and their expressions written by appendPyExpr.
func appendPyBody(buf []byte, s pyStr) []byte {
	if s.letters&pyF == 0 {
		return appendPyText(buf, s.body, s)
	}
	b := s.body
	lit := 0 // where the text not yet written starts
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\\' && !s.raw && i+1 < len(b) && b[i+1] != '{':
			i++ // an escape; \N{…} holds a name in braces, no field
			if b[i] == 'N' && i+1 < len(b) && b[i+1] == '{' {
				for i < len(b) && b[i] != '}' {
					i++
				}
			}
		case b[i] == '{' && i+1 < len(b) && b[i+1] == '{':
			i++ // a brace, written twice
		case b[i] == '{':
			end, exprEnd, debug := pyField(b, i)
			if end < 0 {
				return appendPyText(buf, b, s) // unbalanced: read as written
			}
			buf = appendPyText(buf, b[lit:i], s)
			buf = append(buf, '{')
			if debug {
				buf = append(buf, b[i+1:exprEnd]...)
			} else {
				buf = appendPyExpr(buf, b[i+1:exprEnd])
			}
			buf = append(buf, b[exprEnd:end+1]...)
			i, lit = end, end+1
		}
	}
	return appendPyText(buf, b[lit:], s)
}

// appendPyText appends text of a string's body as appendPyBody writes
// it, outside replacement fields.
func appendPyText(buf, b []byte, s pyStr) []byte {
	if s.raw {
		return append(buf, b...)
	}
	isBytes := s.letters&pyBytes != 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			buf = append(buf, c)
			continue
		}
		n := b[i+1]
		i++
		width := 0
		switch {
		case n == '\'' || n == '"':
			buf = append(buf, n)
			continue
		case n == 'x':
			width = 2
		case n == 'u' && !isBytes:
			width = 4
		case n == 'U' && !isBytes:
			width = 8
		case n == 'N' && !isBytes && i+1 < len(b) && b[i+1] == '{':
			buf = append(buf, c, n)
			for i++; i < len(b) && b[i] != '}'; i++ {
				if x := b[i]; x >= 'a' && x <= 'z' {
					buf = append(buf, x-'a'+'A')
				} else {
					buf = append(buf, x)
				}
			}
			if i < len(b) {
				buf = append(buf, '}')
			}
			continue
		}
		buf = append(buf, c, n)
		for ; width > 0 && i+1 < len(b) && isHexDigit(b[i+1]); width-- {
			i++
			buf = append(buf, b[i]|0x20)
		}
	}
	return buf
}

// pyField reads the replacement field that opens at b[open]: end is its
// closing brace, exprEnd where its expression ends (at a conversion, a
// format spec or the closing brace), and debug whether the expression
// ends with "=", which prints its text. end is -1 when the field does
// not close.
func pyField(b []byte, open int) (end, exprEnd int, debug bool) {
	exprEnd = -1
	depth := 0
	for j := open + 1; j < len(b); j++ {
		c := b[j]
		switch {
		case c == '\'' || c == '"':
			j = pyStringEnd(b, j) - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case depth > 0:
			if c == ')' || c == ']' || c == '}' {
				depth--
			}
		case c == '}' || c == ':':
			if exprEnd < 0 {
				exprEnd = j
			}
			if c == '}' {
				return j, exprEnd, debug
			}
			// a format spec, read as written but for its nested fields
			for k, d := j+1, 0; k < len(b); k++ {
				switch b[k] {
				case '{':
					d++
				case '}':
					if d == 0 {
						return k, exprEnd, debug
					}
					d--
				}
			}
			return -1, 0, false
		case exprEnd >= 0: // the conversion
		case c == '!' && (j+1 >= len(b) || b[j+1] != '='):
			exprEnd = j
		case c == '=' && (j+1 >= len(b) || b[j+1] != '=') && !strings.ContainsRune("=!<>", rune(b[j-1])):
			debug = true
		}
	}
	return -1, 0, false
}

// appendPyExpr appends the canonical stream of a replacement field's
// expression, read as if in parentheses (a field's newlines are inside
// them), its tokens one blank apart: ruff writes {a+1} as {a + 1}, and
// {x,} as {(x,)}.
func appendPyExpr(buf, expr []byte) []byte {
	w := make([]byte, 0, len(expr)+2)
	w = append(append(append(w, '('), expr...), ')')
	var toks []ctok
	for _, t := range canonPython(nil, w, nil) {
		if !t.separator() {
			toks = append(toks, t)
		}
	}
	// A tuple keeps the parentheses it was read in: {n,} is {(n,)}.
	if n := len(toks); n >= 2 && isByte(w, toks[0], '(') && matchBrackets(w, toks, nil)[0] == n-1 {
		toks = toks[1 : n-1]
	}
	for k, t := range toks {
		if k > 0 {
			buf = append(buf, ' ')
		}
		buf = appendCanon(buf, w, t)
	}
	return buf
}

// numberEnd returns the end of the number literal at src[i] without its
// suffix: a 0x, 0o or 0b prefix and its digits, or decimal digits, a
// fraction (when fraction says the point at src[j] starts one) and an
// exponent, digit separators included.
func numberEnd(src []byte, i int, fraction func(j int) bool) int {
	n := len(src)
	j := i
	digits := func(j int, ok func(byte) bool) int {
		for j < n && (ok(src[j]) || src[j] == '_') {
			j++
		}
		return j
	}
	if src[j] == '0' && j+1 < n && (src[j+1]|0x20 == 'x' || src[j+1]|0x20 == 'o' || src[j+1]|0x20 == 'b') {
		return digits(j+2, isHexDigit)
	}
	j = digits(j, isDigit)
	if j < n && src[j] == '.' && fraction(j) {
		j = digits(j+1, isDigit)
	}
	if j < n && src[j]|0x20 == 'e' {
		k := j + 1
		if k < n && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < n && isDigit(src[k]) {
			j = digits(k, isDigit)
		}
	}
	return j
}

// anyPoint is numberEnd's fraction for languages where a point after
// digits always starts one ("1." is a number).
func anyPoint(int) bool { return true }

// longestOp returns the length of the longest of ops that src[i:] starts
// with, 1 when none does: an operator or delimiter.
func longestOp(src []byte, i int, ops []string) int {
	rest := src[i:]
	if len(rest) < 2 || !multiPunct(rest[1]) {
		return 1
	}
	for _, p := range ops {
		if len(rest) >= len(p) && string(rest[:len(p)]) == p {
			return len(p)
		}
	}
	return 1
}
