package analyzer

import "bytes"

// canonCLang returns the canonical stream of C: C's rules, without the
// backslashes that continue a line (a macro's lines: the compiler splices
// them before it reads a token, and clang-format moves them as it
// rewraps), with string literals written next to each other as the
// one literal the compiler makes of them (clang-format splits a long one:
// "a b" becomes "a "\n"b"), and runs of #include lines in one order
// (sortIncludes).
func canonCLang(sc *scratch, src []byte, spans []span, out []ctok) []ctok {
	toks := canonC(sc, src, spans, out)
	var drop dropMask
	for i, t := range toks {
		if isByte(src, t, '\\') && int(t.end) < len(src) && (src[t.end] == '\n' || src[t.end] == '\r') {
			drop.mark(i, len(toks))
		}
	}
	toks = joinAdjacent(src, compact(toks, drop))
	sortIncludes(src, toks)
	return toks
}

// sortIncludes puts each run of two or more #include (or #import) lines,
// with nothing but blank lines and comments between them, in the order of
// their canonical text: clang-format sorts each block of them
// (SortIncludes) and, in Google's styles, regroups the blocks by kind, so
// a run reads as the headers it includes, however they are grouped. A run
// with a comment among its lines keeps its order as written: that is
// where code says a header must come before another (htop's
// "needs to be included before <sys/jail.h>"), and moving one there is an
// edit. Another directive (#define, #if) ends a run, as it does
// clang-format's.
func sortIncludes(src []byte, toks []ctok) {
	// directive returns the end of the #include line at toks[i] (the
	// index past its last token), or 0.
	directive := func(i int) int {
		if i+1 >= len(toks) || !isByte(src, toks[i], '#') || i > 0 && !ownLine(src, toks[i-1].end, toks[i].start) {
			return 0
		}
		if w := toks[i+1]; !is(src, w, "include") && !is(src, w, "import") && !is(src, w, "include_next") {
			return 0
		}
		k := i + 2
		for k < len(toks) && !ownLine(src, toks[k-1].end, toks[k].start) {
			k++
		}
		return k
	}
	// commented reports whether a comment stands among the run's lines
	// or after its last: where code says why its headers come in order.
	commented := func(segs [][2]int) bool {
		end := int(toks[segs[len(segs)-1][1]-1].end)
		if nl := bytes.IndexByte(src[end:], '\n'); nl >= 0 {
			end += nl
		} else {
			end = len(src)
		}
		text := src[toks[segs[0][0]].start:end]
		return bytes.Contains(text, []byte("//")) || bytes.Contains(text, []byte("/*"))
	}
	eachRun(len(toks), directive, func(segs [][2]int, to int) {
		if !commented(segs) {
			sortSegments(src, toks, segs[0][0], to, segs)
		}
	})
}

// joinAdjacent joins the plain string literals of C and C++ written next
// to each other, with nothing but blanks between them, into
// the one literal the compiler makes, but where an escape would run on
// into the next one ("\x1" "2").
func joinAdjacent(src []byte, toks []ctok) []ctok {
	return joinLiterals(toks, cJoined, func(i int) bool { return cString(src, toks[i]) }, func(j int) (int, bool) {
		k := j + 1
		return k, k < len(toks) && cString(src, toks[k]) && spacing(src[toks[j].end:toks[k].start]) &&
			!escapeContinues(src[toks[j].start+1:toks[j].end-1], src[toks[k].start+1])
	})
}

// joinLiterals writes each run of string literals as one token of kind
// joined, which spells the literal they make (appendJoined,
// appendPyJoined). first says whether toks[i] may start a run; next
// returns the index of the literal that continues a run whose last
// literal is toks[j], and whether one does.
func joinLiterals(toks []ctok, joined ckind, first func(i int) bool, next func(j int) (int, bool)) []ctok {
	var drop dropMask
	for i := 0; i < len(toks); i++ {
		if !first(i) {
			continue
		}
		j := i
		for k, ok := next(j); ok; k, ok = next(j) {
			for d := j + 1; d <= k; d++ {
				drop.mark(d, len(toks))
			}
			j = k
		}
		if j > i {
			toks[i].end, toks[i].kind = toks[j].end, joined
			i = j
		}
	}
	return compact(toks, drop)
}

// cString reports a plain string literal ("…", no prefix) of at least its
// two quotes.
func cString(src []byte, t ctok) bool {
	b := src[t.start:t.end]
	return t.kind == cVerbatim && len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"'
}

// spacing reports blanks and line-continuing backslashes: what may stand
// between literals a compiler joins.
func spacing(b []byte) bool {
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
	return i < len(content) && i >= 2 && content[i-1] == 'x' && content[i-2] == '\\' && isHexDigit(next) && unescaped(content, i-2)
}

// unescaped reports whether the backslash at content[i] starts an escape:
// an even number of backslashes stands before it.
func unescaped(content []byte, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && content[k] == '\\'; k-- {
		n++
	}
	return n%2 == 0
}
