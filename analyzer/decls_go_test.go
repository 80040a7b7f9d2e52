package analyzer

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// goDeclsDiff runs both of parseGo's paths over src: readGoDecls, with
// scratch b (which may hold other files' leftovers), and go/parser
// (parseGoSyntax). It reports whether readGoDecls fell back, and how the
// two differ where it did not ("" if they agree).
func goDeclsDiff(src []byte, b *goDeclBufs) (fellBack bool, diff string) {
	toks := goLexer{}.tokens(src, nil)
	ls := lineStarts(src)
	got := &File{Path: "x.go", Symbols: []Symbol{}, Imports: []Import{}}
	header, ok := readGoDecls(got, src, ls, toks, b)
	if !ok {
		if len(got.Symbols) > 0 || len(got.Imports) > 0 {
			return true, "fell back after setting symbols or imports"
		}
		return true, ""
	}
	want := &File{Path: "x.go", Symbols: []Symbol{}, Imports: []Import{}}
	wantHeader := parseGoSyntax(want, src, ls, toks, &goSkel{})
	switch {
	case len(want.Errors) > 0:
		return false, fmt.Sprintf("go/parser reports %d errors, first %d:%d %s", len(want.Errors), want.Errors[0].Line, want.Errors[0].Col, want.Errors[0].Message)
	case !reflect.DeepEqual(got.Symbols, want.Symbols):
		return false, fmt.Sprintf("symbols\n got %+v\nwant %+v", got.Symbols, want.Symbols)
	case !slices.Equal(header, wantHeader):
		return false, fmt.Sprintf("header offsets\n got %v\nwant %v", header, wantHeader)
	case !reflect.DeepEqual(got.Imports, want.Imports):
		return false, fmt.Sprintf("imports\n got %+v\nwant %+v", got.Imports, want.Imports)
	}
	return false, ""
}

// TestGoDeclsOracle holds readGoDecls to go/parser (through
// parseGoSyntax) over every Go file of this module and of GOROOT/src,
// whose testdata has many files go/parser rejects: where readGoDecls does
// not fall back, symbols, header offsets and imports are the same, and
// go/parser reports no syntax error. With -short, a deterministic tenth
// of GOROOT. $LORE_GO_ROOTS (a path list) adds directories.
func TestGoDeclsOracle(t *testing.T) {
	var roots []string
	if mod, err := filepath.Abs(".."); err == nil {
		roots = append(roots, mod)
	}
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot := filepath.Join(strings.TrimSpace(string(out)), "src")
		if _, err := os.Stat(goroot); err == nil {
			roots = append(roots, goroot)
		}
	}
	if len(roots) < 2 {
		t.Log("GOROOT/src not found (go env GOROOT): comparing this module's files only")
	}
	// More code to hold it to, e.g. projects it was not developed on.
	roots = append(roots, filepath.SplitList(os.Getenv("LORE_GO_ROOTS"))...)
	files, equal, fallbacks, sampled := 0, 0, 0, 0
	var b goDeclBufs // one scratch for all files, as a parser's
	for i, root := range roots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return nil
			}
			sampled++
			if i > 0 && testing.Short() && sampled%10 != 0 {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			files++
			fellBack, diff := goDeclsDiff(src, &b)
			switch {
			case fellBack && diff == "":
				fallbacks++
			case diff == "":
				equal++
			default:
				t.Errorf("%s: %s", path, diff)
			}
			return nil
		})
	}
	t.Logf("readGoDecls vs go/parser: %d files compared, %d equal, %d fell back to go/parser, %d differ", files, equal, fallbacks, files-equal-fallbacks)
	if files > 1000 && fallbacks*50 > files {
		t.Errorf("%d of %d files fell back to go/parser: more than 2%%", fallbacks, files)
	}
}

// TestGoDecls checks declarations go/parser's way on small cases, and
// that readGoDecls reads them itself (no fallback) where it should.
func TestGoDecls(t *testing.T) {
	for _, tc := range []struct {
		src      string
		fallBack bool
	}{
		{"package a\n\n// F does.\nfunc F() {}\n", false},
		{"package a\n\nvar x = 1 // trailing\n// doc\nfunc F() {\n}\n", false},
		{"package a\n\n// detached\n\n// doc\n/* more */\nfunc F() {}\n", false},
		{"package a\nvar x int; // c\nfunc F() {}\n", false},
		{"package a\nvar x int /* a\n b */ /* c */\nfunc F() {}\n", false},
		{"package a\n\nfunc (r *T[K, V]) M(a, b int, c ...string) (int, error) { return 0, nil }\n", false},
		{"package a\n\nfunc (T) M()\nfunc (p *pkg.T) N() {}\n", false},
		{"package a\n\nimport (\n\t\"fmt\"\n\tx \"a/b/v2\"\n\t_ \"embed\"\n\t. \"strings\"\n)\n\nvar _ = fmt.Sprint(x.Y, ToUpper)\n", false},
		{"package a\n\nconst (\n\t// A is.\n\tA, B = iota, 2\n\t_\n\tC\n)\n", false},
		{"package a\n\ntype (\n\tS struct {\n\t\ta, b int `tag`\n\t\t*pkg.E\n\t\tbuf [64]byte\n\t\tG[int]\n\t}\n\t// I is.\n\tI interface {\n\t\t// M does.\n\t\tM(x int) error\n\t\tfmt.Stringer\n\t\t~int | string\n\t}\n)\n", false},
		{"package a\n\ntype L[T any, P interface{ *T }] struct{ next *L[T, P] }\ntype A [N]int\ntype B []int\ntype C = map[string]func() (int, error)\ntype N[P []E, E any] int\n", false},
		{"package a\n\nvar (\n\tm = map[string]int{\"{\": 1}\n\tf = func(x int) int { return x }\n\ts = []byte(\"x\")[1:2:3]\n\tv = T[int]{}.F(a...)\n\tc = (*T)(nil)\n\tn = -1 << 3 &^ 0x_1F\n)\n", false},
		// go/parser's diagnostics for errors
		{"package a\n\nfunc F( {}\n", true},
		{"package a\n\nvar x = a b\n", true},
		{"package a\n\nfunc F()\n{\n}\n", true},
		{"package a\nvar x = \"\\q\"\n", true},
		{"package a\nvar x = 08\n", true},
		{"package a\nvar x = f(a\n)\n", true},
		{"package a\nfunc (a, b T) M() {}\n", false}, // one field: the type checker's error
		{"package a\nfunc F(a int, b) {}\n", true},
		{"package a\nfunc F(a ...int, b int) {}\n", true},
		{"package a\nvar x int\nimport \"fmt\"\n", true},
		{"package a\nfunc F() { { }\n", true},
		{"package a\n\x00", true},
		{"package a\n// \xff\n", true},
		{"package a\nvar x = " + strings.Repeat("(", 1000) + strings.Repeat(")", 1000) + "\n", true},
		{"package a\ntype T " + strings.Repeat("[]", 200000) + "int\n", true},
		{"package a\nfunc F() {" + strings.Repeat("{", 200000) + strings.Repeat("}", 200000) + "}\n", false},
		{"package a\n" + strings.Repeat("// F does.\nfunc F(a, b int) (int, error) { return a + b, nil }\n", 50000), false},
	} {
		fellBack, diff := goDeclsDiff([]byte(tc.src), &goDeclBufs{})
		if diff != "" {
			t.Errorf("%q: %s", tc.src, diff)
		}
		if fellBack != tc.fallBack {
			t.Errorf("%q: fell back %v, want %v", tc.src, fellBack, tc.fallBack)
		}
	}
}

// FuzzGoDecls: for any input, readGoDecls falls back to go/parser or
// agrees with it, and neither panics.
func FuzzGoDecls(f *testing.F) {
	for _, s := range []string{
		"package a\n\n// F does.\nfunc F[T any](x T) (int, error) { return 0, nil }\n",
		"package a\nimport (\n\t\"fmt\"\n\tx \"a/b\"\n)\nvar _ = fmt.Sprint(x.Y)\n",
		"package a\ntype (\n\tS struct{ a, b int `t`; *E }\n\tI interface{ M(); ~int | string }\n)\nconst (\n\tA = iota\n\tB\n)\n",
		"package a\nvar x = []T{{1}, {2}}[0].f(func() {}, 1e3, 'x', `r`)\n",
		"package a\nfunc (r *T[K]) M(a ...int) {}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, diff := goDeclsDiff(src, &goDeclBufs{}); diff != "" {
			t.Errorf("%q: %s", src, diff)
		}
	})
}
