package analyzer

import "bytes"

// canonCpp returns the canonical stream of C++: the rules scanner's
// (cppRules, which leaves out the backslashes that continue a line), with
// each >> that may close two template argument lists read as two >
// (splitShifts), string literals written next to each other as the one
// literal the compiler makes of them, as C's are (joinAdjacent), and runs
// of using-declarations and of #include lines in one order (sortUsings,
// sortIncludes).
func canonCpp(sc *scratch, src []byte, out []ctok) []ctok {
	toks := joinAdjacent(src, splitShifts(src, canonRules(sc, cppRules, src, out)))
	sortUsings(src, toks)
	sortIncludes(src, toks)
	return toks
}

// sortUsings puts each run of two or more using-declarations that name a
// qualified name (using std::swap;) in the order of their canonical text:
// clang-format sorts them (SortUsingDeclarations). Their order means
// nothing: each brings one name into the scope, and none can name what
// another brings in (a using-declaration names no namespace, and outside
// a class no class member) — but an enumerator, since C++20, through an
// enumeration another one brings in (using ns::E; using E::kRed;): a run
// where one starts with the name another ends with stays as written.
// Aliases (using T = …;), using-directives and declarations of anything
// but names (using Base::operator=;) end a run. A run is sorted only when
// each of its declarations is on lines of its own, as clang-format
// writes them.
func sortUsings(src []byte, toks []ctok) {
	word := func(k int) string {
		if k >= len(toks) || toks[k].kind != cVerbatim {
			return ""
		}
		return string(src[toks[k].start:toks[k].end])
	}
	// usingAt returns the end (after its ;) of the using-declaration
	// starting at k and its first and last names, or 0.
	usingAt := func(k int) (end int, first, last string) {
		if word(k) != "using" {
			return 0, "", ""
		}
		if k > 0 {
			switch p := toks[k-1]; {
			case p.kind == cNewline:
			case p.kind == cVerbatim && (word(k-1) == ";" || word(k-1) == "{" || word(k-1) == "}" || word(k-1) == ":"):
			default:
				return 0, "", ""
			}
		}
		j := k + 1
		if word(j) == "typename" {
			j++
		}
		qualified := false
		for ; j < len(toks); j++ {
			w := word(j)
			switch {
			case w == "::":
				qualified = true
			case w == ";":
				if !qualified || last == "" {
					return 0, "", ""
				}
				return j + 1, first, last
			case w != "" && isIdentByte(w[0]) && !isDigit(w[0]) && w != "namespace" && w != "enum" && w != "operator" && w != "typename" && w != "template":
				if first == "" {
					first = w
				}
				last = w
			default:
				return 0, "", ""
			}
		}
		return 0, "", ""
	}
	for i := 0; i < len(toks); i++ {
		var segs [][2]int
		firsts, lasts := map[string]bool{}, map[string]bool{}
		k := i
		for {
			end, first, last := usingAt(k)
			if end == 0 {
				break
			}
			segs = append(segs, [2]int{k, end})
			firsts[first], lasts[last] = true, true
			k = end
		}
		if len(segs) < 2 {
			continue
		}
		independent := true
		for f := range firsts {
			independent = independent && !lasts[f]
		}
		// each on lines of its own, so that no range takes in part of a
		// run with other code: the tokens move to each other's places
		ownLines := k == len(toks) || ownLine(src, toks[k-1].end, toks[k].start)
		for _, g := range segs {
			ownLines = ownLines && (g[0] == 0 || ownLine(src, toks[g[0]-1].end, toks[g[0]].start))
		}
		if independent && ownLines {
			sortSegments(src, toks, segs[0][0], k, segs)
		}
		i = k - 1
	}
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

// ownLine reports whether a line break stands between two tokens, the
// one ending at a and the next starting at b.
func ownLine(src []byte, a, b int32) bool {
	return a <= b && bytes.IndexByte(src[a:b], '\n') >= 0
}
