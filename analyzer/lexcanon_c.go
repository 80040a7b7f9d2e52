package analyzer

// canonCLang returns the canonical stream of C: C's rules, without the
// backslashes that continue a line (a macro's lines: the compiler splices
// them before it reads a token, and clang-format moves them as it
// rewraps), and with string literals written next to each other as the
// one literal the compiler makes of them (clang-format splits a long one:
// "a b" becomes "a "\n"b").
func canonCLang(sc *scratch, src []byte, spans []span, out []ctok) []ctok {
	toks := canonC(sc, src, spans, out)
	var drop dropMask
	for i, t := range toks {
		if isByte(src, t, '\\') && int(t.end) < len(src) && (src[t.end] == '\n' || src[t.end] == '\r') {
			drop.mark(i, len(toks))
		}
	}
	toks = compact(toks, drop)
	drop = nil
	for i := 0; i+1 < len(toks); i++ {
		if !cString(src, toks[i]) {
			continue
		}
		j := i
		for j+1 < len(toks) && cString(src, toks[j+1]) && onlyBlanksOrSplices(src[toks[j].end:toks[j+1].start]) &&
			!escapeContinues(src[toks[j].start+1:toks[j].end-1], src[toks[j+1].start+1]) {
			j++
		}
		if j == i {
			continue
		}
		toks[i].end, toks[i].kind = toks[j].end, cJoined
		for k := i + 1; k <= j; k++ {
			drop.mark(k, len(toks))
		}
		i = j
	}
	return compact(toks, drop)
}

// cString reports a plain string literal ("…", no prefix) of at least its
// two quotes.
func cString(src []byte, t ctok) bool {
	b := src[t.start:t.end]
	return t.kind == cVerbatim && len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"'
}

// onlyBlanksOrSplices reports blanks and line-continuing backslashes.
func onlyBlanksOrSplices(b []byte) bool {
	for i, c := range b {
		if c == '\\' && i+1 < len(b) && (b[i+1] == '\n' || b[i+1] == '\r') {
			continue
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}

// escapeContinues reports whether the content of a C literal ends with an
// escape that next, the first byte of the following literal's content,
// would continue: an octal one before an octal digit, a hexadecimal one
// before a hexadecimal digit ("\x1" "2" is not "\x12").
func escapeContinues(content []byte, next byte) bool {
	if octalEnd(content, next) {
		return true
	}
	i := len(content)
	for i > 0 && isHexDigit(content[i-1]) {
		i--
	}
	if i == len(content) || i < 2 || content[i-1] != 'x' || content[i-2] != '\\' || !isHexDigit(next) {
		return false
	}
	n := 0 // backslashes before the escape's: it escapes when they are even
	for k := i - 3; k >= 0 && content[k] == '\\'; k-- {
		n++
	}
	return n%2 == 0
}
