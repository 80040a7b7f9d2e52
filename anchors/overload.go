package anchors

import (
	"slices"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// Symbols of one file that share a qualified name (overloads, accessor
// pairs, merged declarations) are told apart by a selector written after
// the name in a symbol spec:
//
//   - "(T1,T2)" for functions and methods: the parameters, as types in
//     Java (erased: no type arguments, no package: "Map.Entry<K,V>" is
//     "Entry"), TypeScript, C and C++, as names in JavaScript and Python
//     (without self and cls). Spaces do not count. C++ adds the const,
//     volatile and reference qualifiers after the parameters, which
//     tell overloads apart too: "(std::size_t)const".
//   - "[role]" for accessors: "[getter]", "[setter]", "[deleter]" for
//     Python properties (after the decorator), "[get]", "[set]" for
//     JavaScript and TypeScript.
//   - "[kind]" for anything else: "[namespace]", "[interface]", …
//
// A spec carries a selector only when its name alone is ambiguous; a
// selector on a name that is not is accepted and kept.

// selectorOf returns the selector of symbol s in f (see above), "" when
// none can be read.
func selectorOf(f *File, s analyzer.Symbol) string {
	if role := accessorRole(f, s); role != "" {
		return "[" + role + "]"
	}
	if callableKind(s.Kind) {
		if groups, rest, ok := paramGroups(f, s); ok {
			sel := "(" + strings.Join(paramList(groups, f.Lang, s.Kind), ",") + ")"
			if f.Lang == "cpp" {
				sel += cppQualifiers(rest)
			}
			return sel
		}
	}
	if s.Kind != "" {
		return "[" + s.Kind + "]"
	}
	return ""
}

func callableKind(k string) bool {
	return k == analyzer.KindFunction || k == analyzer.KindMethod || k == analyzer.KindConstructor
}

// headerTokens returns the tokens of s up to its body, or its first 400:
// where the name, the parameters and the decorators are. They are read
// from the first 40 lines of its code: a doc comment longer than that
// (assertj's registerCustomDateFormat(DateFormat), 44 lines of examples)
// is passed over.
func headerTokens(f *File, s analyzer.Symbol) []string {
	toks := analyzer.RangeTokens(f.Lang, f.Src, s.StartLine, min(s.EndLine, s.StartLine+40))
	if !slices.Contains(toks, s.Name) {
		if doc := leadingComments(f.Lang, f.Src, s.StartLine, s.EndLine); doc > 0 {
			toks = analyzer.RangeTokens(f.Lang, f.Src, s.StartLine+doc, min(s.EndLine, s.StartLine+doc+40))
		}
	}
	if len(toks) > 400 {
		toks = toks[:400]
	}
	return toks
}

// accessorRole reads the role of a property accessor: Python's
// @property / @x.setter / @x.deleter, JavaScript's get and set.
func accessorRole(f *File, s analyzer.Symbol) string {
	if !callableKind(s.Kind) {
		return ""
	}
	toks := headerTokens(f, s)
	at, _ := nameAt(toks, s.Name, f.Lang)
	if at < 0 {
		return ""
	}
	switch f.Lang {
	case "python":
		for i := 0; i+1 < at; i++ {
			if toks[i] != "@" {
				continue
			}
			switch {
			case toks[i+1] == "property":
				return "getter"
			case i+3 < at && toks[i+1] == s.Name && toks[i+2] == ".":
				switch toks[i+3] {
				case "getter", "setter", "deleter":
					return toks[i+3]
				}
			}
		}
	case "javascript", "typescript", "tsx":
		if at > 0 && (toks[at-1] == "get" || toks[at-1] == "set") {
			return toks[at-1]
		}
	}
	return ""
}

// nameAt finds the declaration's name in its header tokens: the name
// followed by its parameter list (or, for an arrow function, by = … ( ),
// not part of a decorator or an annotation. after is the index past the
// name, which for a C++ operator ("operator", "(", ")") is several tokens.
func nameAt(toks []string, name, lang string) (at, after int) {
	for i := 0; i+1 < len(toks); i++ {
		if i > 0 && (toks[i-1] == "@" || toks[i-1] == ".") {
			continue
		}
		end := nameEnd(toks, i, name)
		if end < 0 {
			continue
		}
		if j := paramsOpen(toks, end, lang); j >= 0 {
			return i, end
		}
	}
	return -1, -1
}

// nameEnd returns the index past name when the tokens at i spell it
// (spaces aside, as in "operator bool"), else -1.
func nameEnd(toks []string, i int, name string) int {
	if toks[i] == name {
		return i + 1
	}
	if toks[i] != "operator" || !strings.HasPrefix(name, "operator") {
		return -1
	}
	rest := strings.ReplaceAll(name, " ", "")
	for j := i; j < len(toks) && strings.HasPrefix(rest, toks[j]); j++ {
		rest = rest[len(toks[j]):]
		if rest == "" {
			return j + 1
		}
	}
	return -1
}

// paramsOpen returns the index of the "(" that opens the parameters when
// the tokens after a name at i are: type parameters <…>, or an assignment
// of a function (= async function (…) or = (…) =>); -1 otherwise.
func paramsOpen(toks []string, i int, lang string) int {
	if i < len(toks) && toks[i] == "<" && lang != "python" {
		depth := 0
		for ; i < len(toks); i++ {
			if toks[i] == "<" {
				depth++
			} else if toks[i] == ">" {
				depth--
				if depth == 0 {
					i++
					break
				}
			}
		}
	}
	if i < len(toks) && toks[i] == "(" {
		return i
	}
	if lang == "javascript" || lang == "typescript" || lang == "tsx" {
		if i < len(toks) && (toks[i] == "=" || toks[i] == ":") {
			for j := i + 1; j < len(toks) && j < i+4; j++ {
				if toks[j] == "(" {
					return j
				}
				if toks[j] != "async" && toks[j] != "function" && toks[j] != "*" {
					return -1
				}
			}
		}
	}
	return -1
}

// params reads the parameters of callable s: types or names, by
// language (see the selector syntax above).
func params(f *File, s analyzer.Symbol) ([]string, bool) {
	groups, _, ok := paramGroups(f, s)
	if !ok {
		return nil, false
	}
	return paramList(groups, f.Lang, s.Kind), true
}

// paramGroups returns the tokens of each parameter of callable s, and
// the header tokens after them.
func paramGroups(f *File, s analyzer.Symbol) (groups [][]string, rest []string, ok bool) {
	toks := headerTokens(f, s)
	at, after := nameAt(toks, s.Name, f.Lang)
	if at < 0 {
		return nil, nil, false
	}
	angles := f.Lang == "java" || f.Lang == "typescript" || f.Lang == "tsx" || f.Lang == "cpp"
	open := paramsOpen(toks, after, f.Lang)
	depth, start := 0, open+1
	for i := open; i < len(toks); i++ {
		switch toks[i] {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				if i > start {
					groups = append(groups, toks[start:i])
				}
				return groups, toks[i+1:], true
			}
		case "<":
			if angles {
				depth++
			}
		case ">":
			if angles {
				depth--
			}
		case ">>":
			if angles && f.Lang == "cpp" {
				depth -= 2
			}
		case ",":
			if depth == 1 {
				groups = append(groups, toks[start:i])
				start = i + 1
			}
		}
	}
	return nil, nil, false
}

// cppQualifiers reads what follows a C++ member function's parameters
// and tells its overloads apart: const, volatile, & and &&, joined.
func cppQualifiers(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		switch t {
		case "const", "volatile", "&", "&&":
			b.WriteString(t)
		default:
			return b.String()
		}
	}
	return b.String()
}

func paramList(groups [][]string, lang, kind string) []string {
	out := []string{}
	for i, g := range groups {
		if len(g) == 0 {
			continue
		}
		var p string
		switch lang {
		case "java":
			p = javaParam(g)
		case "c":
			p = cParam(g)
		case "cpp":
			p = cParam(untilTop(g, "="))
		case "typescript", "tsx":
			p = tsParam(g)
		case "python":
			p = pyParam(g)
			if i == 0 && kind == analyzer.KindMethod && (p == "self" || p == "cls") {
				continue
			}
		default:
			p = joinTokens(untilTop(g, "="))
		}
		out = append(out, p)
	}
	return out
}

// javaParam is the erased type of one Java parameter.
func javaParam(g []string) string {
	g = dropAnnotations(g)
	for len(g) > 0 && g[0] == "final" {
		g = g[1:]
	}
	brackets := ""
	for len(g) >= 2 && g[len(g)-2] == "[" && g[len(g)-1] == "]" {
		brackets += "[]"
		g = g[:len(g)-2]
	}
	if len(g) >= 2 {
		g = g[:len(g)-1] // the parameter's name
	}
	return erase(joinTokens(g)) + brackets
}

// erase drops type arguments and the package or outer type of a Java
// type: "java.util.Map.Entry<K,V>[]" → "Entry[]".
func erase(t string) string {
	var b strings.Builder
	depth := 0
	for _, c := range t {
		switch {
		case c == '<':
			depth++
		case c == '>':
			depth--
		case depth > 0 || c == ' ':
		default:
			b.WriteRune(c)
		}
	}
	s := b.String()
	suffix := ""
	for {
		switch {
		case strings.HasSuffix(s, "[]"):
			suffix = "[]" + suffix
			s = s[:len(s)-2]
			continue
		case strings.HasSuffix(s, "..."):
			suffix = "..." + suffix
			s = s[:len(s)-3]
			continue
		}
		break
	}
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	return s + suffix
}

// dropAnnotations removes @Name, @a.b.Name and @Name(…) from g.
func dropAnnotations(g []string) []string {
	var out []string
	for i := 0; i < len(g); i++ {
		if g[i] != "@" || i+1 >= len(g) || g[i+1] == "interface" {
			out = append(out, g[i])
			continue
		}
		i++ // the name
		for i+2 < len(g) && g[i+1] == "." {
			i += 2
		}
		if i+1 < len(g) && g[i+1] == "(" {
			depth := 0
			for i++; i < len(g); i++ {
				if g[i] == "(" {
					depth++
				} else if g[i] == ")" {
					depth--
					if depth == 0 {
						break
					}
				}
			}
		}
	}
	return out
}

// cParam is the type of one C parameter: its tokens without the name.
func cParam(g []string) string {
	if len(g) >= 2 && isIdent(g[len(g)-1]) && !cTypeWord(g[len(g)-1]) && !(len(g) == 2 && cTagWord(g[0])) {
		g = g[:len(g)-1]
	}
	return joinTokens(g)
}

func cTagWord(s string) bool { return s == "struct" || s == "union" || s == "enum" }

func cTypeWord(s string) bool {
	switch s {
	case "int", "char", "short", "long", "float", "double", "void", "signed", "unsigned", "const", "volatile":
		return true
	}
	return false
}

// tsParam is the type of one TypeScript parameter ("any" when it has
// none), "..." before a rest parameter's.
func tsParam(g []string) string {
	g = dropAnnotations(g)
	for len(g) > 1 {
		switch g[0] {
		case "public", "private", "protected", "readonly", "override":
			g = g[1:]
			continue
		}
		break
	}
	rest := ""
	if len(g) > 3 && g[0] == "." && g[1] == "." && g[2] == "." {
		rest, g = "...", g[3:]
	}
	g = untilTop(g, "=")
	depth := 0
	for i, t := range g {
		switch t {
		case "(", "[", "{", "<":
			depth++
		case ")", "]", "}", ">":
			depth--
		case ":":
			if depth == 0 {
				return rest + joinTokens(g[i+1:])
			}
		}
	}
	return rest + "any"
}

// pyParam is the name of one Python parameter, with its * or **.
func pyParam(g []string) string {
	g = untilTop(g, "=")
	g = untilTop(g, ":")
	return joinTokens(g)
}

// untilTop cuts g at the first sep outside brackets.
func untilTop(g []string, sep string) []string {
	depth := 0
	for i, t := range g {
		switch t {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case sep:
			if depth == 0 {
				return g[:i]
			}
		}
	}
	return g
}

// joinTokens joins tokens without spaces, but for one between two words
// ("unsigned int").
func joinTokens(g []string) string {
	var b strings.Builder
	for i, t := range g {
		if i > 0 && isIdent(g[i-1]) && isIdent(t) {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// normSelector puts a selector as written by a person in the form
// selectorOf gives: no spaces but between words, Java types erased, C++'s
// qualifiers after the parameters joined.
func normSelector(sel, lang string) string {
	if sel == "" || sel[0] == '[' {
		return strings.ReplaceAll(sel, " ", "")
	}
	inner, quals := sel, ""
	if end := closeParen(sel); end > 0 {
		inner, quals = sel[1:end], strings.ReplaceAll(sel[end+1:], " ", "")
	}
	var ps []string
	for _, p := range splitTopLevel(inner) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		p = joinTokens(analyzer.Tokens(lang, []byte(p)))
		if lang == "java" {
			p = erase(p)
		}
		ps = append(ps, p)
	}
	return "(" + strings.Join(ps, ",") + ")" + quals
}

// closeParen returns the index of the ")" that closes the "(" s starts
// with, or -1.
func closeParen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTopLevel splits s at commas outside brackets.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// selected returns the symbols of found whose selector is sel, as a
// person or an anchor wrote it. A C++ selector written before C++ read
// parameters as types (its names kept: "(int count)") still selects.
func selected(f *File, found []analyzer.Symbol, sel string) []analyzer.Symbol {
	want := normSelector(sel, f.Lang)
	var match []analyzer.Symbol
	for _, s := range found {
		if selectorOf(f, s) == want || f.Lang == "cpp" && namedCppSelector(f, s) == want {
			match = append(match, s)
		}
	}
	return match
}

// namedCppSelector is the selector C++ callables had before: the
// parameters as written, names and all, without their defaults.
func namedCppSelector(f *File, s analyzer.Symbol) string {
	groups, _, ok := paramGroups(f, s)
	if !callableKind(s.Kind) || !ok {
		return ""
	}
	return "(" + strings.Join(paramList(groups, "", s.Kind), ",") + ")"
}

// sameNamed returns the symbols of f named full ("path::Outer::inner").
func sameNamed(f *File, full string) []analyzer.Symbol {
	var out []analyzer.Symbol
	for _, s := range f.Symbols {
		if s.FQName == full {
			out = append(out, s)
		}
	}
	return out
}

// specOf returns the spec that names s in f: its full name, with its
// selector when the name alone is ambiguous in f, or when keep asks
// for one.
func specOf(f *File, s analyzer.Symbol, keep bool) string {
	if keep || len(sameNamed(f, s.FQName)) > 1 {
		if sel := selectorOf(f, s); sel != "" {
			return s.FQName + sel
		}
	}
	return s.FQName
}

// arityKeeper returns the candidate to weigh first: cands[best], unless
// an overload of it close behind (within closeGap) alone takes as many
// parameters as the anchored callable (see overloadsByArity).
func (v *Verifier) arityKeeper(o origin, cands []candidate, best int) int {
	b := cands[best]
	for i, c := range cands {
		if i != best && c.claimedBy == "" && c.score >= b.score-closeGap && v.overloadsByArity(o, c, b) {
			return i
		}
	}
	return best
}

// overloadsByArity reports whether candidates b and c are overloads of
// one name in one type, neither calling the other, of which
// b alone takes as many parameters as the anchored callable: the
// parameters tell them apart where bodies of a few lines cannot
// (junit4 f34c4435eb: TestWithParameters' notNull(Object, String)
// moved to Checks as notNull(T, String), beside a new notNull(T) whose
// shorter body reads as more alike). An overload that calls the other
// hands it the work: which one the anchor follows is another question
// (see markDelegates).
func (v *Verifier) overloadsByArity(o origin, b, c candidate) bool {
	if o.file == nil || !b.sameName || !c.sameName || b.sym.Path != c.sym.Path || b.sym.FQName != c.sym.FQName || !callableKind(o.sym.Kind) {
		return false
	}
	if !sameArity(o.file, o.sym, b.file, b.sym) || sameArity(o.file, o.sym, c.file, c.sym) {
		return false
	}
	return !callsItsName(v.symbolTokens(b.file, b.sym), b.sym.Name) && !callsItsName(v.symbolTokens(c.file, c.sym), c.sym.Name)
}

// callsItsName reports whether the tokens of a callable named name call
// that name past its own declaration, an overload or itself, or, a Java
// constructor, another constructor of its class (this(…)).
func callsItsName(toks []string, name string) bool {
	n := 0
	for i := 0; i+1 < len(toks); i++ {
		if toks[i+1] != "(" {
			continue
		}
		if toks[i] == "this" {
			return true
		}
		if toks[i] == name {
			n++
		}
	}
	return n > 1
}

// sameArity reports whether callables x (of xf) and y (of yf) take as
// many parameters, both read (Python's self or cls aside).
func sameArity(xf *File, x analyzer.Symbol, yf *File, y analyzer.Symbol) bool {
	xs, ok := params(xf, x)
	ys, ok2 := params(yf, y)
	return ok && ok2 && callableKind(y.Kind) && len(ownParams(xf.Lang, xs)) == len(ownParams(yf.Lang, ys))
}
