package analyzer

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// readGoDecls reads the symbols and imports of a Go file straight from its
// tokens (goLexer), as parseGo's go/parser path would from the file's
// skeleton, without a second scan or a syntax tree. It returns each
// symbol's header offset (see fingerprint) and sets f.Symbols and
// f.Imports; ok is false, and f untouched, when the file is anything it
// does not fully understand, and the caller then parses it with go/parser.
//
// It is a recognizer for the declaration syntax go/parser reads in the
// skeleton: top-level brace pairs are skipped whole (bodies and
// literals, left out of the skeleton) except a struct's or an
// interface's. Semicolons are read from the gaps between tokens as
// go/scanner inserts them, and a declaration's doc comment is the comment
// group go/parser would attach: the last group in the gap before it,
// ending on the line directly above it, that does not start on the line
// of the token before it. Acceptance is narrower than go/parser's: rare
// forms (a type parameter list that reads like an array length, an
// embedded instantiated type in an interface, a number with an unusual
// base, a unary <- or ~) give up instead of being followed. What it
// accepts go/parser accepts without error, so a file with a syntax error
// in its declarations always gets go/parser's diagnostics. The header
// offsets are in b's scratch, valid until b's next use.
func readGoDecls(f *File, src []byte, ls []int, toks []span, b *goDeclBufs) (header []int, ok bool) {
	// Scanner errors anywhere in the skeleton, which the token spans do
	// not show: invalid UTF-8, a NUL byte, a byte order mark past the start.
	if bytes.IndexByte(src, 0) >= 0 || !utf8.Valid(src) || (len(src) > 1 && bytes.Contains(src[1:], []byte("\uFEFF"))) {
		return nil, false
	}
	r := goDeclReader{src: src, toks: toks, ls: ls, path: f.Path,
		syms: b.syms[:0], header: b.header[:0], imps: b.imps[:0], names: b.names[:0], cs: b.cs[:0]}
	r.semis = r.gapSemis(0)
	r.file()
	defer b.keep(&r)
	if r.bad {
		return nil, false
	}
	local := map[string]int{} // package name in this file -> index in r.imps
	for i, name := range r.names {
		if name != "_" && name != "." {
			local[name] = i
		}
	}
	if len(local) > 0 {
		goUsedNames(src, toks, local, r.imps)
	}
	// Copied out at their size: the scratch grew by doubling.
	f.Symbols = append(make([]Symbol, 0, len(r.syms)), r.syms...)
	f.Imports = append(f.Imports, r.imps...)
	return r.header, true
}

// goDeclBufs is readGoDecls's scratch, reused from file to file: the
// slices a goDeclReader grows as it reads.
type goDeclBufs struct {
	syms   []Symbol
	header []int
	imps   []Import
	names  []string
	cs     []goComment
}

// keep takes back the slices r grew, unless a large file left them
// large. What they hold stays until overwritten: one file's strings.
func (b *goDeclBufs) keep(r *goDeclReader) {
	if cap(r.syms) > 1<<14 || cap(r.header) > 1<<14 {
		*b = goDeclBufs{}
		return
	}
	*b = goDeclBufs{syms: r.syms, header: r.header, imps: r.imps, names: r.names, cs: r.cs}
}

// goMaxNest bounds the recursion of goDeclReader; deeper files go to
// go/parser, which has its own bound.
const goMaxNest = 500

// goDeclReader reads one file's declarations. The current token is a
// semicolon while semis > 0, else toks[k] (the end of the file when k is
// len(toks)).
type goDeclReader struct {
	src      []byte
	toks     []span
	ls       []int
	path     string
	k        int // current token
	semis    int // semicolons before toks[k] not yet read
	last     int // the last token read
	lastLine int // the line line found last
	nest     int // recursion depth
	kept     int // depth in struct and interface bodies, which the skeleton keeps
	bad      bool
	syms     []Symbol
	header   []int
	imps     []Import
	names    []string    // the name each import is referred to by
	cs       []goComment // docStart's scratch
}

// goComment is a comment's first and last line.
type goComment struct{ line, endLine int }

// goCommentEnd is the end of the comment at src[i] (before its line
// break for a // comment), -1 if there is none or it is not terminated.
func goCommentEnd(src []byte, i int) int {
	if i+1 >= len(src) || src[i] != '/' {
		return -1
	}
	switch src[i+1] {
	case '/':
		if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
			return i + j
		}
		return len(src)
	case '*':
		if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
			return i + 2 + j + 2
		}
	}
	return -1
}

func (r *goDeclReader) fail() { r.bad = true }

// text is the current token's text, nil at a semicolon or the end.
func (r *goDeclReader) text() []byte {
	if r.semis > 0 || r.k >= len(r.toks) {
		return nil
	}
	t := r.toks[r.k]
	return r.src[t.start:t.end]
}

func (r *goDeclReader) at(s string) bool { return !r.bad && string(r.text()) == s }
func (r *goDeclReader) semi() bool       { return !r.bad && r.semis > 0 }
func (r *goDeclReader) eof() bool        { return r.bad || (r.semis == 0 && r.k >= len(r.toks)) }

// next moves past the current token.
func (r *goDeclReader) next() {
	switch {
	case r.bad:
	case r.semis > 0:
		r.semis--
	case r.k < len(r.toks):
		r.last = r.k
		r.k++
		r.semis = r.gapSemis(r.k)
	}
}

func (r *goDeclReader) expect(s string) {
	if !r.at(s) {
		r.fail()
		return
	}
	r.next()
}

// expectSemi reads the semicolon ending a declaration, spec or field,
// which may be left out before a closing ")" or "}".
func (r *goDeclReader) expectSemi() {
	switch {
	case r.semi():
		r.next()
	case r.at(")") || r.at("}"):
	default:
		r.fail()
	}
}

// enter and leave bound the recursion; enter reports whether to go on.
func (r *goDeclReader) enter() bool {
	r.nest++
	if r.nest > goMaxNest {
		r.fail()
	}
	return !r.bad
}

func (r *goDeclReader) leave() { r.nest-- }

// gapSemis counts the semicolons go/scanner gives between toks[k-1] and
// toks[k] (or the end of the file): those written, and one inserted at
// the first line break (or the end) after a token that ends a statement.
func (r *goDeclReader) gapSemis(k int) int {
	from, to := 0, len(r.src)
	insert := false
	if k > 0 {
		from = r.toks[k-1].end
		insert = goInsertsSemi(r.src[r.toks[k-1].start:from])
	}
	if k < len(r.toks) {
		to = r.toks[k].start
	}
	n := 0
	for i := from; i < to; i++ {
		switch r.src[i] {
		case '\n':
			if insert {
				n, insert = n+1, false
			}
		case ';':
			n, insert = n+1, false
		case '/':
			j := goCommentEnd(r.src[:to], i)
			if j < 0 {
				r.fail()
				return 0
			}
			if insert && r.src[i+1] == '*' && bytes.IndexByte(r.src[i:j], '\n') >= 0 {
				n, insert = n+1, false
			}
			i = j - 1
		}
	}
	if insert && k == len(r.toks) {
		n++
	}
	return n
}

// goInsertsSemi reports whether a line break after token t ends a
// statement: an identifier, a literal, one of the keywords break,
// continue, fallthrough and return, or ) ] } ++ --.
func goInsertsSemi(t []byte) bool {
	switch {
	case goIsLiteral(t):
		return true
	case goIsIdent(t):
		return !goKeyword(t) || goKeywordEndsStmt(t)
	}
	switch string(t) {
	case ")", "]", "}", "++", "--":
		return true
	}
	return false
}

// goKeyword reports whether t is one of Go's keywords.
func goKeyword(t []byte) bool { return goKeywordTag(t) != 0 }

// goKeywordEndsStmt reports whether a line break after keyword t ends
// a statement.
func goKeywordEndsStmt(t []byte) bool {
	switch goKeywordTag(t) {
	case gBreak, gContinue, gFallthrough, gReturn:
		return true
	}
	return false
}

// isIdent reports whether the current token is an identifier.
func (r *goDeclReader) isIdent() bool {
	t := r.text()
	return !r.bad && t != nil && goIsIdent(t) && !goKeyword(t)
}

// ident reads an identifier and returns its token.
func (r *goDeclReader) ident() int {
	if !r.isIdent() {
		r.fail()
		return 0
	}
	k := r.k
	r.next()
	return k
}

// line is the line of offset o, as parseGo counts it (goLine). The
// reader asks in the order of the file, but for a step back to the token
// before a declaration: the line is found from the last one, not by a
// search of all, and the lines walked over add up to the file's.
func (r *goDeclReader) line(o int) int {
	if o >= len(r.src) && len(r.src) > 0 {
		o = len(r.src) - 1
	}
	ls, l := r.ls, max(r.lastLine, 1)
	for l > 1 && ls[l-1] > o {
		l--
	}
	for l < len(ls) && ls[l] <= o {
		l++
	}
	r.lastLine = l
	return l
}

// docStart is the line where the declaration or spec at the current
// token starts: its doc comment's first line, if it has one, else its own.
// It follows go/parser: the comments after the last semicolon before the
// token form groups of comments on adjacent lines (the first group only
// of comments on one line if it starts on the line of the token before),
// and the last group is the doc if it ends on the line above the token.
func (r *goDeclReader) docStart() int {
	k := r.k
	if r.semis > 0 || k >= len(r.toks) {
		r.fail()
		return 0
	}
	from, prevLine, insert := 0, 0, false
	if k > 0 {
		prev := r.toks[k-1]
		from, prevLine = prev.end, r.line(prev.start)
		insert = goInsertsSemi(r.src[prev.start:prev.end])
	}
	line := r.line(from) // of src[i], counted on through the gap
	cs := r.cs[:0]
	semiAt := func(line int) {
		cs, prevLine, insert = cs[:0], line, false
	}
	for i := from; i < r.toks[k].start; i++ {
		switch r.src[i] {
		case '\n':
			if insert {
				semiAt(line)
			}
			line++
		case ';':
			semiAt(line)
		case '/':
			j := goCommentEnd(r.src[:r.toks[k].start], i)
			if j < 0 {
				r.fail()
				return 0
			}
			c := goComment{line: line, endLine: line}
			if r.src[i+1] == '*' {
				c.endLine += bytes.Count(r.src[i:j], []byte("\n"))
			}
			cs = append(cs, c)
			if insert && c.endLine > c.line {
				semiAt(c.line) // at the comment's first line break
			}
			line = c.endLine
			i = j - 1
		}
	}
	r.cs = cs
	tokLine := line
	i := 0
	if len(cs) > 0 && cs[0].line == prevLine {
		end := cs[0].endLine
		for i = 1; i < len(cs) && cs[i].line <= end; i++ {
			end = cs[i].endLine
		}
	}
	lead, end := -1, -1
	for i < len(cs) {
		lead, end = cs[i].line, cs[i].endLine
		for i++; i < len(cs) && cs[i].line <= end+1; i++ {
			end = cs[i].endLine
		}
	}
	if lead > 0 && end+1 == tokLine {
		return lead
	}
	return tokLine
}

// add records a symbol from line start to the last token read, unless
// it is named _.
func (r *goDeclReader) add(scope string, name int, kind string, start, body int) bool {
	if r.bad {
		return false
	}
	b := r.src[r.toks[name].start:r.toks[name].end]
	if string(b) == "_" {
		return false
	}
	fq := r.path + "::" + string(b)
	if scope != "" {
		fq = r.path + "::" + scope + "::" + string(b)
	}
	n := fq[len(fq)-len(b):] // the name shares fq's bytes
	end := r.line(r.toks[r.last].end - 1)
	r.syms = append(r.syms, Symbol{Path: r.path, FQName: fq, Name: n, Kind: kind, StartLine: start, EndLine: end})
	r.header = append(r.header, body)
	return true
}

// file reads a source file: the package clause, imports, declarations.
func (r *goDeclReader) file() {
	r.expect("package")
	r.ident()
	r.expectSemi()
	for r.at("import") {
		r.genDecl("import")
	}
	for !r.eof() {
		switch {
		case r.at("func"):
			r.funcDecl()
		case r.at("var"), r.at("const"), r.at("type"):
			r.genDecl(string(r.text()))
		default:
			r.fail()
		}
	}
}

// genDecl reads an import, const, var or type declaration, one spec or
// a group of them.
func (r *goDeclReader) genDecl(kw string) {
	start := r.docStart()
	r.next()
	if !r.at("(") {
		r.spec(kw, start)
		return
	}
	r.next()
	for !r.bad && !r.at(")") && !r.eof() {
		r.spec(kw, r.docStart())
	}
	r.expect(")")
	r.expectSemi()
}

// spec reads one spec of a kw declaration; its symbols start at line start.
func (r *goDeclReader) spec(kw string, start int) {
	switch kw {
	case "import":
		r.importSpec()
	case "type":
		r.typeSpec(start)
	default:
		r.valueSpec(kw == "const", start)
	}
}

func (r *goDeclReader) importSpec() {
	name := ""
	switch {
	case r.at("."):
		name = "."
		r.next()
	case r.isIdent():
		name = string(r.text())
		r.next()
	}
	t := r.text()
	if r.bad || len(t) == 0 || (t[0] != '"' && t[0] != '`') || !r.literal() {
		r.fail()
		return
	}
	spec, err := strconv.Unquote(string(t))
	if err != nil {
		r.fail()
		return
	}
	if name == "" {
		name = goPackageName(spec)
	}
	r.imps = append(r.imps, Import{Path: r.path, Spec: spec, Kind: ImportStatic, Line: r.line(r.toks[r.k].start), Targets: []string{}})
	r.names = append(r.names, name)
	r.next()
	r.expectSemi()
}

func (r *goDeclReader) valueSpec(isConst bool, start int) {
	var few [8]int // room for the names of most specs
	names := append(few[:0], r.ident())
	for r.at(",") {
		r.next()
		names = append(names, r.ident())
	}
	if isConst {
		if !r.semi() && !r.at(")") && !r.eof() && !r.at("=") {
			r.typ()
		}
	} else if !r.at("=") {
		r.typ()
	}
	body := -1
	if r.at("=") {
		r.next()
		if !r.eof() && !r.semi() {
			body = r.toks[r.k].start
		}
		r.exprList()
	}
	r.expectSemi()
	kind := KindVariable
	if isConst {
		kind = KindConstant
	}
	for _, n := range names {
		r.add("", n, kind, start, body)
	}
}

func (r *goDeclReader) typeSpec(start int) {
	name := r.ident()
	plain := true // the type is not an array or slice type
	if r.at("[") {
		r.next()
		next := r.peek()
		switch {
		case r.at("]"):
			plain = false
			r.next()
			r.typ()
		case r.isIdent() && (string(next) == "]" || string(next) == "." || goBinaryOp(next) && string(next) != "*" && string(next) != "|"):
			// An array length: go/parser takes a name followed by
			// anything but * or | (or a call) for one.
			plain = false
			r.expr()
			r.expect("]")
			r.typ()
		case r.isIdent() && (string(next) == "," || string(next) == "[" || string(next) == "~" ||
			goIsIdent(next) && (!goKeyword(next) || goTypeKeyword(next))):
			r.typeParams()
			if r.at("=") {
				r.next()
			}
		case r.isIdent():
			r.fail() // an array length or a constraint that reads like one
		default:
			plain = false
			if r.at("...") {
				r.next()
			} else {
				r.expr()
			}
			r.expect("]")
			r.typ()
		}
	} else if r.at("=") {
		r.next()
	}
	kind, body := KindType, -1
	methods := len(r.syms)
	switch {
	case !plain:
	case r.at("struct"):
		kind, body = KindStruct, r.bodyAfter()
		scope := string(r.src[r.toks[name].start:r.toks[name].end])
		if scope == "_" {
			scope = "" // its fields are nobody's
		}
		r.structType(scope)
	case r.at("interface"):
		kind, body = KindInterface, r.bodyAfter()
		r.interfaceType(string(r.src[r.toks[name].start:r.toks[name].end]))
	default:
		r.typ()
	}
	r.expectSemi()
	if r.add("", name, kind, start, body) && methods < len(r.syms)-1 {
		// The type before its interface's methods.
		s, h := r.syms[len(r.syms)-1], r.header[len(r.header)-1]
		copy(r.syms[methods+1:], r.syms[methods:])
		copy(r.header[methods+1:], r.header[methods:])
		r.syms[methods], r.header[methods] = s, h
	}
}

// bodyAfter is the offset of the token after the current one: the brace
// of a struct or interface type.
func (r *goDeclReader) bodyAfter() int {
	if r.k+1 >= len(r.toks) {
		return -1
	}
	return r.toks[r.k+1].start
}

// peek is the text of the token after the current one, nil if a
// semicolon comes first.
func (r *goDeclReader) peek() []byte {
	if r.semis > 0 || r.k+1 >= len(r.toks) || r.gapSemis(r.k+1) > 0 {
		return nil
	}
	t := r.toks[r.k+1]
	return r.src[t.start:t.end]
}

// goTypeKeyword reports whether keyword t starts a type.
func goTypeKeyword(t []byte) bool {
	switch goKeywordTag(t) {
	case gChan, gFunc, gInterface, gMap, gStruct:
		return true
	}
	return false
}

func (r *goDeclReader) funcDecl() {
	start := r.docStart()
	r.next()
	method, scope := false, ""
	if r.at("(") {
		method = true
		first, n := r.params(true)
		if n != 1 {
			r.fail()
		}
		scope = r.recvName(first)
	}
	name := r.ident()
	if r.at("[") {
		if method {
			r.fail()
		}
		r.typeParams()
	}
	r.signature()
	body := -1
	if r.at("{") {
		body = r.toks[r.k].start
		r.skipBraces()
	}
	r.expectSemi()
	if method {
		r.add(scope, name, KindMethod, start, body)
	} else {
		r.add("", name, KindFunction, start, body)
	}
}

// recvName is the name of the receiver type starting at token k, as
// parseGo's recvName reads it from the syntax tree.
func (r *goDeclReader) recvName(k int) string {
	text := func(k int) []byte {
		if k >= len(r.toks) {
			return nil
		}
		return r.src[r.toks[k].start:r.toks[k].end]
	}
	for string(text(k)) == "*" || string(text(k)) == "(" {
		k++
	}
	t := text(k)
	if r.bad || t == nil || !goIsIdent(t) || goKeyword(t) {
		return ""
	}
	if string(text(k+1)) == "." {
		t = text(k + 2)
	}
	return string(t)
}

// skipBraces moves past the brace pair at the current token, which the
// skeleton leaves out. It keeps, and go/parser reads, all of a struct's
// or interface's braces: there, only an empty pair is read (T{}).
func (r *goDeclReader) skipBraces() {
	if r.kept > 0 && (r.k+1 >= len(r.toks) || !goIsByte(r.src, r.toks[r.k+1], '}')) {
		r.fail()
		return
	}
	depth := 0
	for m := r.k; m < len(r.toks); m++ {
		switch {
		case goIsByte(r.src, r.toks[m], '{'):
			depth++
		case goIsByte(r.src, r.toks[m], '}'):
			depth--
			if depth == 0 {
				r.k = m
				r.next()
				return
			}
		}
	}
	r.fail()
}

// typeStart reports whether the current token starts a type.
func (r *goDeclReader) typeStart() bool {
	t := r.text()
	return !r.bad && t != nil && (r.isIdent() || goTypeKeyword(t) || string(t) == "[" || string(t) == "*" || string(t) == "<-" || string(t) == "(")
}

// typ reads a type.
func (r *goDeclReader) typ() {
	if !r.enter() {
		return
	}
	defer r.leave()
	switch {
	case r.isIdent():
		r.typeName()
	case r.at("*"):
		r.next()
		r.typ()
	case r.at("("):
		r.next()
		r.typ()
		r.expect(")")
	case r.at("["):
		r.next()
		switch {
		case r.at("]"):
		case r.at("..."):
			r.next()
		default:
			r.expr()
		}
		r.expect("]")
		r.typ()
	case r.at("map"):
		r.next()
		r.expect("[")
		r.typ()
		r.expect("]")
		r.typ()
	case r.at("chan"):
		r.next()
		if r.at("<-") {
			r.next()
		}
		r.typ()
	case r.at("<-"):
		r.next()
		r.expect("chan")
		r.typ()
	case r.at("func"):
		r.next()
		r.signature()
	case r.at("struct"):
		r.structType("")
	case r.at("interface"):
		r.interfaceType("")
	default:
		r.fail()
	}
}

// typeArgs reads a type argument list, [A, B].
func (r *goDeclReader) typeArgs() {
	r.expect("[")
	n := 0
	for !r.bad && !r.at("]") {
		r.typ()
		n++
		if !r.at(",") {
			break
		}
		r.next()
	}
	if n == 0 {
		r.fail()
	}
	r.expect("]")
}

// typeParams reads a type parameter list, [P, Q any, R ~int | string];
// the current token is its first name or the "[" before it.
func (r *goDeclReader) typeParams() {
	if r.at("[") {
		r.next()
	}
	n, bare := 0, false
	for !r.bad && !r.at("]") {
		r.ident()
		n++
		bare = r.at(",") || r.at("]")
		if !bare {
			if r.at("[") && string(r.peek()) != "]" {
				r.fail()
			}
			r.constraint()
		}
		if !r.at(",") {
			break
		}
		r.next()
	}
	if n == 0 || bare {
		r.fail()
	}
	r.expect("]")
}

// constraint reads a type constraint or union, ~int | string.
func (r *goDeclReader) constraint() {
	for !r.bad {
		if r.at("~") {
			r.next()
		}
		r.typ()
		if !r.at("|") {
			return
		}
		r.next()
	}
}

// signature reads a function's parameters and results.
func (r *goDeclReader) signature() {
	r.params(true)
	switch {
	case r.at("("):
		r.params(false)
	case r.typeStart():
		r.typ()
	}
}

// params reads a parameter list, with a final ...T if ddd; it returns
// the token where the first field's type starts and the number of fields
// (go/parser's: names grouped with their type are one field).
func (r *goDeclReader) params(ddd bool) (first, n int) {
	r.expect("(")
	const (
		bare = iota // a name, or a type name alone
		named
		typeOnly
	)
	entries, nNamed, nTypes := 0, 0, 0
	dddAt, bareBeforeDdd := -1, false
	first, last := r.k, bare
	for !r.bad && !r.at(")") {
		k, kind := r.k, typeOnly
		isDdd := false
		switch {
		case r.isIdent():
			r.next()
			kind = named
			switch {
			case r.at("."):
				kind = typeOnly
				r.typeNameRest()
			case r.at("["):
				if !r.arrayOrInstance() {
					kind = typeOnly
				}
			case r.at("..."):
				isDdd = true
				r.next()
				r.typ()
			case r.typeStart():
				r.typ()
			default:
				kind = bare
			}
			if kind == named {
				k++ // the type after the name
			}
		case r.at("..."):
			isDdd = true
			r.next()
			r.typ()
		case r.typeStart():
			r.typ()
		default:
			r.fail()
		}
		if isDdd && dddAt < 0 {
			dddAt, bareBeforeDdd = entries, entries > 0 && last == bare
		}
		switch kind {
		case named:
			if nNamed == 0 {
				first = k
			}
			nNamed++
		case typeOnly:
			nTypes++
		}
		entries++
		last = kind
		if !r.at(",") {
			break
		}
		r.next()
	}
	r.expect(")")
	n = entries
	if nNamed > 0 {
		n = nNamed
		if nTypes > 0 || last != named {
			r.fail() // a type alone among names, or a name with no type
		}
	} else {
		bareBeforeDdd = false
	}
	if dddAt >= 0 && (!ddd || dddAt != entries-1 || bareBeforeDdd) {
		r.fail()
	}
	return first, n
}

// arrayOrInstance reads what follows a name and "[" in a parameter or
// field: an array or slice type (true: the name is the field's) or type
// arguments (false: the name and arguments are a type), as go/parser
// tells them apart.
func (r *goDeclReader) arrayOrInstance() bool {
	r.expect("[")
	args, trailing := 0, false
	for !r.bad && !r.at("]") {
		r.expr()
		args++
		if !r.at(",") {
			break
		}
		r.next()
		trailing = r.at("]")
	}
	r.expect("]")
	switch {
	case args == 0:
		r.typ()
		return true
	case args == 1 && r.typeStart():
		if trailing {
			r.fail()
		}
		r.typ()
		return true
	}
	return false
}

// structType reads a struct type, whose fields the skeleton keeps.
func (r *goDeclReader) structType(scope string) {
	r.expect("struct")
	r.expect("{")
	r.kept++
	for !r.bad && (r.isIdent() || r.at("*")) {
		var buf [4]int
		names := buf[:0] // of a field list's fields, when scope is set
		start := 0
		if r.at("*") {
			r.next()
			r.typeName()
		} else {
			if scope != "" {
				start = r.docStart()
			}
			first := r.k
			r.next()
			switch {
			case r.at("."):
				r.typeNameRest()
			case r.isString() || r.semi() || r.at("}"):
			default:
				names = append(names, first)
				for r.at(",") {
					r.next()
					names = append(names, r.ident())
				}
				if len(names) == 1 && r.at("[") {
					if !r.arrayOrInstance() {
						names = names[:0] // an embedded instance, T[A]
					}
				} else {
					r.typ()
				}
			}
		}
		if r.isString() {
			r.next()
		}
		if scope != "" {
			for _, n := range names {
				r.add(scope, n, KindField, start, -1)
			}
		}
		r.expectSemi()
	}
	r.expect("}")
	r.kept--
}

// typeName reads a possibly qualified and instantiated type name.
func (r *goDeclReader) typeName() {
	r.ident()
	r.typeNameRest()
}

// typeNameRest reads what may follow a type name's first identifier: a
// selected name and type arguments.
func (r *goDeclReader) typeNameRest() {
	if r.at(".") {
		r.next()
		r.ident()
	}
	if r.at("[") {
		r.typeArgs()
	}
}

// isString reports whether the current token is a valid string literal.
func (r *goDeclReader) isString() bool {
	t := r.text()
	return !r.bad && len(t) > 0 && (t[0] == '"' || t[0] == '`') && r.literal()
}

// interfaceType reads an interface type; with a scope (the declared
// type's name), its methods are symbols.
func (r *goDeclReader) interfaceType(scope string) {
	r.expect("interface")
	r.expect("{")
	r.kept++
	for !r.bad {
		switch {
		case r.isIdent():
			name, start := r.k, 0
			if scope != "" {
				start = r.docStart()
			}
			r.next()
			switch {
			case r.at("("):
				r.signature()
				if scope != "" {
					r.add(scope, name, KindMethod, start, -1)
				}
			case r.at("["):
				r.fail() // an instantiated type or a method with type parameters
			default:
				if r.at(".") {
					r.next()
					r.ident()
					if r.at("[") {
						r.fail()
					}
				}
				r.union()
			}
		case r.at("~") || r.typeStart():
			r.constraint()
		default:
			r.expect("}")
			r.kept--
			return
		}
		r.expectSemi()
	}
}

// union reads the rest of a union after its first term: | ~int | string.
func (r *goDeclReader) union() {
	if r.at("|") {
		r.next()
		r.constraint()
	}
}

// exprList reads expressions separated by commas.
func (r *goDeclReader) exprList() {
	r.expr()
	for r.at(",") {
		r.next()
		r.expr()
	}
}

// expr reads an expression (types are expressions where go/parser
// allows them: conversions, composite literals, arguments).
func (r *goDeclReader) expr() {
	if !r.enter() {
		return
	}
	defer r.leave()
	r.unary()
	for !r.bad && goBinaryOp(r.text()) {
		r.next()
		r.unary()
	}
}

func goBinaryOp(t []byte) bool {
	switch string(t) {
	case "||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "|", "^", "*", "/", "%", "<<", ">>", "&", "&^":
		return true
	}
	return false
}

func (r *goDeclReader) unary() {
	for goUnaryOp(r.text()) {
		r.next()
	}
	r.primary()
}

func goUnaryOp(t []byte) bool {
	switch string(t) {
	case "+", "-", "!", "^", "*", "&":
		return true
	}
	return false
}

// primary reads an operand and its selectors, indexes, slices, calls
// and composite literal values.
func (r *goDeclReader) primary() {
	lit := r.operand() // the expression so far can be a composite literal's type
	for !r.bad {
		switch {
		case r.at("."):
			r.next()
			if r.at("(") {
				r.next()
				if r.at("type") {
					r.fail()
				}
				r.typ()
				r.expect(")")
				lit = false
			} else {
				r.ident()
				lit = true
			}
		case r.at("["):
			lit = r.index()
		case r.at("("):
			r.next()
			for !r.bad && !r.at(")") {
				r.expr()
				if r.at("...") {
					r.next()
					if r.at(",") {
						r.next()
					}
					break
				}
				if !r.at(",") {
					break
				}
				r.next()
			}
			r.expect(")")
			lit = false
		case r.at("{") && lit:
			r.skipBraces()
			lit = false
		default:
			return
		}
	}
}

// index reads an index, slice or type arguments after an operand; it
// reports whether the result can be a composite literal's type.
func (r *goDeclReader) index() bool {
	r.expect("[")
	if r.at("]") {
		r.fail()
	}
	var have [3]bool
	if !r.at(":") {
		r.expr()
		have[0] = true
	}
	colons := 0
	for !r.bad && r.at(":") {
		colons++
		if colons > 2 {
			r.fail() // a[i:j:k:…]: no slice has a fourth index
			break
		}
		r.next()
		if !r.at(":") && !r.at("]") {
			r.expr()
			have[colons] = true
		}
	}
	if colons == 2 && (!have[1] || !have[2]) {
		r.fail()
	}
	if colons == 0 {
		for !r.bad && r.at(",") {
			r.next()
			if r.at("]") {
				break
			}
			r.typ()
		}
	}
	r.expect("]")
	return colons == 0
}

// operand reads an operand; it reports whether it can be a composite
// literal's type.
func (r *goDeclReader) operand() bool {
	t := r.text()
	switch {
	case r.bad || t == nil:
		r.fail()
	case r.isIdent():
		r.next()
		return true
	case goIsLiteral(t):
		if !r.literal() {
			r.fail()
		}
		r.next()
	case r.at("("):
		r.next()
		r.expr()
		r.expect(")")
	case r.at("func"):
		r.next()
		r.signature()
		if r.at("{") {
			r.skipBraces()
		}
	case r.at("["), r.at("struct"), r.at("map"):
		r.typ()
		return true
	case r.at("chan"), r.at("interface"):
		r.typ()
	default:
		r.fail()
	}
	return false
}

// goIsLiteral reports whether token t is a number, string or rune literal.
func goIsLiteral(t []byte) bool {
	c := t[0]
	return c == '"' || c == '\'' || c == '`' || isDigit(c) || (c == '.' && len(t) > 1 && isDigit(t[1]))
}

// literal reports whether the current literal token is one go/scanner
// reads without error (conservatively: some valid numbers give up).
func (r *goDeclReader) literal() bool {
	t := r.text()
	switch t[0] {
	case '"':
		if len(t) < 2 || t[len(t)-1] != '"' {
			return false
		}
		if bytes.IndexByte(t, '\\') < 0 {
			return true
		}
		_, err := strconv.Unquote(string(t))
		return err == nil
	case '`':
		return len(t) >= 2 && t[len(t)-1] == '`'
	case '\'':
		v, err := strconv.Unquote(string(t)) // which takes '' for a rune
		return err == nil && utf8.RuneCountInString(v) == 1
	}
	return goNumberOK(t)
}

// goNumberOK reports whether t is a number literal go/scanner accepts:
// a decimal, octal, hexadecimal or binary integer, with digits separated
// by _ as the spec allows, or a plain decimal float (digits, a point, an
// exponent, no _), either with an imaginary i.
func goNumberOK(t []byte) bool {
	imag := false
	if n := len(t); n > 1 && t[n-1] == 'i' {
		t, imag = t[:n-1], true
	}
	if len(t) > 2 && t[0] == '0' {
		switch t[1] | 0x20 {
		case 'x':
			if m, e, ok := bytes.Cut(t[2:], []byte("p")); ok || bytes.IndexByte(t, 'P') >= 0 || bytes.IndexByte(t, '.') >= 0 {
				return goHexFloatOK(m, e, ok)
			}
			return goDigitsOK(t[2:], isHexDigit, true)
		case 'o':
			return goDigitsOK(t[2:], func(c byte) bool { return c >= '0' && c <= '7' }, true)
		case 'b':
			return goDigitsOK(t[2:], func(c byte) bool { return c == '0' || c == '1' }, true)
		}
	}
	if goDigitsOK(t, isDigit, false) {
		// A leading 0 makes an integer octal (an imaginary number stays decimal).
		return imag || t[0] != '0' || goDigitsOK(t, func(c byte) bool { return c >= '0' && c <= '7' }, false)
	}
	// A float: digits, a point, digits, an exponent; at least one digit before the exponent.
	i, digits := 0, 0
	for i < len(t) && isDigit(t[i]) {
		i, digits = i+1, digits+1
	}
	if i < len(t) && t[i] == '.' {
		i++
		for i < len(t) && isDigit(t[i]) {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(t) && t[i]|0x20 == 'e' {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if i == len(t) {
			return false
		}
		for i < len(t) && isDigit(t[i]) {
			i++
		}
	}
	return i == len(t)
}

// goHexFloatOK reports whether mantissa m and exponent e (after a p,
// if hasExp) make a hexadecimal float without _: hex digits around an
// optional point, a decimal exponent.
func goHexFloatOK(m, e []byte, hasExp bool) bool {
	if !hasExp || len(e) == 0 {
		return false
	}
	whole, frac, _ := bytes.Cut(m, []byte("."))
	if len(whole)+len(frac) == 0 || !goAll(whole, isHexDigit) || !goAll(frac, isHexDigit) {
		return false
	}
	if e[0] == '+' || e[0] == '-' {
		e = e[1:]
	}
	return len(e) > 0 && goAll(e, isDigit)
}

func goAll(t []byte, ok func(byte) bool) bool {
	for _, c := range t {
		if !ok(c) {
			return false
		}
	}
	return true
}

// goDigitsOK reports whether t is digits (one at least) with single _
// between them, or after a base prefix if prefixed.
func goDigitsOK(t []byte, digit func(byte) bool, prefixed bool) bool {
	if len(t) == 0 {
		return false
	}
	prev := prefixed // whether a _ may come next
	for i, c := range t {
		switch {
		case c == '_':
			if !prev || i+1 == len(t) {
				return false
			}
			prev = false
		case digit(c):
			prev = true
		default:
			return false
		}
	}
	return true
}
