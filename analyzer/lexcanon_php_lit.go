package analyzer

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// PHP's string literals in the canonical stream (see canonPHP).

// phpStrings writes each string literal by its value, and a run of them
// joined by "." as the one literal they make ('a' . "b\n" is "ab" and a
// line end). A run starts after no operator that binds tighter than "."
// (arithmetic, shifts, a prefix operator, a cast) and ends before one,
// or an index or a member access; a literal that interpolates is none.
// A heredoc's opener whose body interpolates nothing and holds no escape
// is written as a nowdoc's, and a body without the indentation of its
// terminator.
func phpStrings(src []byte, toks []ctok) []ctok {
	lit := func(i int) bool {
		t := toks[i]
		if t.kind != cVerbatim && t.kind != cQuoted {
			return false
		}
		b := src[t.start:t.end]
		if len(b) < 2 || (b[0] != '\'' && b[0] != '"') || b[len(b)-1] != b[0] {
			return false
		}
		_, ok := phpValue(nil, b)
		return ok
	}
	tight := func(t ctok) bool {
		return t.kind == cVerbatim && phpTighter[string(src[t.start:t.end])]
	}
	var drop dropMask
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == cVerbatim && bytes.HasPrefix(src[t.start:t.end], []byte("<<<")) && i+1 < len(toks) {
			if !bytes.ContainsAny(src[toks[i+1].start:toks[i+1].end], `\$`) {
				toks[i].kind, toks[i].tag = cPHP, phpNowdoc
			}
			toks[i+1].kind, toks[i+1].tag = cPHP, phpHeredoc
			i++
			continue
		}
		if !lit(i) {
			continue
		}
		j := i
		if i == 0 || !tight(toks[i-1]) && !isByte(src, toks[i-1], ')') {
			for j+2 < len(toks) && isByte(src, toks[j+1], '.') && lit(j+2) &&
				spacing(src[toks[j].end:toks[j+1].start]) && spacing(src[toks[j+1].end:toks[j+2].start]) {
				j += 2
			}
			for j > i && j+1 < len(toks) && (tight(toks[j+1]) || isByte(src, toks[j+1], '[') || isByte(src, toks[j+1], '{')) {
				j -= 2 // the last literal is the operand of what follows
			}
		}
		for d := i + 1; d <= j; d++ {
			drop.mark(d, len(toks))
		}
		toks[i].kind, toks[i].tag, toks[i].end = cPHP, phpString, toks[j].end
		i = j
	}
	return compact(toks, drop)
}

// phpTighter are the operators that bind tighter than "." (PHP 8: the
// arithmetic ones and the shifts), and the prefix ones.
var phpTighter = set("+", "-", "*", "/", "%", "**", "<<", ">>", "!", "~", "@", "->", "::", "instanceof")

// appendPHPHeredoc appends a heredoc's body and terminator with the
// terminator's indentation removed from each line, as PHP (7.3 and
// later) reads it.
func appendPHPHeredoc(buf, text []byte) []byte {
	lines := bytes.SplitAfter(text, []byte("\n"))
	last := lines[len(lines)-1]
	cut := len(last) - len(bytes.TrimLeft(last, " \t"))
	for _, l := range lines {
		buf = append(buf, l[min(cut, blanks(l)):]...)
	}
	return buf
}

// appendPHPValue appends the value of the string literals of text (those
// phpStrings joined, with the "." and blanks between them), between
// quotes.
func appendPHPValue(buf, text []byte) []byte {
	buf = append(buf, "\x01'"...) // never a string kept as written
	for i := 0; i < len(text); i++ {
		q := text[i]
		if q != '\'' && q != '"' {
			continue
		}
		j := i + 1
		for j < len(text) && text[j] != q {
			if text[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(text) {
			break
		}
		v, _ := phpValue(nil, text[i:j+1])
		for _, c := range v {
			if c == '\\' || c == '\'' {
				buf = append(buf, '\\')
			}
			buf = append(buf, c)
		}
		i = j
	}
	return append(buf, '\'')
}

// phpValue appends to buf the value of the string literal lit ('…' or
// "…"); ok is false when lit interpolates ("$a", "{$a}").
func phpValue(buf, lit []byte) ([]byte, bool) {
	q, body := lit[0], lit[1:len(lit)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		if q == '"' && c == '$' && i+1 < len(body) && (isIdentStart(body[i+1]) || body[i+1] == '{') ||
			q == '"' && c == '{' && i+1 < len(body) && body[i+1] == '$' {
			return buf, false
		}
		if c != '\\' || i+1 == len(body) {
			buf = append(buf, c)
			continue
		}
		n := body[i+1]
		if q == '\'' {
			if n == '\\' || n == '\'' {
				i++
				c = n
			}
			buf = append(buf, c)
			continue
		}
		i++
		switch n {
		case 'n':
			buf = append(buf, '\n')
		case 't':
			buf = append(buf, '\t')
		case 'r':
			buf = append(buf, '\r')
		case 'v':
			buf = append(buf, '\v')
		case 'e':
			buf = append(buf, 0x1b)
		case 'f':
			buf = append(buf, '\f')
		case '\\', '$', '"':
			buf = append(buf, n)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, k := 0, i
			for k < len(body) && k < i+3 && '0' <= body[k] && body[k] <= '7' {
				v = v*8 + int(body[k]-'0')
				k++
			}
			buf = append(buf, byte(v))
			i = k - 1
		case 'x':
			v, k := 0, i+1
			for k < len(body) && k < i+3 && hexDigit(body[k]) >= 0 {
				v = v*16 + hexDigit(body[k])
				k++
			}
			if k == i+1 {
				buf = append(buf, '\\', 'x')
				continue
			}
			buf = append(buf, byte(v))
			i = k - 1
		case 'u':
			e := bytes.IndexByte(body[i:], '}')
			if i+1 >= len(body) || body[i+1] != '{' || e < 0 {
				buf = append(buf, '\\', 'u')
				continue
			}
			r, err := strconv.ParseUint(string(body[i+2:i+e]), 16, 32)
			if err != nil {
				buf = append(buf, '\\', 'u')
				continue
			}
			buf = utf8.AppendRune(buf, rune(r))
			i += e
		default:
			buf = append(buf, '\\', n)
		}
	}
	return buf, true
}

// hexDigit is c's value as a hexadecimal digit, or -1.
func hexDigit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}
