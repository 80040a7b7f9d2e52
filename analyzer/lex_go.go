package analyzer

// goFastTokens tokenizes well-formed Go source byte by byte, giving the
// same spans as goLexer's go/scanner pass (comments and semicolons
// dropped) at a fraction of its cost: no token.File, no literal strings.
// It gives up (ok false) on anything go/scanner would report as an error
// or that needs Unicode tables — a byte order mark, a non-ASCII byte
// outside literals and comments, an illegal character, an unterminated
// literal or comment, a backslash before a line break — and the caller
// then falls back to go/scanner, so the result never differs from it.
func goFastTokens(src []byte, out []span) ([]span, bool) {
	n := len(src)
	if n >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		return out, false
	}
	i := 0
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				if src[i] == 0 {
					return out, false
				}
				i++
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := i + 2
			for {
				if j+1 >= n {
					return out, false // not terminated
				}
				if src[j] == '*' && src[j+1] == '/' {
					break
				}
				if src[j] == 0 {
					return out, false
				}
				j++
			}
			i = j + 2
			continue
		case goIdentStart(c):
			j := i + 1
			for j < n && (goIdentStart(src[j]) || isDigit(src[j])) {
				j++
			}
			if j < n && src[j] >= 0x80 {
				return out, false // a Unicode letter or an illegal character
			}
			out = append(out, span{i, j})
			i = j
			continue
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(src[i+1])):
			j := goNumberEnd(src, i)
			out = append(out, span{i, j})
			i = j
			continue
		case c == '"' || c == '\'':
			j := i + 1
			for {
				if j >= n || src[j] == '\n' || src[j] == 0 {
					return out, false
				}
				if src[j] == '\\' {
					if j+1 >= n || src[j+1] == '\n' || src[j+1] == 0 {
						return out, false
					}
					j += 2
					continue
				}
				j++
				if src[j-1] == c {
					break
				}
			}
			out = append(out, span{i, j})
			i = j
			continue
		case c == '`':
			j := i + 1
			for j < n && src[j] != '`' {
				if src[j] == 0 {
					return out, false
				}
				j++
			}
			if j >= n {
				return out, false
			}
			out = append(out, span{i, j + 1})
			i = j + 1
			continue
		case c == ';':
			i++
			continue
		}
		l := goOperatorLen(src, i)
		if l == 0 {
			return out, false
		}
		out = append(out, span{i, i + l})
		i += l
	}
	return out, true
}

func goIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// goNumberEnd follows go/scanner's scanNumber: the digits of the base
// (all decimal digits below base 16) and '_', a fraction, an exponent
// ('e' for decimal, 'p' for hexadecimal, either accepted), an 'i' suffix.
func goNumberEnd(src []byte, i int) int {
	n := len(src)
	hex := false
	digits := func(j int) int {
		for j < n && (src[j] == '_' || isDigit(src[j]) || (hex && isHexDigit(src[j]))) {
			j++
		}
		return j
	}
	j := i
	if src[j] != '.' {
		if src[j] == '0' && j+1 < n {
			switch src[j+1] | 0x20 {
			case 'x':
				hex = true
				j += 2
			case 'o', 'b':
				j += 2
			default:
				j++
			}
		}
		j = digits(j)
	}
	if j < n && src[j] == '.' {
		j = digits(j + 1)
	}
	if j < n && (src[j]|0x20 == 'e' || src[j]|0x20 == 'p') {
		j++
		if j < n && (src[j] == '+' || src[j] == '-') {
			j++
		}
		hex = false
		j = digits(j)
	}
	if j < n && src[j] == 'i' {
		j++
	}
	return j
}

// goOperatorLen is the length of the operator or delimiter at src[i]
// (longest match, as go/scanner), 0 for an illegal character.
func goOperatorLen(src []byte, i int) int {
	at := func(k int) byte {
		if i+k < len(src) {
			return src[i+k]
		}
		return 0
	}
	switch c := src[i]; c {
	case '(', ')', '[', ']', '{', '}', ',', '~':
		return 1
	case '.':
		if at(1) == '.' && at(2) == '.' {
			return 3
		}
		return 1
	case ':', '=', '!', '*', '/', '%', '^':
		if at(1) == '=' {
			return 2
		}
		return 1
	case '+', '-':
		if at(1) == '=' || at(1) == c {
			return 2
		}
		return 1
	case '&':
		switch at(1) {
		case '=', '&':
			return 2
		case '^':
			if at(2) == '=' {
				return 3
			}
			return 2
		}
		return 1
	case '|':
		if at(1) == '=' || at(1) == '|' {
			return 2
		}
		return 1
	case '<':
		switch at(1) {
		case '-', '=':
			return 2
		case '<':
			if at(2) == '=' {
				return 3
			}
			return 2
		}
		return 1
	case '>':
		switch at(1) {
		case '=':
			return 2
		case '>':
			if at(2) == '=' {
				return 3
			}
			return 2
		}
		return 1
	}
	return 0
}
