package analyzer

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGoSkeleton(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"func f() { return 1 }\n", "func f() {}\n"},
		{"func f() {\n\tg()\n}\n", "func f() {}\n"},
		{"func f() {\r\n\tg()\r\n}\r\n", "func f() {}\r\n"},
		{"type T struct{ a int }\n", "type T struct{ a int }\n"},
		{"type I interface{ M() }\n", "type I interface{ M() }\n"},
		{"var v = struct{ a int }{a: 1}\n", "var v = struct{ a int }{}\n"},
		{"var m = map[string]int{\"{\": 1} // }\n", "var m = map[string]int{} // }\n"},
		{"func F[T interface{ ~int }](x T) { _ = x }\n", "func F[T interface{ ~int }](x T) {}\n"},
		{"func f() { { }\n", "func f() { { }\n"}, // unbalanced: left alone
		{"var s = `{\n}`\n", "var s = `{\n}`\n"},
	} {
		src := []byte(tc.src)
		var sk goSkel
		sk.build(src, goLexer{}.tokens(src, nil))
		if string(sk.buf) != tc.want {
			t.Errorf("skeleton of %q\n got %q\nwant %q", tc.src, sk.buf, tc.want)
		}
		// Every byte kept is where srcOffset says it came from.
		for x, c := range sk.buf {
			if o := sk.srcOffset(x); src[o] != c {
				t.Errorf("skeleton of %q: byte %d (%q) maps to %d (%q)", tc.src, x, c, o, src[o])
			}
		}
	}
}

func TestGoSkeletonErrorPosition(t *testing.T) {
	// The error is after a left-out body on its line: its column is the
	// file's, not the skeleton's.
	src := []byte("package a\n\nfunc f() { return 1 } )\n")
	f := &File{Path: "x.go"}
	parseGo(f, src, lineStarts(src), goLexer{}.tokens(src, nil), &goScratch{})
	if len(f.Errors) == 0 {
		t.Fatal("no syntax error reported")
	}
	if d := f.Errors[0]; d.Line != 3 || d.Col != 23 {
		t.Errorf("error at %d:%d, want 3:23 (%s)", d.Line, d.Col, d.Message)
	}
}

// goDeclList lists the top-level declarations and interface methods of
// text, as parseGo reads them, with their lines: lineOf gives the line of
// an offset in text.
func goDeclList(text []byte, lineOf func(int) int) (string, bool) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "x.go", text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	line := func(p token.Pos) int { return lineOf(fset.Position(p).Offset) }
	for _, d := range af.Decls {
		fmt.Fprintf(&b, "%T %d-%d", d, line(d.Pos()), line(d.End()))
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BlockStmt, *ast.CompositeLit, *ast.FuncLit:
				return false
			case *ast.Ident:
				b.WriteString(" " + n.Name)
			}
			return true
		})
		b.WriteString("\n")
	}
	return b.String(), true
}

// FuzzGoSkeleton checks the skeleton against go/parser: for every source
// go/parser accepts, the skeleton's declarations (names, kinds, lines
// through the skeleton's offsets) are the source's.
func FuzzGoSkeleton(f *testing.F) {
	for _, s := range []string{
		"package a\nfunc F() {}\n",
		"package a\n\nimport \"fmt\"\n\n// D.\nfunc (r *R[T]) M(x int) (y int) {\n\tif x > 0 { return fmt.Sprint(\"}\") }\n\treturn\n}\n",
		"package a\n\nvar t = []struct{ a, b int }{{1, 2}, {3, 4}}\n\ntype I interface {\n\tM() // m\n\tfmt.Stringer\n}\n",
		"package a\n\nimport (\n\tf \"fmt\"\n\t\"example.com/m/v2\"\n)\n\nvar _ = f.Sprint(m.X, x.f.Y)\n",
		"package a\n\nconst (\n\tA = iota\n\tB\n)\n\nvar f = func() { /* { */ }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ls := lineStarts(src)
		want, ok := goDeclList(src, func(o int) int { return lineAt(ls, o) })
		if !ok {
			return
		}
		var sk goSkel
		sk.build(src, goLexer{}.tokens(src, nil))
		skel := sk.buf
		got, ok := goDeclList(skel, func(o int) int { return lineAt(ls, sk.srcOffset(o)) })
		if !ok || got != want {
			t.Fatalf("declarations of %q\n got %q\nwant %q\nskeleton %q", src, got, want, skel)
		}
		// Every identifier of the skeleton's syntax tree maps back to
		// itself in the file (the offsets of symbol headers are mapped so).
		fset := token.NewFileSet()
		af, _ := parser.ParseFile(fset, "x.go", skel, parser.SkipObjectResolution)
		ast.Inspect(af, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Pos().IsValid() {
				o := sk.srcOffset(fset.Position(id.Pos()).Offset)
				if o+len(id.Name) > len(src) || string(src[o:o+len(id.Name)]) != id.Name {
					t.Fatalf("identifier %s of the skeleton of %q maps to offset %d", id.Name, src, o)
				}
			}
			return true
		})
		f := &File{Path: "x.go"}
		parseGo(f, src, ls, goLexer{}.tokens(src, nil), &goScratch{})
		if got, want := goImportNames(f.Imports), goSelectorNames(src); got != want {
			t.Fatalf("names used through imports of %q\n got %s\nwant %s", src, got, want)
		}
	})
}

func goImportNames(imps []Import) string {
	var b strings.Builder
	for _, im := range imps {
		fmt.Fprintf(&b, "%s%v ", im.Spec, im.Names)
	}
	return b.String()
}

// goSelectorNames is goUsedNames from the syntax tree: the selectors
// pkg.Name whose X is an identifier naming an import.
func goSelectorNames(src []byte) string {
	af, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	var imps []Import
	local := map[string]int{}
	for _, is := range af.Imports {
		spec, name, ok := goImportName(is)
		if !ok {
			continue
		}
		if name != "_" && name != "." {
			local[name] = len(imps)
		}
		imps = append(imps, Import{Spec: spec})
	}
	used := make([]map[string]bool, len(imps))
	ast.Inspect(af, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if i, ok := local[id.Name]; ok {
					if used[i] == nil {
						used[i] = map[string]bool{}
					}
					used[i][sel.Sel.Name] = true
				}
			}
		}
		return true
	})
	for i, u := range used {
		for n := range u {
			imps[i].Names = append(imps[i].Names, n)
		}
		slices.Sort(imps[i].Names)
	}
	return goImportNames(imps)
}

func TestPySkeleton(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"def f():\n    x = g(1,\n          2)\n    return x\n", "def f():\n    (\n\n)\n"},
		{"x = 1\nclass A:\n    y = 2\n    def m(self):\n        self.z = 3\n", "x = 1\nclass A:\n    y = 2\n    def m(self):\n        ()\n"},
		{"class A:\n    def __init__(me, x):\n        me.x = x\n        y = 1\n        if y:\n            me.z: int = y\n        def g(self):\n            self.w = 1\n",
			"class A:\n    def __init__(me, x):\n        me.x = x\n        ()\n        if y:\n            me.z: int = y\n        def g(self):\n            ()\n"},
		{"class A:\n    async def __init__(\n        self,  # c\n    ):\n        self.x = 1\n", "class A:\n    async def __init__(\n        self,  # c\n    ):\n        self.x = 1\n"},
		{"def __init__(self):\n    self.x = 1\n", "def __init__(self):\n    ()\n"},
		{"def f():\n    class B:\n        c = 1\n    import os\n    m = __import__('m')\n", "def f():\n    class B:\n        c = 1\n    import os\n    m = __import__('m')\n"},
		{"def f():\n    if x: y = 1\n    @d\n    def g(): pass\n", "def f():\n    ()\n    @d\n    def g(): pass\n"},
		{"def f():\n    try:\n        a()\n    except E:\n        b()\n    finally:\n        c()\n    return 1\n",
			"def f():\n    (\n\n\n\n\n\n)\n"},
		{"def f():\n    if x:\n        import os\n    else:\n        y = 1\n", "def f():\n    if x:\n        import os\n    else:\n        ()\n"},
		{"def f():\n    s = f'{a[\"k\"]:>{w}}' # c\n    t = \"\"\"\n}\"\"\"\n", "def f():\n    (\n\n)\n"},
		{"def f():\n    a = 1 + \\\n        2\n", "def f():\n    (\n)\n"},
		{"def f():\n    s = 'unterminated\n", "def f():\n    s = 'unterminated\n"}, // not followed: source as is
		{"def f():\r    x = 1\n", "def f():\r    x = 1\n"},                         // a lone carriage return: source as is
	} {
		var q squeezed
		got, ok := pySkeleton("x.py", []byte(tc.src), nil, &q)
		if !ok {
			got = []byte(tc.src)
		}
		if string(got) != tc.want {
			t.Errorf("pySkeleton(%q)\n got %q\nwant %q", tc.src, got, tc.want)
		}
		if ok {
			checkSqueezed(t, []byte(tc.src), got, &q, "()")
		}
	}
}

// TestPySkeletonCorpus parses the Python standard library with and
// without the skeleton: symbols, fingerprints, imports and errors must be
// the same.
func TestPySkeletonCorpus(t *testing.T) {
	corpusTest(t)
	root, err := pythonStdlib()
	if err != nil {
		t.Skip("python3 stdlib not found:", err)
	}
	skeletonCorpus(t, "Python", root, []string{".py"}, pySkeleton, "()")
}

// FuzzPySkeleton checks the skeleton against tree-sitter on the source
// (and that it keeps lines and maps back to it): wherever CPython accepts the source (its ast module is the judge of
// what is Python) and tree-sitter parses it without errors, its symbols
// and imports are those read from the skeleton. On what CPython rejects,
// tree-sitter's recovery and the skeleton may differ, and either may be
// nearer the author's intent.
func FuzzPySkeleton(f *testing.F) {
	cpython := newPyChecker(f)
	for _, s := range []string{
		"def f():\n    x = 1\n",
		"import a\nclass A:\n    '''doc'''\n    X = 1\n    @property\n    def p(self):\n        return f\"{self.x!r:>{w}}\"\n",
		"async def f():\n    async with a as b:\n        await b\n    match x:\n        case [1, *r]:\n            from . import m\n",
		"def f(a,\n      b=lambda: 0):\n    def g(): return 1\n    return (\n        g)\n",
	} {
		f.Add([]byte(s))
	}
	ref, p := NewParser(wholeTable()), NewParser(nil)
	f.Cleanup(ref.Close)
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, src []byte) {
		want, err := ref.Parse("x.py", src)
		if err != nil || len(want.Errors) > 0 || !cpython.accepts(t, src) {
			return
		}
		var q squeezed
		if skel, ok := pySkeleton("x.py", src, nil, &q); ok {
			checkSqueezed(t, src, skel, &q, "()")
		}
		got, err := p.Parse("x.py", src)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got.Symbols, got.Imports) != fmt.Sprint(want.Symbols, want.Imports) {
			skel, _ := pySkeleton("x.py", src, nil, new(squeezed))
			t.Fatalf("%q:\n got %v %v\nwant %v %v\nskeleton %q", src, got.Symbols, got.Imports, want.Symbols, want.Imports, skel)
		}
	})
}

// pyChecker asks one CPython process whether sources parse.
type pyChecker struct {
	in  io.WriteCloser
	out *bufio.Reader
}

const pyCheckScript = `
import ast, sys
r, w = sys.stdin.buffer, sys.stdout.buffer
while True:
    h = r.read(8)
    if len(h) < 8:
        break
    src = r.read(int.from_bytes(h, "little"))
    try:
        ast.parse(src)
        w.write(b"1")
    except Exception:
        w.write(b"0")
    w.flush()
`

func newPyChecker(tb testing.TB) *pyChecker {
	py, err := exec.LookPath("python3")
	if err != nil {
		tb.Skip("python3 not installed: no CPython to tell Python from not")
	}
	cmd := exec.Command(py, "-c", pyCheckScript)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	return &pyChecker{in: in, out: bufio.NewReader(out)}
}

func (c *pyChecker) accepts(t *testing.T, src []byte) bool {
	var h [8]byte
	binary.LittleEndian.PutUint64(h[:], uint64(len(src)))
	if _, err := c.in.Write(append(h[:], src...)); err != nil {
		t.Fatal(err)
	}
	b, err := c.out.ReadByte()
	if err != nil {
		t.Fatal(err)
	}
	return b == '1'
}

// skeletonCorpus parses every file under root with one of the suffixes
// with and without the skeleton, which must read the same symbols,
// fingerprints, imports and errors, and checks each skeleton with
// checkSqueezed (subst as there).
// A file whose syntax errors all lie in what the skeleton leaves out
// reads as if it had none, by design: it is counted, not compared.
func skeletonCorpus(t *testing.T, lang, root string, suffixes []string,
	skeleton func(string, []byte, []byte, *squeezed) ([]byte, bool),
	subst string) {
	ref, p := NewParser(wholeTable()), NewParser(nil)
	defer ref.Close()
	defer p.Close()
	var files, nsq, kept, hidden, differ int
	var size, saved int64
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.ContainsFunc(suffixes, func(s string) bool { return strings.HasSuffix(path, s) }) {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		size += int64(len(src))
		var q squeezed
		skel, ok := skeleton(path, src, nil, &q)
		if !ok {
			kept++
		} else {
			nsq++
			saved += int64(len(src) - len(skel))
			checkSqueezed(t, src, skel, &q, subst)
		}
		want, _, err := ref.parse(context.Background(), path, src, "", false)
		if err != nil {
			return err
		}
		got, _, err := p.parse(context.Background(), path, src, "", false)
		if err != nil {
			return err
		}
		if len(want.Errors) > 0 && len(got.Errors) == 0 {
			hidden++ // the whole file's errors lie in what the skeleton leaves out
			return nil
		}
		if w, g := fmt.Sprint(want.Symbols, want.Imports, want.Errors), fmt.Sprint(got.Symbols, got.Imports, got.Errors); w != g {
			differ++
			if differ <= 5 {
				t.Errorf("%s: the skeleton's symbols differ\n got %.600s\nwant %.600s", path, g, w)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s skeleton: %d files (%.1f MB), %d squeezed (%.1f MB squeezed out), %d parsed whole; "+
		"%d with syntax errors only in what the skeleton leaves out (not compared); %d differ",
		lang, files, float64(size)/(1<<20), nsq, float64(saved)/(1<<20), kept, hidden, differ)
	if differ > 0 {
		t.Errorf("%d of %d files read differently through the skeleton", differ, files)
	}
}

// wholeTable is the default table with every skeleton left out: what the
// skeletons are checked against.
func wholeTable() *Table {
	t := NewTable()
	for _, l := range t.langs {
		l.skeleton = nil
	}
	return t
}
