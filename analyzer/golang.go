package analyzer

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// parseGo extracts symbols and imports of a Go file as go/parser reads
// them, given the file's line starts, its tokens (goLexer) and a scratch
// skeleton. It returns each symbol's header end offset (see fingerprint),
// which may be sc's, valid until its next use.
// Most files never reach go/parser: readGoDecls reads the same from the
// tokens, and parseGoSyntax is its fallback for the files it does not
// follow, syntax errors among them.
func parseGo(f *File, src []byte, ls []int, toks []span, sc *goScratch) []int {
	if header, ok := readGoDecls(f, src, ls, toks, &sc.decls); ok {
		return header
	}
	return parseGoSyntax(f, src, ls, toks, &sc.skel)
}

// goScratch is parseGo's scratch, reused from file to file.
type goScratch struct {
	decls goDeclBufs
	skel  goSkel
}

// parseGoSyntax is parseGo with go/parser, which reads a skeleton of the
// file (goSkel): symbols are declarations at the top level, and most of
// parsing a Go file is its function bodies and table literals. The
// imported names a file uses (pkg.Name) are read from the tokens instead
// of the bodies' syntax trees. What is lost is syntax errors inside the
// left-out braces: go/parser no longer sees them, so lore reports a Go
// file's syntax errors only where they change its declarations.
func parseGoSyntax(f *File, src []byte, ls []int, toks []span, sk *goSkel) []int {
	sk.build(src, toks)
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, f.Path, sk.buf, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		if list, ok := err.(scanner.ErrorList); ok {
			for i, e := range list {
				if i == 10 {
					break
				}
				line, col := sk.position(src, ls, e.Pos.Offset)
				f.Errors = append(f.Errors, Diagnostic{Path: f.Path, Line: line, Col: col, Message: e.Msg})
			}
		} else {
			f.Errors = append(f.Errors, Diagnostic{Path: f.Path, Line: 1, Col: 1, Message: err.Error()})
		}
	}
	if af == nil {
		return nil
	}
	tf := fset.File(af.Pos())
	// Offsets and lines are the file's, mapped from the skeleton's (and
	// so not renamed by //line directives, which are for compilers).
	off := func(p token.Pos) int { return sk.srcOffset(tf.Offset(p)) }
	line := func(p token.Pos) int { return goLine(ls, len(src), off(p)) }
	n := 0 // symbols, at most (interface methods not counted)
	for _, d := range af.Decls {
		if g, ok := d.(*ast.GenDecl); ok {
			for _, sp := range g.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok {
					n += len(vs.Names)
				} else {
					n++
				}
			}
			continue
		}
		n++
	}
	f.Symbols = make([]Symbol, 0, n)
	header := make([]int, 0, n)
	add := func(scope, name, kind string, start, end token.Pos, body int) {
		if name == "" || name == "_" || !start.IsValid() || !end.IsValid() {
			return
		}
		fq := f.Path + "::" + name
		if scope != "" {
			fq = f.Path + "::" + scope + "::" + name
		}
		f.Symbols = append(f.Symbols, Symbol{Path: f.Path, FQName: fq, Name: name, Kind: kind, StartLine: line(start), EndLine: line(end - 1)})
		header = append(header, body)
	}
	local := map[string]int{} // package name in this file -> index in f.Imports
	for _, is := range af.Imports {
		spec, name, ok := goImportName(is)
		if !ok {
			continue
		}
		if name != "_" && name != "." {
			local[name] = len(f.Imports)
		}
		f.Imports = append(f.Imports, Import{Path: f.Path, Spec: spec, Kind: ImportStatic, Line: line(is.Path.Pos()), Targets: []string{}})
	}
	if len(local) > 0 {
		goUsedNames(src, toks, local, f.Imports)
	}
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			start := d.Pos()
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			body := -1
			if d.Body != nil {
				body = off(d.Body.Lbrace)
			}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				add(recvName(d.Recv.List[0].Type), d.Name.Name, KindMethod, start, d.End(), body)
			} else {
				add("", d.Name.Name, KindFunction, start, d.End(), body)
			}
		case *ast.GenDecl:
			single := !d.Lparen.IsValid()
			for _, sp := range d.Specs {
				start, end := sp.Pos(), sp.End()
				if single {
					start, end = d.Pos(), d.End()
					if d.Doc != nil {
						start = d.Doc.Pos()
					}
				}
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					if !single && sp.Doc != nil {
						start = sp.Doc.Pos()
					}
					kind, body := KindType, -1
					switch t := sp.Type.(type) {
					case *ast.StructType:
						kind = KindStruct
						if t.Fields != nil && t.Fields.Opening.IsValid() {
							body = off(t.Fields.Opening)
						}
					case *ast.InterfaceType:
						kind = KindInterface
						if t.Methods != nil && t.Methods.Opening.IsValid() {
							body = off(t.Methods.Opening)
						}
					}
					add("", sp.Name.Name, kind, start, end, body)
					if st, ok := sp.Type.(*ast.StructType); ok && st.Fields != nil && sp.Name.Name != "_" {
						for _, fl := range st.Fields.List {
							fs := fl.Pos()
							if fl.Doc != nil {
								fs = fl.Doc.Pos()
							}
							for _, n := range fl.Names {
								add(sp.Name.Name, n.Name, KindField, fs, fl.End(), -1)
							}
						}
					}
					if it, ok := sp.Type.(*ast.InterfaceType); ok && it.Methods != nil {
						for _, m := range it.Methods.List {
							if _, ok := m.Type.(*ast.FuncType); !ok || len(m.Names) == 0 {
								continue
							}
							ms := m.Pos()
							if m.Doc != nil {
								ms = m.Doc.Pos()
							}
							add(sp.Name.Name, m.Names[0].Name, KindMethod, ms, m.End(), -1)
						}
					}
				case *ast.ValueSpec:
					if !single && sp.Doc != nil {
						start = sp.Doc.Pos()
					}
					kind := KindVariable
					if d.Tok == token.CONST {
						kind = KindConstant
					}
					body := -1
					if len(sp.Values) > 0 {
						body = off(sp.Values[0].Pos())
					}
					for _, n := range sp.Names {
						add("", n.Name, kind, start, end, body)
					}
				}
			}
		}
	}
	return header
}

// goSkel is a skeleton of a Go file for go/parser: the file with the inside
// of each brace pair at the top level left out — function bodies,
// composite literals, function literals — except a struct's or an
// interface's, whose fields and methods are declarations. An empty body or
// literal parses as the full one does up to its contents, and go/parser
// scans and counts the lines of a fraction of the file (bodies blanked
// with spaces instead would still be scanned).
// Offsets in the skeleton map back to the file (srcOffset), and lines are
// the file's lines of those offsets. Braces are read from the tokens, so
// braces in strings and comments do not count.
//
// A goSkel is reused from file to file.
type goSkel struct {
	buf    []byte
	shifts []goShift // ascending at
}

// goShift says that from skeleton offset at on, the file's offset is the
// skeleton's plus by (the bytes left out before at).
type goShift struct{ at, by int }

// srcOffset maps an offset in the skeleton to the file.
func (sk *goSkel) srcOffset(x int) int {
	i := sort.Search(len(sk.shifts), func(i int) bool { return sk.shifts[i].at > x })
	if i == 0 {
		return x
	}
	return x + sk.shifts[i-1].by
}

// position returns the 1-based line and byte column in src, whose line
// starts are ls, of skeleton offset x.
func (sk *goSkel) position(src []byte, ls []int, x int) (line, col int) {
	o := min(max(sk.srcOffset(x), 0), len(src))
	line = goLine(ls, len(src), o)
	return line, o - ls[line-1] + 1
}

// goLine is the line of offset o in a file of size bytes with line starts
// ls, as go/token counts it: the end of the file is on the last line that
// starts before it, even after a final line break.
func goLine(ls []int, size, o int) int {
	if o >= size && size > 0 {
		o = size - 1
	}
	return lineAt(ls, o)
}

// build makes the skeleton of src from its tokens (goLexer).
func (sk *goSkel) build(src []byte, toks []span) {
	buf, shifts := sk.buf[:0], sk.shifts[:0]
	copied := 0 // src[:copied] is in buf, less what was left out
	for k := 0; k < len(toks); k++ {
		if !goIsByte(src, toks[k], '{') {
			continue
		}
		depth, m := 1, k+1
		for ; m < len(toks) && depth > 0; m++ {
			switch {
			case goIsByte(src, toks[m], '{'):
				depth++
			case goIsByte(src, toks[m], '}'):
				depth--
			}
		}
		if depth > 0 {
			break // unbalanced: leave the rest to go/parser
		}
		m-- // the closing brace
		if k > 0 {
			if prev := string(src[toks[k-1].start:toks[k-1].end]); prev == "struct" || prev == "interface" {
				k = m
				continue
			}
		}
		from, to := toks[k].end, toks[m].start
		buf = append(buf, src[copied:from]...)
		copied = to
		shifts = append(shifts, goShift{at: len(buf), by: to - len(buf)})
		k = m
	}
	sk.buf, sk.shifts = append(buf, src[copied:]...), shifts
}

// goIsByte reports whether token t is the one-byte token c.
func goIsByte(src []byte, t span, c byte) bool {
	return t.end-t.start == 1 && src[t.start] == c
}

// goImportName returns an import's path and the name the file refers to
// it by ("_" and "." as written); ok is false for a malformed path.
func goImportName(is *ast.ImportSpec) (spec, name string, ok bool) {
	if is.Path == nil {
		return "", "", false
	}
	spec, err := strconv.Unquote(is.Path.Value)
	if err != nil {
		return "", "", false
	}
	name = goPackageName(spec)
	if is.Name != nil {
		name = is.Name.Name
	}
	return spec, name, true
}

// goPackageName guesses the name a package is referred to by from its
// import path: the last element, skipping a major-version element (v2)
// and dropping "go-" / "-go" and a ".vN" suffix (gopkg.in/yaml.v3).
func goPackageName(spec string) string {
	elems := strings.Split(spec, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	if i := strings.Index(name, "."); i > 0 {
		name = name[:i]
	}
	name = strings.TrimPrefix(strings.TrimSuffix(name, "-go"), "go-")
	return strings.ReplaceAll(name, "-", "_")
}

// goUsedNames records, as each import's Names, the package-level names
// the file uses through it (pkg.Name), sorted: the IMPORTS edges of a Go
// file go to the files of the package that declare them. A use is the
// tokens "pkg . Name" not preceded by a period (x.pkg.Name selects a
// field), which is where go/ast has a selector on the bare identifier pkg.
func goUsedNames(src []byte, toks []span, local map[string]int, imps []Import) {
	used := make([]map[string]bool, len(imps))
	for k := 0; k+2 < len(toks); k++ {
		if !goIsByte(src, toks[k+1], '.') || (k > 0 && goIsByte(src, toks[k-1], '.')) {
			continue
		}
		pkg, sel := src[toks[k].start:toks[k].end], src[toks[k+2].start:toks[k+2].end]
		if !goIsIdent(sel) {
			continue
		}
		i, ok := local[string(pkg)]
		if !ok {
			continue
		}
		if used[i] == nil {
			used[i] = map[string]bool{}
		}
		used[i][string(sel)] = true
	}
	for i, u := range used {
		for n := range u {
			imps[i].Names = append(imps[i].Names, n)
		}
		sort.Strings(imps[i].Names)
	}
}

// goIsIdent reports whether a token is an identifier or keyword.
func goIsIdent(t []byte) bool {
	if len(t) == 0 {
		return false
	}
	if t[0] < utf8.RuneSelf {
		return goIdentStart(t[0])
	}
	r, _ := utf8.DecodeRune(t)
	return unicode.IsLetter(r)
}

// recvName is the receiver's type name without pointers, parentheses or
// type parameters.
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		case *ast.SelectorExpr:
			return t.Sel.Name
		default:
			return ""
		}
	}
}
