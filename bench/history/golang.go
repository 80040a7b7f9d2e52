package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// key identifies d within its directory: Go allows one declaration of a
// name per package, and a directory may hold a package and its external
// test package.
func (d decl) key() string { return d.pkg + " " + d.name }

// pkgDecls are the declarations of one directory, by key. A key declared
// more than once (files for other build targets, init) holds them all
// and is left out of the oracle: it names no single declaration.
type pkgDecls map[string][]decl

// readDir parses every .go file directly in dir of fsys. ok is false when
// one of them does not parse: what a broken file declares cannot be
// known, so nothing in the directory can be said to be gone.
func readDir(fsys fs.FS, dir string) (ds pkgDecls, ok bool, err error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return pkgDecls{}, true, nil
		}
		return nil, false, err
	}
	ds, ok = pkgDecls{}, true
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		p := path.Join(dir, e.Name())
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, false, err
		}
		fd, good := declsOf(p, src)
		if !good {
			ok = false
		}
		for _, d := range fd {
			ds[d.key()] = append(ds[d.key()], d)
		}
	}
	return ds, ok, nil
}

// declsOf reads the functions, methods and types of one file (init and
// blank names, which lore cannot anchor by name, left out).
func declsOf(p string, src []byte) ([]decl, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	pkg := f.Name.Name
	var ds []decl
	add := func(name string, n ast.Node) {
		if name == "_" || name == "init" || strings.HasSuffix(name, "::_") {
			return
		}
		ds = append(ds, decl{path: p, pkg: pkg, name: name, tree: treeOf(n)})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			spelledOut(d.Body, d.Type.Results)
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				recv := receiver(d.Recv.List[0].Type)
				if recv == "" {
					continue
				}
				name = recv + "::" + name
			}
			add(name, d)
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				add(s.(*ast.TypeSpec).Name.Name, s)
			}
		}
	}
	return ds, true
}

// spelledOut rewrites in a function's body what the Go spec defines as
// shorthand into what it stands for, so that the two spellings make one
// tree, as they make one program: a naked return in a function with
// named results returns them (linters spell it out), and x := v declares
// as var x = v does. A function literal's returns are its own.
func spelledOut(body *ast.BlockStmt, results *ast.FieldList) {
	if body == nil {
		return
	}
	var named []string
	if results != nil {
		for _, f := range results.List {
			for _, n := range f.Names {
				named = append(named, n.Name)
			}
		}
	}
	astutil.Apply(body, func(c *astutil.Cursor) bool {
		switch x := c.Node().(type) {
		case *ast.FuncLit:
			spelledOut(x.Body, x.Type.Results)
			return false
		case *ast.ReturnStmt:
			if len(x.Results) == 0 && len(named) > 0 && !slices.Contains(named, "_") {
				for _, n := range named {
					x.Results = append(x.Results, &ast.Ident{NamePos: x.Return, Name: n})
				}
			}
		case *ast.DeclStmt:
			g, ok := x.Decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR || len(g.Specs) != 1 || g.Lparen.IsValid() {
				break
			}
			v := g.Specs[0].(*ast.ValueSpec)
			if v.Type != nil || len(v.Values) == 0 {
				break
			}
			lhs := make([]ast.Expr, len(v.Names))
			for i, n := range v.Names {
				lhs[i] = n
			}
			c.Replace(&ast.AssignStmt{Lhs: lhs, TokPos: g.TokPos, Tok: token.DEFINE, Rhs: v.Values})
		}
		return true
	}, nil)
}

// receiver is the name of a method's receiver type: T of *T, T[K], (T).
func receiver(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		default:
			return ""
		}
	}
}

var (
	trailingBlanks = regexp.MustCompile(`[ \t]+\n`)
	posType        = reflect.TypeFor[token.Pos]()
	commentType    = reflect.TypeFor[*ast.CommentGroup]()
)

// treeOf writes n's syntax tree as text: every node and value, no
// comments, and of each position only whether it is there (an optional
// token such as the parenthesis of a grouped declaration). Two
// declarations with one tree differ only in layout and comments, which
// is what lore reports valid.
func treeOf(n ast.Node) string {
	var b strings.Builder
	writeTree(&b, reflect.ValueOf(n))
	return b.String()
}

func writeTree(b *strings.Builder, v reflect.Value) {
	if lit, ok := v.Interface().(*ast.BasicLit); ok && lit != nil {
		switch lit.Kind {
		case token.INT, token.FLOAT, token.IMAG:
			// A number by its value: 0644 and 0o644, 1000 and 1_000
			// are one number written two ways (gofumpt rewrites the
			// first).
			b.WriteString(constant.MakeFromLiteral(lit.Value, lit.Kind, 0).ExactString())
		default:
			// Blanks at the ends of lines do not count, in a raw string
			// too: lore's hash trims them (DESIGN.md §1), and a help
			// text's trailing blanks say nothing a note could.
			b.WriteString(trailingBlanks.ReplaceAllString(lit.Value, "\n"))
		}
		return
	}
	if fl, ok := v.Interface().(*ast.FieldList); ok && fl != nil {
		// One field a name: a, b int declares what a int, b int does
		// (gofumpt groups such parameters).
		b.WriteString("FieldList{")
		for _, f := range fl.List {
			if len(f.Names) == 0 {
				writeTree(b, reflect.ValueOf(f))
				continue
			}
			for _, n := range f.Names {
				writeTree(b, reflect.ValueOf(&ast.Field{Names: []*ast.Ident{n}, Type: f.Type, Tag: f.Tag}))
			}
		}
		b.WriteByte('}')
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		writeTree(b, v.Elem())
	case reflect.Struct:
		t := v.Type()
		b.WriteString(t.Name())
		b.WriteByte('{')
		for i := range v.NumField() {
			switch ft := t.Field(i).Type; ft {
			case commentType:
				continue
			case posType:
				b.WriteString(strconv.FormatBool(v.Field(i).Int() != 0))
			default:
				writeTree(b, v.Field(i))
			}
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case reflect.Slice:
		b.WriteByte('[')
		for i := range v.Len() {
			writeTree(b, v.Index(i))
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	default:
		fmt.Fprint(b, v.Interface())
	}
}

// goOracle reads Go with go/parser.
type goOracle struct{}

func (goOracle) name() string { return "go/parser" }

// fates reads, for every declaration of the parent in a Go file the
// commit changed, where it is at the commit. Directories are compared
// whole: Go declares a name once per package, so a name that left one
// file of a package for another moved, whatever the similarity of its
// code.
func (goOracle) fates(c commit) ([]fate, error) {
	parent, child, changed, renames := c.parent, c.child, c.changed, c.renames
	dirs := map[string]bool{}
	for p := range changed {
		if strings.HasSuffix(p, ".go") {
			dirs[path.Dir(p)] = true
		}
	}
	type side struct {
		ds pkgDecls
		ok bool
	}
	childDirs := map[string]side{}
	childDir := func(dir string) (side, error) {
		if s, ok := childDirs[dir]; ok {
			return s, nil
		}
		ds, ok, err := readDir(child, dir)
		childDirs[dir] = side{ds, ok}
		return side{ds, ok}, err
	}
	var out []fate
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		before, okB, err := readDir(parent, dir)
		if err != nil {
			return nil, err
		}
		after, err := childDir(dir)
		if err != nil {
			return nil, err
		}
		if !okB || !after.ok {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(before)) {
			ds := before[k]
			if len(ds) != 1 || !changed[ds[0].path] {
				continue
			}
			d := ds[0]
			// A file git says was renamed into another directory takes
			// its declarations there.
			if np, ok := renames[d.path]; ok && path.Dir(np) != dir {
				there, err := childDir(path.Dir(np))
				if err != nil {
					return nil, err
				}
				for _, cs := range there.ds {
					if len(cs) == 1 && cs[0].path == np && cs[0].name == d.name {
						out = append(out, fate{before: d, after: cs[0], kind: inPlace, same: cs[0].tree == d.tree})
					}
				}
				continue
			}
			cs := after.ds[k]
			switch {
			case len(cs) > 1:
				continue
			case len(cs) == 0:
				out = append(out, fate{before: d, kind: gone})
				continue
			}
			c := cs[0]
			f := fate{before: d, after: c, kind: moved, same: c.tree == d.tree}
			if c.path == d.path || c.path == renames[d.path] {
				f.kind = inPlace
			}
			out = append(out, f)
		}
	}
	return out, nil
}
