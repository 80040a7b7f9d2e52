package analyzer

// canonCpp returns the canonical stream of C++: the rules scanner's
// (cppRules, which leaves out the backslashes that continue a line), with
// each >> that may close two template argument lists read as two >
// (splitShifts) and string literals written next to each other as the
// one literal the compiler makes of them, as C's are (joinLiterals).
func canonCpp(sc *scratch, src []byte, out []ctok) []ctok {
	toks := splitShifts(src, canonRules(sc, cppRules, src, out))
	return joinLiterals(toks, func(i int) bool { return cString(src, toks[i]) }, func(j int) (int, bool) {
		k := j + 1
		return k, k < len(toks) && cString(src, toks[k]) && spacing(src[toks[j].end:toks[k].start]) &&
			!escapeContinues(src[toks[j].start+1:toks[j].end-1], src[toks[k].start+1])
	})
}

// splitShifts writes each >> token as two > tokens, but the one that
// names an operator (operator>>): clang-format's C++03 styles write
// A<B<C>> as A<B<C> >, and since C++11 a >> that ends a template argument
// list is the two > that close two lists. Elsewhere >> shifts, and > >
// in its place cannot be read at all: a > compares, and no operand
// starts with >.
func splitShifts(src []byte, toks []ctok) []ctok {
	n := 0
	for i := range toks {
		if isShift(src, toks, i) {
			n++
		}
	}
	if n == 0 {
		return toks
	}
	out := make([]ctok, 0, len(toks)+n)
	for i, t := range toks {
		if !isShift(src, toks, i) {
			out = append(out, t)
			continue
		}
		a, b := t, t
		a.end = t.start + 1
		b.pos, b.start = t.pos+1, t.start+1
		out = append(out, a, b)
	}
	return out
}

// isShift reports a >> token that does not follow the word operator.
func isShift(src []byte, toks []ctok, i int) bool {
	t := toks[i]
	if t.kind != cVerbatim || t.end-t.start != 2 || src[t.start] != '>' || src[t.start+1] != '>' {
		return false
	}
	if i > 0 {
		p := toks[i-1]
		if p.kind == cVerbatim && string(src[p.start:p.end]) == "operator" {
			return false
		}
	}
	return true
}
