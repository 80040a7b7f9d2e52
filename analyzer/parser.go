package analyzer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Parser parses files of any language of its table. A Parser holds
// tree-sitter memory and is not safe for concurrent use: give each worker
// its own and Close it when done.
type Parser struct {
	table   *Table
	parsers map[*Language]*sitter.Parser
	cursor  *sitter.QueryCursor
	spans   []span
	canon   []ctok    // the canonical stream (shapes) of the file being parsed
	scratch scratch   // canonTokens' buffers
	lines   []int     // line starts of the file being parsed
	buf     []byte    // fingerprint scratch
	sums    []digests // parse's symbol hashes (raw)
	skel    []byte    // a skeleton's scratch (Language.skeleton)
	// squeezed maps the offsets of the last skeleton back to its source.
	squeezed squeezed
	forest   forest    // the nodes of the tree being walked
	goSc     goScratch // parseGo's scratch
	src      []byte    // file buffer of read, reused from file to file
}

// NewParser returns a parser over table (the default table when nil).
func NewParser(table *Table) *Parser {
	if table == nil {
		table = NewTable()
	}
	return &Parser{table: table, parsers: map[*Language]*sitter.Parser{}}
}

// Table returns the parser's language table.
func (p *Parser) Table() *Table { return p.table }

// Close frees the parser's tree-sitter parsers and cursor.
func (p *Parser) Close() {
	for l, tp := range p.parsers {
		tp.Close()
		delete(p.parsers, l)
	}
	if p.cursor != nil {
		p.cursor.Close()
		p.cursor = nil
	}
}

// ErrTooDense is returned, wrapped with the figures, for a file past the
// parser's bounds (MaxTokens, MaxFingerprintWork, MaxNesting): minified or
// generated code, as a rule. Update skips such a file with the reason.
var ErrTooDense = errors.New("too dense to parse (minified or generated?)")

// The parser's bounds keep its time linear in a file's size and its
// memory bounded per file, whatever the file holds.
const (
	// MaxTokens is the most tokens a file parsed by tree-sitter may have:
	// the syntax tree's memory grows with them. Ordinary code up to the
	// default size limit stays well below it; a megabyte of minified code
	// or of nested brackets does not.
	MaxTokens = 1 << 18
	// MaxFingerprintWork bounds the bytes a file's symbols are
	// fingerprinted over, as a multiple of the file's size: each symbol is
	// fingerprinted by its whole lines, so many symbols that share one long
	// line (minified code) cost the line's length each. Ordinary code
	// stays within a few times its size.
	MaxFingerprintWork = 32
	// MaxNesting is how deep declarations may nest (a method of a class
	// in a module is three deep): each symbol's FQName names every level
	// above it, so the names of deep nesting grow with its square.
	MaxNesting = 100
)

// Parse extracts the symbols and imports of one file. path is the file's
// slash path relative to the repository root; it chooses the language and
// prefixes FQNames. Syntax errors are reported in File.Errors, never as an
// error; an error means the parser itself failed, or that the file is past
// its bounds (ErrTooDense). Import targets are left empty: resolving needs
// the whole repository (see Update and Resolve).
func (p *Parser) Parse(path string, src []byte) (*File, error) {
	return p.ParseContext(context.Background(), path, src)
}

// ParseContext is Parse with cancellation of long tree-sitter parses.
func (p *Parser) ParseContext(ctx context.Context, path string, src []byte) (*File, error) {
	f, _, err := p.parse(ctx, path, src, p.hashText(src), false)
	return f, err
}

// appendFS is a file system that reads a file into a caller's buffer
// (source.Dir does, with fewer system calls than Open and Read).
type appendFS interface {
	AppendFile(dst []byte, name string) ([]byte, error)
}

// read reads file e of fsys into the parser's file buffer, valid until
// the next read: nothing parse returns points into it (symbols, imports
// and diagnostics hold copies), so one buffer serves a worker's files
// instead of a new one per file.
func (p *Parser) read(fsys fs.FS, e Entry) ([]byte, error) {
	buf := p.src[:0]
	if want := int(e.Size) + 1; cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	if a, ok := fsys.(appendFS); ok {
		buf, err := a.AppendFile(buf, e.Path)
		if err != nil {
			return nil, err
		}
		if cap(buf) <= 1<<21 {
			p.src = buf
		}
		return buf, nil
	}
	f, err := fsys.Open(e.Path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: what was read stands
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if cap(buf) <= 1<<21 {
		p.src = buf
	}
	return buf, nil
}

// hashText is HashText through the parser's scratch buffer.
func (p *Parser) hashText(src []byte) string {
	if text, ok := normalText(src); ok {
		return digestString(text)
	}
	p.buf = appendNormalized(p.buf[:0], src)
	h := digestString(p.buf)
	if cap(p.buf) > 1<<22 {
		p.buf = nil
	}
	return h
}

// parse parses src; with raw (the index's parse), the symbols'
// fingerprints are left empty and their hashes returned as sums instead
// (see fingerprint), one per symbol, in the parser's scratch: valid until
// its next parse. The index keeps no shapes: reading
// the canonical stream is a large part of a parse, and a shape is needed
// only for the few symbols whose hash an anchor no longer matches, which
// Parse computes from their file (see Symbol).
func (p *Parser) parse(ctx context.Context, path string, src []byte, hash string, raw bool) (*File, []digests, error) {
	f := &File{Path: path, Hash: hash, Symbols: []Symbol{}, Imports: []Import{}}
	l := p.table.ForFile(path, src)
	if l == nil {
		return f, nil, nil
	}
	f.Lang = l.Name
	var header []int
	// Languages whose canonical stream lexes itself need the lexer's
	// tokens only to bound a file that could hold more than MaxTokens.
	p.spans = p.spans[:0]
	if canonFromSpans(l.Name) || l.grammar == nil || len(src) > MaxTokens {
		p.spans = lexSpec(l.Name).tokens(src, p.spans)
	}
	if l.grammar != nil && len(p.spans) > MaxTokens {
		n := len(p.spans)
		p.trim()
		return nil, nil, fmt.Errorf("%s: %w: %d tokens, more than %d", path, ErrTooDense, n, MaxTokens)
	}
	p.lines = appendLineStarts(p.lines, src)
	early := l.tags // the stream is read first: it tells which lines hold code
	if early {
		p.canon = canonTokens(&p.scratch, l.Name, src, p.spans, p.canon[:0])
	}
	if l.grammar == nil {
		header = parseGo(f, src, p.lines, p.spans, &p.goSc)
	} else {
		var err error
		header, err = p.parseTS(ctx, l, f, src)
		if errors.Is(err, ErrTooDense) {
			p.trim()
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: parse: %w", path, err)
		}
	}
	if w := fingerprintWork(src, p.lines, f.Symbols); w > int64(MaxFingerprintWork)*int64(len(src))+minFingerprintWork {
		p.trim()
		return nil, nil, fmt.Errorf("%s: %w: %d symbols over %d bytes of lines, more than %d times the file", path, ErrTooDense, len(f.Symbols), w, MaxFingerprintWork)
	}
	var sums []digests
	if raw {
		// Each is written in full by fingerprint, or left not ok.
		if cap(p.sums) < len(f.Symbols) {
			p.sums = make([]digests, len(f.Symbols))
		}
		sums = p.sums[:len(f.Symbols)]
		clear(sums)
	}
	switch {
	case raw:
		p.canon = p.canon[:0]
	case !early:
		p.canon = canonTokens(&p.scratch, l.Name, src, p.spans, p.canon[:0])
	}
	if len(p.canon) > MaxTokens {
		n := len(p.canon)
		p.trim()
		return nil, nil, fmt.Errorf("%s: %w: %d tokens, more than %d", path, ErrTooDense, n, MaxTokens)
	}
	p.buf = fingerprint(src, p.lines, p.canon, f.Symbols, header, p.buf, sums)
	p.trim()
	return f, sums, nil
}

// minFingerprintWork is what any file may be fingerprinted over, however
// small: a short file of a few long lines is cheap whatever its symbols.
const minFingerprintWork = 1 << 20

// fingerprintWork is the bytes fingerprint reads for syms: the length of
// each symbol's lines.
func fingerprintWork(src []byte, ls []int, syms []Symbol) int64 {
	var w int64
	for _, s := range syms {
		if a, b, ok := lineSpan(src, ls, s.StartLine, s.EndLine); ok {
			w += int64(b - a)
		}
	}
	return w
}

// trim lets go of the scratch a large file left.
func (p *Parser) trim() {
	if cap(p.spans) > 1<<20 {
		p.spans = nil
	}
	if cap(p.canon) > 1<<20 {
		p.canon = nil
	}
	if cap(p.scratch.match) > 1<<20 {
		p.scratch = scratch{}
	}
	if cap(p.lines) > 1<<18 {
		p.lines = nil
	}
	if cap(p.skel) > 1<<22 {
		p.skel = nil
	}
	if cap(p.squeezed.at) > 1<<16 || cap(p.squeezed.cuts) > 1<<16 {
		p.squeezed = squeezed{}
	}
	p.forest.trim()
	if cap(p.goSc.skel.buf) > 1<<22 || cap(p.goSc.skel.shifts) > 1<<16 {
		p.goSc.skel = goSkel{}
	}
	if cap(p.buf) > 1<<22 {
		p.buf = nil
	}
	if cap(p.sums) > 1<<14 {
		p.sums = nil
	}
}

func (p *Parser) parseTS(ctx context.Context, l *Language, f *File, src []byte) ([]int, error) {
	tsl, q, err := l.compiled()
	if err != nil {
		return nil, err
	}
	tp := p.parsers[l]
	if tp == nil {
		tp = sitter.NewParser()
		tp.SetLanguage(tsl)
		p.parsers[l] = tp
	}
	text, skeleton := src, false
	p.squeezed.reset()
	if l.skeleton != nil {
		if p.skel, skeleton = l.skeleton(f.Path, src, p.skel, &p.squeezed); skeleton {
			text = p.skel
		}
	}
	if l.mask != nil {
		var masked bool
		if p.skel, masked = l.mask(src, p.skel); masked {
			text = p.skel
		}
	}
	tree, err := l.parse(ctx, tp, text)
	if err != nil {
		return nil, err
	}
	if skeleton && tree.RootNode().HasError() {
		// A syntax error: read it, and what survives around it, from
		// the source itself.
		tree.Close()
		if tree, err = l.parse(ctx, tp, src); err != nil {
			return nil, err
		}
		text = src
		p.squeezed.reset()
	}
	defer tree.Close()
	p.forest.reset(l)
	sroot := tree.RootNode()
	root := p.forest.adopt(sroot)
	w := &walker{lang: l, src: src, parsed: text, sq: &p.squeezed, file: f, lines: p.lines, canon: p.canon}
	if l.tags {
		if q != nil {
			p.runTags(ctx, w, l, tp, q, sroot, text)
		}
		q = nil
	} else {
		l.walk(w, root)
	}
	if l.wordImports != nil {
		l.wordImports(w, root)
		sort.SliceStable(f.Imports, func(i, j int) bool { return f.Imports[i].Line < f.Imports[j].Line })
	}
	if q != nil {
		if p.cursor == nil {
			p.cursor = sitter.NewQueryCursor()
		}
		qc := p.cursor
		qc.Exec(q, sroot)
		for {
			m, ok := qc.NextMatch()
			if !ok {
				break
			}
			if len(m.Captures) == 0 {
				continue
			}
			m = qc.FilterPredicates(m, text)
			for _, c := range m.Captures {
				name := q.CaptureNameForId(c.Index)
				if strings.HasPrefix(name, "_") {
					continue
				}
				if kind, ok := strings.CutPrefix(name, "spec."); ok {
					n := p.forest.adopt(c.Node)
					w.addImport(unquote(w.text(n)), kind, n)
					continue
				}
				l.imports(w, name, p.forest.adopt(c.Node))
			}
		}
		sort.SliceStable(f.Imports, func(i, j int) bool { return f.Imports[i].Line < f.Imports[j].Line })
	}
	if root.HasError() {
		w.diagnose(root)
	}
	if w.tooDeep {
		return nil, fmt.Errorf("%w: declarations nested more than %d deep", ErrTooDense, MaxNesting)
	}
	return w.header, nil
}

// eachWord calls fn, in the order of the text, for each place where the
// parsed text spells one of words: k is the word's index, o its offset
// and n the smallest named node spanning it (the word's own node when it
// is a name, the statement when it is a keyword), which fn checks. An
// occurrence followed by a byte that cont says continues a name is part
// of a longer one and skipped; what precedes is left to fn's check of n
// (after a digit, as in 0require, a word can be a token of its own).
// Finding imports this way reads the tree only where the words are,
// where a query would first have to be compiled against the grammar,
// which visits every parse state of it, while every parser of the
// language waits.
//
// n is the node tree-sitter's ts_node_named_descendant_for_point_range
// finds from root, found as it does (down through the first child that
// spans the word), but from the path to the previous occurrence instead
// of from root: occurrences come in the order of the text, so a node
// left is never needed again, and the whole scan visits each node once
// at most, however deep the nesting.
func (w *walker) eachWord(root *node, words []string, cont func(byte) bool, fn func(k, o int, n *node)) {
	text := w.parsed
	bw := make([][]byte, len(words))
	next := make([]int, len(words)) // offset of each word's next occurrence; -1 when none
	for i, word := range words {
		bw[i] = []byte(word)
		next[i] = bytes.Index(text, bw[i])
	}
	path := []*node{root} // root, then the nodes down to the last occurrence
	for {
		k := -1
		for i, o := range next {
			if o >= 0 && (k < 0 || o < next[k]) {
				k = i
			}
		}
		if k < 0 {
			return
		}
		o, size := next[k], len(bw[k])
		if j := bytes.Index(text[o+size:], bw[k]); j >= 0 {
			next[k] = o + size + j
		} else {
			next[k] = -1
		}
		if o+size < len(text) && cont(text[o+size]) {
			continue
		}
		for len(path) > 1 && !covers(path[len(path)-1], o, o+size) {
			path = path[:len(path)-1]
		}
		for {
			c := coveringChild(path[len(path)-1], o, o+size)
			if c == nil {
				break
			}
			path = append(path, c)
		}
		n := root
		for i := len(path) - 1; i > 0; i-- {
			if path[i].IsNamed() {
				n = path[i]
				break
			}
		}
		fn(k, o, n)
	}
}

// covers tells whether n spans from..to as tree-sitter's descent asks:
// it starts at from or before and ends at to or after, past from.
func covers(n *node, from, to int) bool {
	s, e := int(n.StartByte()), int(n.EndByte())
	return s <= from && e >= to && e > from
}

// coveringChild is the first child of n that covers from..to, or nil.
func coveringChild(n *node, from, to int) *node {
	kids := n.children()
	i := sort.Search(len(kids), func(i int) bool {
		e := int(kids[i].EndByte())
		return e >= to && e > from
	})
	if i < len(kids) && int(kids[i].StartByte()) <= from {
		return kids[i]
	}
	return nil
}

// nameByte tells whether b continues an ASCII name ([A-Za-z0-9_]); bytes
// of other characters are left to the tree.
func nameByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// nameDollarByte is nameByte for languages whose names may hold $
// (JavaScript, Java).
func nameDollarByte(b byte) bool { return b == '$' || nameByte(b) }

// keywordAt tells whether n has the keyword word as a child of its own at
// offset o: the statement eachWord found is the one the word introduces.
func keywordAt(w *walker, n *node, o int, word string) bool {
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		c := n.Child(i)
		if int(c.StartByte()) > o {
			return false
		}
		if spans(c, o, len(word)) {
			return !c.IsNamed() && w.typ(c) == word
		}
	}
	return false
}

// callStringArg returns the first argument of the call (a node of type
// call) whose function is callee, when that argument is a string and the
// call's arguments node is of type args; nil otherwise.
func callStringArg(w *walker, callee *node, call, args string) *node {
	c := callee.Parent()
	if c == nil || w.typ(c) != call {
		return nil
	}
	if f := c.ChildByFieldName("function"); f == nil || !f.Equal(callee) {
		return nil
	}
	a := c.ChildByFieldName("arguments")
	if a == nil || w.typ(a) != args || a.NamedChildCount() == 0 {
		return nil
	}
	if s := a.NamedChild(0); w.typ(s) == "string" {
		return s
	}
	return nil
}

// spans tells whether n is exactly the size bytes at offset o.
func spans(n *node, o, size int) bool {
	return int(n.StartByte()) == o && int(n.EndByte()) == o+size
}

// walker collects symbols and imports from one tree-sitter tree.
type walker struct {
	lang *Language
	src  []byte
	// parsed is what tree-sitter parsed: src or a skeleton of it. The
	// offsets of nodes are offsets in parsed; sq maps them to src.
	parsed []byte
	sq     *squeezed
	file   *File
	header []int
	nerr   int
	// tooDeep is set when declarations nest deeper than MaxNesting.
	tooDeep bool
	// lines are the file's line starts; canon its canonical stream, and
	// code which lines hold its tokens (tags languages: attachedStart).
	lines []int
	canon []ctok
	code  []bool
	match []int // brackets of canon (matchBrackets), when recovery asks

	sibs []siblings // the visits in progress, innermost last
}

// siblings is one visit of eachNamed: the children of a node and which of
// them is being visited.
type siblings struct {
	kids []*node
	at   int
}

// eachNamed calls fn for each named child of n, in order. While fn runs,
// startOf finds the child's preceding siblings without asking the tree.
func (w *walker) eachNamed(n *node, fn func(c *node)) {
	if n == nil {
		return
	}
	kids := n.children()
	top := len(w.sibs)
	w.sibs = append(w.sibs, siblings{kids: kids})
	for i, c := range kids {
		if !c.IsNamed() {
			continue
		}
		w.sibs[top].at = i
		fn(c)
	}
	w.sibs = w.sibs[:top]
}

// locate finds n among the children being visited: its siblings and its
// index among them, or -1 when n is not a child being visited.
func (w *walker) locate(n *node) (kids []*node, i int) {
	for k := len(w.sibs) - 1; k >= 0; k-- {
		if v := w.sibs[k]; v.kids[v.at] == n {
			return v.kids, v.at
		}
	}
	return nil, -1
}

// typ is n's type, the name of its symbol.
func (w *walker) typ(n *node) string { return n.Type() }

// startsLine reports whether nothing but blanks precedes n on its first
// line (a comment there counts as code: see codeBefore).
func (w *walker) startsLine(n *node) bool {
	for j := w.sq.start(int(n.StartByte())) - 1; j >= 0 && w.src[j] != '\n'; j-- {
		if w.src[j] != ' ' && w.src[j] != '\t' {
			return false
		}
	}
	return true
}

func (w *walker) text(n *node) string {
	if n == nil {
		return ""
	}
	s, e := w.sq.span(int(n.StartByte()), int(n.EndByte()))
	return string(w.src[s:e])
}

func endLine(n *node) int {
	e := n.EndPoint()
	if e.Column == 0 && e.Row > n.StartPoint().Row {
		return int(e.Row)
	}
	return int(e.Row) + 1
}

// lastTokenEnd is the end line of n's last token that is not a comment.
func (w *walker) lastTokenEnd(n *node) int {
	for {
		cnt := int(n.ChildCount())
		var next *node
		for i := cnt - 1; i >= 0; i-- {
			c := n.Child(i)
			if w.typ(c) == "comment" || c.EndByte() == c.StartByte() {
				continue
			}
			next = c
			break
		}
		if next == nil {
			return endLine(n)
		}
		n = next
	}
}

// startOf extends n upwards over attached siblings (doc comments,
// decorators, attributes) that touch it with no blank line in between and
// do not trail code on their own line.
func (w *walker) startOf(n *node) int {
	start := int(n.StartPoint().Row)
	if w.lang.attach == nil {
		return start + 1
	}
	kids, i := w.locate(n)
	var asked []*node             // siblings before n asked of the tree, nearest first
	before := func(j int) *node { // the j-th sibling before n
		if i >= 0 {
			if i-j < 0 {
				return nil
			}
			return kids[i-j]
		}
		for len(asked) < j {
			last := n
			if len(asked) > 0 {
				last = asked[len(asked)-1]
			}
			if last == nil {
				return nil
			}
			asked = append(asked, last.PrevSibling())
		}
		return asked[j-1]
	}
	for j := 1; ; j++ {
		prev := before(j)
		if prev == nil || !w.lang.attach[w.typ(prev)] || endLine(prev) < start {
			break
		}
		ps := int(prev.StartPoint().Row)
		if b := before(j + 1); b != nil && endLine(b) > ps && !w.lang.attach[w.typ(b)] {
			break // a comment trailing the previous statement
		}
		start = ps
	}
	return start + 1
}

// emit records a symbol. decl is the node whose name/body define it, rng
// the node whose extent (plus attached siblings) is its range, body the
// node where its header ends (nil: the symbol is all header).
func (w *walker) emit(scope []string, name, kind string, rng, body *node) {
	if name == "" {
		return
	}
	end := endLine(rng)
	if w.lang.trimEnd {
		end = w.lastTokenEnd(rng)
	} else if w.lang.asi {
		end = w.semiEnd(rng)
	}
	w.emitAt(scope, name, kind, w.startOf(rng), end, body)
}

// semiEnd is the last line of n, but for a statement whose ";" begins a
// later line ("x = 1\n;(f)()"): it ends with its last token before it.
func (w *walker) semiEnd(n *node) int {
	end := endLine(n)
	for {
		k := int(n.ChildCount())
		if k == 0 {
			return end
		}
		last := n.Child(k - 1)
		if w.typ(last) != ";" {
			n = last
			continue
		}
		if k >= 2 {
			if prev := endLine(n.Child(k - 2)); prev <= int(last.StartPoint().Row) {
				return prev
			}
		}
		return end
	}
}

// emitAt records a symbol of lines start..end; body is the node where its
// header ends (nil: the symbol is all header).
func (w *walker) emitAt(scope []string, name, kind string, start, end int, body *node) {
	fq := w.file.Path
	for _, s := range scope {
		fq += "::" + s
	}
	fq += "::" + name
	w.file.Symbols = append(w.file.Symbols, Symbol{
		Path: w.file.Path, FQName: fq, Name: name, Kind: kind,
		StartLine: start, EndLine: end,
	})
	h := -1
	if body != nil {
		h = w.sq.start(int(body.StartByte()))
	}
	w.header = append(w.header, h)
}

func (w *walker) addImport(spec, kind string, n *node) {
	if spec == "" {
		return
	}
	w.file.Imports = append(w.file.Imports, Import{Path: w.file.Path, Spec: spec, Kind: kind, Line: int(n.StartPoint().Row) + 1, Targets: []string{}})
}

// diagnose reports up to 10 syntax errors below n.
func (w *walker) diagnose(n *node) {
	if w.nerr >= 10 {
		return
	}
	if n.IsError() || n.IsMissing() {
		msg := "syntax error"
		if n.IsMissing() {
			msg = "syntax error: missing " + n.Type()
		} else if c := n.ChildCount(); c > 0 {
			msg = fmt.Sprintf("syntax error near %q", firstLine(w.text(n.Child(0)), 40))
		}
		p := n.StartPoint()
		w.file.Errors = append(w.file.Errors, Diagnostic{Path: w.file.Path, Line: int(p.Row) + 1, Col: int(p.Column) + 1, Message: msg})
		w.nerr++
		return
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); c.HasError() || c.IsMissing() {
			w.diagnose(c)
		}
	}
}

func firstLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		s = s[:max]
	}
	return s
}

// unquote strips string delimiters and prefixes: "x", 'x', `x`, r"x",
// b'x', """x""".
func unquote(s string) string {
	i := 0
	for i < len(s) && s[i] != '"' && s[i] != '\'' && s[i] != '`' && s[i] != '<' {
		i++
	}
	if i == len(s) {
		return s
	}
	q := s[i]
	j := i
	for j < len(s) && s[j] == q && j-i < 3 {
		j++
	}
	if q == '<' {
		return strings.TrimSuffix(s[i+1:], ">")
	}
	n := j - i
	if n == 2 && len(s)-i == 2 { // empty string
		return ""
	}
	if n == 2 {
		n = 1
	}
	body := s[i+n:]
	for k := 0; k < n && len(body) > 0 && body[len(body)-1] == q; k++ {
		body = body[:len(body)-1]
	}
	return body
}

// nest returns the scope inside the declaration name declared in scope,
// and false when there is none to walk into: name is empty, or the scope
// would be deeper than MaxNesting (the walker then notes it).
func (w *walker) nest(scope []string, name string) ([]string, bool) {
	if name == "" {
		return nil, false
	}
	if len(scope) >= MaxNesting {
		w.tooDeep = true
		return nil, false
	}
	out := make([]string, len(scope)+1)
	copy(out, scope)
	out[len(scope)] = name
	return out, true
}
