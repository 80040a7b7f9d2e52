package analyzer

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Languages added as table entries find their symbols and imports with
// the query files of package queries (queries/<lang>/tags.scm and
// imports.scm), in the style of the grammars' own tags.scm:
//
//	@definition.<kind>  a declaration; <kind> is one of lore's kinds
//	                    (class, function, method, …)
//	@name               its name; a qualified name (Foo::bar, M.f)
//	                    nests it under its qualifiers; a name of two
//	                    captures runs from the first to the last
//	@body               where its header ends (else its "body" field)
//	@receiver           a type it is declared on (Kotlin's fun T.f())
//	@scope              a block that names what it holds (a C++
//	                    namespace) but is no symbol itself
//	@scope.type         the same for a type's block (a Swift extension):
//	                    functions in it are methods
//	@import             an import's spec, as written (a string is unquoted)
//	@import.relative    a path relative to the importing file
//	@import.system      an include from the system's directories (<x.h>)
//
// Captures starting with _ are for predicates only. Symbols nest by the
// extent of their declarations: a declaration inside another's (not a
// constant's, variable's or field's) is named under it; a function
// directly inside a type (or @scope.type) is a method, a field outside
// one a variable; a constant, variable or field declared in a function
// or in another value is a local one, no symbol. A value's body, unless
// captured, is what follows its =. A range takes in the comment lines
// right above it, the wrappers the table names (C++'s
// template_declaration) and the siblings it names as trailers (Kotlin's
// getters and setters).

// captureRole is what one capture of a tags language's query means.
type captureRole struct {
	def     string // the kind of a @definition.<kind>
	scope   bool   // @scope or @scope.type
	typ     bool   // @scope.type
	name    bool
	body    bool
	recv    bool
	imp     string // @import…: "" no, "static", "relative", "system"
	ignore  bool   // _ captures
	unknown bool
}

var tagKinds = set(KindFunction, KindMethod, KindConstructor, KindClass, KindInterface, KindStruct, KindEnum,
	KindTrait, KindType, KindModule, KindNamespace, KindConstant, KindVariable, KindField)

// valueKinds are the kinds that name a value: what is declared inside
// one (a method in Ruby's X = Struct.new do … end) is named under the
// scope around it, as the language's own parser sees it.
var valueKinds = set(KindConstant, KindVariable, KindField)

// callableKinds are the kinds of functions: a value declared in one is
// a local one.
var callableKinds = set(KindFunction, KindMethod, KindConstructor)

// typeKinds are the kinds whose functions are methods.
var typeKinds = set(KindClass, KindInterface, KindStruct, KindEnum, KindTrait, KindModule)

func roleOf(name string) captureRole {
	switch {
	case strings.HasPrefix(name, "_"):
		return captureRole{ignore: true}
	case strings.HasPrefix(name, "definition."):
		k := strings.TrimPrefix(name, "definition.")
		if !tagKinds[k] {
			return captureRole{unknown: true}
		}
		return captureRole{def: k}
	case name == "scope":
		return captureRole{scope: true}
	case name == "scope.type":
		return captureRole{scope: true, typ: true}
	case name == "name":
		return captureRole{name: true}
	case name == "body":
		return captureRole{body: true}
	case name == "receiver":
		return captureRole{recv: true}
	case name == "import":
		return captureRole{imp: "static"}
	case name == "import.relative":
		return captureRole{imp: "relative"}
	case name == "import.system":
		return captureRole{imp: "system"}
	}
	return captureRole{unknown: true}
}

// queryRoles returns the roles of q's captures, or an error naming a
// capture the scheme above does not know.
func queryRoles(q *sitter.Query) ([]captureRole, error) {
	roles := make([]captureRole, q.CaptureCount())
	for i := range roles {
		name := q.CaptureNameForId(uint32(i))
		roles[i] = roleOf(name)
		if roles[i].unknown {
			return nil, fmt.Errorf("unknown capture @%s", name)
		}
	}
	return roles, nil
}

// tagDef is a declaration or scope found by a query.
type tagDef struct {
	n          *node
	start, end uint32
	pattern    uint16
	kind       string // "" for a scope
	typ        bool   // a scope whose functions are methods
	name       *node
	nameEnd    *node // a name of two captures (C#'s ~ and C): the last
	body       *node
	recv       *node
}

// afterEquals returns the child of n right after its = token, nil when
// it has none: the value a declaration sets.
func afterEquals(n *node) *node {
	kids := n.children()
	for i, c := range kids {
		if !c.IsNamed() && c.Type() == "=" && i+1 < len(kids) {
			return kids[i+1]
		}
	}
	return nil
}

// trailerChild returns the first child of n of a type the language
// calls a trailer (a Kotlin getter written on the property's line is
// its child, one on the next line its sibling), nil when there is none.
func trailerChild(l *Language, n *node) *node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); l.trailers[c.Type()] {
			return c
		}
	}
	return nil
}

// trailedEnd returns the end of declaration n, past the siblings right
// after it that belong to it (see Language.trailers), and the first of
// those, nil when there is none.
func trailedEnd(l *Language, n *node) (uint32, *node) {
	end := n.EndByte()
	if len(l.trailers) == 0 {
		return end, nil
	}
	var first *node
	for c := n.NextNamedSibling(); c != nil && l.trailers[c.Type()]; c = c.NextNamedSibling() {
		if first == nil {
			first = c
		}
		end = c.EndByte()
	}
	return end, first
}

// runTags runs the language's query over the tree and emits its symbols
// and imports; the stretches tree-sitter could not parse are read again
// (recoverTags).
func (p *Parser) runTags(ctx context.Context, w *walker, l *Language, tp *sitter.Parser, q *sitter.Query, root *sitter.Node, text []byte) {
	defs := p.collectTags(w, l, q, root, text, nil)
	if root.HasError() {
		var trees []*sitter.Tree
		defs, trees = p.recoverTags(ctx, w, l, tp, q, root, text, defs)
		defer func() {
			for _, t := range trees {
				t.Close()
			}
		}()
	}
	sort.SliceStable(w.file.Imports, func(i, j int) bool { return w.file.Imports[i].Line < w.file.Imports[j].Line })
	p.emitTags(w, l, defs)
}

// collectTags runs q over the tree at root and returns the declarations
// and scopes it finds; it records the imports, but those on a line that
// seen already holds (recovery reads some lines twice).
func (p *Parser) collectTags(w *walker, l *Language, q *sitter.Query, root *sitter.Node, text []byte, seen map[int]bool) []tagDef {
	if p.cursor == nil {
		p.cursor = sitter.NewQueryCursor()
	}
	qc := p.cursor
	roles := l.roles
	qc.Exec(q, root)
	var defs []tagDef
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		if len(m.Captures) == 0 {
			continue
		}
		m = qc.FilterPredicates(m, text)
		var d tagDef
		found := false
		for _, c := range m.Captures {
			r := roles[c.Index]
			switch {
			case r.def != "" || r.scope:
				d.n, d.kind, d.typ, found = p.forest.adopt(c.Node), r.def, r.typ, true
			case r.name:
				n := p.forest.adopt(c.Node)
				if d.name == nil {
					d.name = n
				} else {
					d.nameEnd = n
				}
			case r.body:
				d.body = p.forest.adopt(c.Node)
			case r.recv:
				d.recv = p.forest.adopt(c.Node)
			case r.imp != "":
				n := p.forest.adopt(c.Node)
				if seen[int(n.StartPoint().Row)+1] {
					continue
				}
				if l.imports != nil {
					l.imports(w, r.imp, n)
					continue
				}
				addTagImport(w, r.imp, n)
			}
		}
		if found && d.name != nil {
			var trail *node
			d.start, d.pattern = d.n.StartByte(), m.PatternIndex
			d.end, trail = trailedEnd(l, d.n)
			if d.body == nil {
				d.body = trail
			}
			defs = append(defs, d)
		}
	}
	return defs
}

// maxRecoveries bounds the stretches recoverTags reads again in a file.
const maxRecoveries = 64

// recoverTags reads again the stretches of the file inside ERROR nodes:
// a construct the grammar does not know (a shell [[ =~ ]] regex, a Lua
// return with a semicolon) can make tree-sitter's recovery swallow every
// declaration after it. Each stretch is cut after each line that closes
// a block at the start of a line (} or end, as top-level blocks close),
// and each piece parsed alone (tree-sitter's included ranges keep the
// file's positions); the declarations found there replace the ones the
// whole file's tree had inside the stretch. It returns the trees it
// made, to be closed after the declarations are emitted.
func (p *Parser) recoverTags(ctx context.Context, w *walker, l *Language, tp *sitter.Parser, q *sitter.Query, root *sitter.Node, src []byte, defs []tagDef) ([]tagDef, []*sitter.Tree) {
	var regions [][2]uint32
	var find func(n *sitter.Node)
	find = func(n *sitter.Node) {
		if len(regions) >= maxRecoveries {
			return
		}
		if n.IsError() && n.EndPoint().Row > n.StartPoint().Row {
			regions = append(regions, [2]uint32{n.StartByte(), n.EndByte()})
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); c.HasError() {
				find(c)
			}
		}
	}
	find(root)
	// A declaration with an error inside that runs over lines closing a
	// block in the first column has swallowed what follows (a macro the
	// grammar cannot expand broke it): it ends where the brackets of the
	// file close its block, and what follows nests by its own extent.
	for i, d := range defs {
		if d.n.HasError() && len(closerPieces(src, int(d.start), int(d.end))) > 2 {
			defs[i].end = w.closingBrace(d, d.end)
		}
	}
	if len(regions) == 0 {
		return defs, nil
	}
	// the outermost of overlapping regions
	sort.Slice(regions, func(i, j int) bool {
		if regions[i][0] != regions[j][0] {
			return regions[i][0] < regions[j][0]
		}
		return regions[i][1] > regions[j][1]
	})
	outer := regions[:1]
	for _, rg := range regions[1:] {
		if last := outer[len(outer)-1]; rg[0] < last[1] {
			outer[len(outer)-1][1] = max(last[1], rg[1])
			continue
		}
		outer = append(outer, rg)
	}
	regions = outer
	var trees []*sitter.Tree
	seen := map[int]bool{}
	for _, im := range w.file.Imports {
		seen[im.Line] = true
	}
	defer tp.SetIncludedRanges([]sitter.Range{{EndPoint: sitter.Point{Row: ^uint32(0), Column: ^uint32(0)}, EndByte: ^uint32(0)}})
	for _, rg := range regions {
		pieces := closerPieces(src, int(rg[0]), int(rg[1]))
		if len(pieces) < 2 {
			continue
		}
		kept := defs[:0]
		for _, d := range defs {
			if d.start < rg[0] || d.end > rg[1] {
				kept = append(kept, d)
			}
		}
		defs = kept
		for _, pc := range pieces {
			a, b := pc[0], pc[1]
			tp.SetIncludedRanges([]sitter.Range{{
				StartByte: uint32(a), EndByte: uint32(b),
				StartPoint: pointOf(src, w.lines, a), EndPoint: pointOf(src, w.lines, b),
			}})
			t, err := l.parse(ctx, tp, src)
			if err != nil {
				break
			}
			trees = append(trees, t)
			for _, d := range p.collectTags(w, l, q, t.RootNode(), src, seen) {
				if int(d.end) >= b || unclosed(d) {
					// cut off by the piece's end: a block runs on to its
					// closing brace in the file (a namespace's, as a rule)
					d.end = w.closingBrace(d, uint32(rg[1]))
				}
				defs = append(defs, d)
			}
		}
	}
	return defs, trees
}

// closerPieces cuts src[a:b] after each line that starts with a block's
// close in its first column (closesBlock).
func closerPieces(src []byte, a, b int) [][2]int {
	var out [][2]int
	start := a
	for i := a; i < b; {
		e := i
		for e < b && src[e] != '\n' {
			e++
		}
		if i > a && closesBlock(src[i:e]) {
			if e < b {
				e++
			}
			out = append(out, [2]int{start, e})
			start = e
		}
		if e < b && src[e] == '\n' {
			e++
		}
		i = e
	}
	if start < b {
		out = append(out, [2]int{start, b})
	}
	return out
}

// closesBlock reports whether line starts, in its first column, with
// the close of a block: }, or one of the words end, fi, done, esac alone
// or before a separator or comment.
func closesBlock(line []byte) bool {
	if len(line) > 0 && line[0] == '}' {
		return true
	}
	for _, w := range []string{"end", "fi", "done", "esac"} {
		if !bytes.HasPrefix(line, []byte(w)) {
			continue
		}
		rest := bytes.TrimSpace(line[len(w):])
		return len(line) == len(w) || (!isIdentByte(line[len(w)]) && (len(rest) == 0 || bytes.IndexByte([]byte(";#)-/&|."), rest[0]) >= 0))
	}
	return false
}

// pointOf is the row and byte column of offset o.
func pointOf(src []byte, ls []int, o int) sitter.Point {
	l := lineAt(ls, o)
	return sitter.Point{Row: uint32(l - 1), Column: uint32(o - ls[l-1])}
}

// emitTags emits defs (declarations and scopes, in any order) nested by
// their extents.
func (p *Parser) emitTags(w *walker, l *Language, defs []tagDef) {
	// Outer declarations first; of two patterns for one node, the first.
	sort.SliceStable(defs, func(i, j int) bool {
		a, b := defs[i], defs[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		return a.pattern < b.pattern
	})
	type open struct {
		end   uint32
		names []string
		kind  string
		typ   bool
		value bool // a value's declaration: it names nothing inside it
	}
	var stack []open
	for i, d := range defs {
		if i > 0 && d.start == defs[i-1].start && d.end == defs[i-1].end && d.n.info.symbol == defs[i-1].n.info.symbol {
			continue
		}
		for len(stack) > 0 && d.end > stack[len(stack)-1].end {
			stack = stack[:len(stack)-1]
		}
		var scope []string
		inType, local := false, false
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			scope = top.names
			inType = top.typ || typeKinds[top.kind]
			local = top.value || callableKinds[top.kind]
		}
		name := w.text(d.name)
		if n := spaceScoped(d.name); n != nil {
			name = w.text(n)
		}
		if d.nameEnd != nil {
			name = w.textSpan(d.name, d.nameEnd)
		}
		quals := splitQualified(name, l.qualified, l.qualifiedMethods)
		if len(quals) == 0 || !plainName(strings.TrimSpace(name)) {
			continue // no name, or a misread one (a macro's arguments)
		}
		if d.recv != nil {
			if r := bareType(w.text(d.recv)); r != "" {
				quals = append([]string{r}, quals...)
			}
		}
		names := append(append([]string(nil), scope...), quals...)
		if len(names) > MaxNesting {
			w.tooDeep = true
			continue
		}
		if valueKinds[d.kind] {
			// What is declared inside a value is named under the scope
			// around it; a value declared in a function or in another
			// value is a local one, no symbol.
			stack = append(stack, open{end: d.end, names: scope, typ: inType, value: true})
			if local {
				continue
			}
		} else {
			stack = append(stack, open{end: d.end, names: names, kind: d.kind, typ: d.typ})
		}
		if d.kind == "" {
			continue
		}
		kind := d.kind
		if kind == KindFunction && (inType || len(quals) > 1 && l.qualifiedMethods) {
			kind = KindMethod
		}
		if kind == KindField && !inType {
			kind = KindVariable // a property of the file
		}
		if kind == KindMethod && l.typeNamedCtors && len(names) > 1 && names[len(names)-1] == names[len(names)-2] {
			kind = KindConstructor
		}
		if l.ownLine[w.typ(d.n)] && w.codeBefore(d.n) {
			continue // see Language.ownLine
		}
		rng := d.n
		for par := rng.Parent(); par != nil && l.wraps[w.typ(par)]; par = rng.Parent() {
			rng = par
		}
		body := d.body
		if body == nil {
			body = d.n.ChildByFieldName("body")
		}
		if body == nil && valueKinds[kind] {
			// a value's body is what it is set to, or its accessors on
			// its line
			if body = afterEquals(d.n); body == nil {
				body = trailerChild(l, d.n)
			}
		}
		end := endLine(rng)
		if d.end != d.n.EndByte() {
			end = lineAt(w.lines, w.sq.start(int(d.end)-1)) // recovery found its block's end
		}
		start := w.attachedStart(rng)
		if valueKinds[kind] && w.codeBefore(rng) {
			// a member of a one-line type: the comment above is the type's
			start = lineAt(w.lines, w.sq.start(int(rng.StartByte())))
		}
		if last := w.lastCodeLine(w.sq.start(int(d.end)-1) + 1); last >= start && last < end {
			// a grammar that closes blocks by indentation (Scala) ends one
			// with the comments and blanks before the next declaration
			end = last
		}
		w.emitAt(names[:len(names)-1], names[len(names)-1], kind, start, end, body)
	}
}

// addTagImport records an @import capture.
func addTagImport(w *walker, role string, n *node) {
	spec := unquote(strings.TrimSpace(w.text(n)))
	switch role {
	case "relative":
		if spec != "" && !strings.HasPrefix(spec, ".") && !strings.HasPrefix(spec, "/") {
			spec = "./" + spec
		}
	case "system":
		spec = "<" + spec + ">"
	}
	w.addImport(spec, ImportStatic, n)
}

// splitQualified splits a declared name into its qualifiers and name
// (Foo<T>::bar → Foo, bar; M.f → M, f), dropping blanks between
// punctuation and template arguments; seps are the language's qualifier
// separators; ops says C++'s operator names are read as such (operator<).
func splitQualified(s string, seps []string, ops bool) []string {
	s = squeezeBlanks(s)
	if len(seps) == 0 {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[':
			if !(ops && strings.HasPrefix(s[start:], "operator")) {
				depth++
			}
		case '>', ')', ']':
			if depth > 0 {
				depth--
			}
		}
		if depth > 0 {
			continue
		}
		for _, sep := range seps {
			if strings.HasPrefix(s[i:], sep) && !(ops && strings.HasPrefix(s[start:], "operator")) {
				out = appendSegment(out, s[start:i])
				start = i + len(sep)
				i += len(sep) - 1
				break
			}
		}
	}
	return appendSegment(out, s[start:])
}

// squeezeBlanks drops the blanks of s but one between two name
// characters: "Foo < T >:: bar" is "Foo<T>::bar", "operator bool" stays.
func squeezeBlanks(s string) string {
	f := strings.Fields(s)
	if len(f) <= 1 {
		return strings.Join(f, "")
	}
	var b strings.Builder
	for i, w := range f {
		if i > 0 && isIdentByte(f[i-1][len(f[i-1])-1]) && isIdentByte(w[0]) {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// appendSegment appends a name's segment without its template arguments.
func appendSegment(out []string, seg string) []string {
	if !strings.HasPrefix(seg, "operator") || strings.HasPrefix(seg, "operator ") {
		if i := strings.IndexByte(seg, '<'); i > 0 {
			seg = seg[:i]
		}
	}
	if seg == "" {
		return out
	}
	return append(out, seg)
}

// bareType is the name of a type as written, without qualifiers, type
// arguments or a nullable mark: Map for kotlin.collections.Map<K, V>?.
func bareType(s string) string {
	s = strings.Join(strings.Fields(s), "")
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, "?!")
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// attachedStart is the first line of a declaration at n: the line of its
// first token (a grammar may start a node at the line end before it, or
// at a comment), moved up over the lines right above that hold only
// comments (no code token, not blank), as a doc comment is attached.
func (w *walker) attachedStart(n *node) int {
	o := w.sq.start(int(n.StartByte()))
	k := sort.Search(len(w.canon), func(k int) bool { return int(w.canon[k].pos) >= o })
	for k < len(w.canon) && (w.canon[k].separator() || w.canon[k].kind == cNewline) {
		k++
	}
	if k < len(w.canon) && int(w.canon[k].start) < int(n.EndByte()) {
		o = int(w.canon[k].start)
	}
	line := lineAt(w.lines, o)
	if w.code == nil {
		w.code = codeLines(w.canon, w.lines)
	}
	for line > 1 && !w.code[line-2] && !blankLine(w.src, w.lines, line-1) {
		line--
	}
	return line
}

// codeBefore reports whether code, not a comment, precedes n on its
// first line. It reads the canonical stream, which tags languages have
// before their declarations are emitted; the walkers of the others have
// only the bytes (see startsLine).
func (w *walker) codeBefore(n *node) bool {
	o := w.sq.start(int(n.StartByte()))
	k := sort.Search(len(w.canon), func(k int) bool { return int(w.canon[k].start) >= o }) - 1
	for k >= 0 && w.canon[k].separator() {
		k--
	}
	return k >= 0 && lineAt(w.lines, int(w.canon[k].start)) == lineAt(w.lines, o)
}

// lastCodeLine is the line of the last token of the canonical stream
// (code, not comments) that starts before offset o; 0 if none does.
func (w *walker) lastCodeLine(o int) int {
	k := sort.Search(len(w.canon), func(k int) bool { return int(w.canon[k].start) >= o }) - 1
	for k >= 0 && (w.canon[k].separator() || w.canon[k].kind == cNewline) {
		k--
	}
	if k < 0 {
		return 0
	}
	return lineAt(w.lines, int(max(w.canon[k].end-1, w.canon[k].start)))
}

// codeLines marks the lines (0-based) that hold a token of the canonical
// stream ct.
func codeLines(ct []ctok, ls []int) []bool {
	code := make([]bool, len(ls))
	for _, t := range ct {
		if t.separator() || t.kind == cNewline {
			continue
		}
		a, b := lineAt(ls, int(t.start)), lineAt(ls, int(max(t.end-1, t.start)))
		for l := a; l <= b; l++ {
			code[l-1] = true
		}
	}
	return code
}

// blankLine reports whether line l (1-based) holds only blanks.
func blankLine(src []byte, ls []int, l int) bool {
	a, b, ok := lineSpan(src, ls, l, l)
	if !ok {
		return true
	}
	for _, c := range src[a:b] {
		if !isBlank(c) && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}

// textSpan is the source text from the start of a to the end of b.
func (w *walker) textSpan(a, b *node) string {
	s, _ := w.sq.span(int(a.StartByte()), int(a.EndByte()))
	_, e := w.sq.span(int(b.StartByte()), int(b.EndByte()))
	if e < s {
		return w.text(a)
	}
	return string(w.src[s:e])
}

// plainName reports whether a declared name reads as one: on one line,
// without statement or block punctuation, strings or comments.
func plainName(s string) bool {
	return len(s) <= 512 && !strings.ContainsAny(s, "\n;{}\"") && !strings.Contains(s, "//") && !strings.Contains(s, "/*")
}

// closingBrace is where the block of d ends in the file, by the brackets
// of the canonical stream, when its body opens with a brace; else d's
// end. It is at most limit.
func (w *walker) closingBrace(d tagDef, limit uint32) uint32 {
	body := d.body
	if body == nil {
		body = d.n.ChildByFieldName("body")
	}
	if body == nil {
		return d.end
	}
	o := int(body.StartByte())
	k := sort.Search(len(w.canon), func(k int) bool { return int(w.canon[k].pos) >= o })
	if k == len(w.canon) || !isByte(w.src, w.canon[k], '{') {
		return d.end
	}
	if w.match == nil {
		w.match = matchBrackets(w.src, w.canon, nil)
	}
	if m := w.match[k]; m > k && uint32(w.canon[m].end) <= limit {
		return uint32(w.canon[m].end)
	}
	return d.end
}

// unclosed reports whether the block of d lacks its closing bracket,
// which the parser then put in as missing.
func unclosed(d tagDef) bool {
	body := d.body
	if body == nil {
		body = d.n.ChildByFieldName("body")
	}
	if body == nil {
		return false
	}
	kids := body.children()
	return len(kids) > 0 && kids[len(kids)-1].IsMissing()
}

// spaceScoped returns the name part of n when n is a C++ qualified name
// whose "::" the parser made up: `int CJSON_CDECL main(void)`, a macro
// tree-sitter cannot expand before the name, reads as `CJSON_CDECL::main`
// with the "::" missing. Nil otherwise.
func spaceScoped(n *node) *node {
	if n == nil || n.Type() != "qualified_identifier" {
		return nil
	}
	for i := range int(n.ChildCount()) {
		if c := n.Child(i); c.IsMissing() && c.Type() == "::" {
			return n.ChildByFieldName("name")
		}
	}
	return nil
}
