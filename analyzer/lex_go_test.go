package analyzer

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoFastTokens checks the byte tokenizer against go/scanner on tricky
// snippets and, when the Go toolchain's sources are present, on every .go
// file under GOROOT/src.
func TestGoFastTokens(t *testing.T) {
	snippets := []string{
		"package p\nfunc f() { x := 0x1p-2 + 1e+3i + .5 + 0o17 + 0b1_0 + 017 + 1_000.5e-3 + 0X_1F }",
		"a &^= b; c <<= d >>= e ... f <- g && h || i != j == k := l ++ m -- ~n",
		"s := \"a\\\"b\" + `raw\r\n` + 'x' + '\\'' + \"é\" /* c */ // d",
		"x.y.z()[1:2]{3}", "1..2", "0x", "0", ".", "a.5", "1.e5", "0xep1", "08.5", "1i", "0b12",
		"'' \"\"", "\"\\q\"", "/* a */ b /**/ c ///",
		"é := 1", "x é", "\ufeffpackage p", "a\fb", "\"abc", "'a", "`abc", "/* abc", "\"a\\\nb\"", "a # b", "a$b", "\x00",
	}
	for _, s := range snippets {
		compareGoTokens(t, "snippet", []byte(s))
	}
	if testing.Short() {
		return
	}
	// the go/* packages (their testdata holds odd syntax) by default, the
	// whole tree with LORE_CORPUS=1
	root := filepath.Join(goEnv(t, "GOROOT"), "src", "go")
	if os.Getenv("LORE_CORPUS") != "" {
		root = filepath.Dir(root)
	}
	n := 0
	fallback := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		n++
		if _, ok := goFastTokens(b, nil); !ok {
			fallback++
		}
		compareGoTokens(t, p, b)
		return nil
	})
	t.Logf("%d files under %s, %d fell back to go/scanner", n, root, fallback)
}

func compareGoTokens(t *testing.T, name string, src []byte) {
	t.Helper()
	want := goScanTokens(src, nil)
	got, ok := goFastTokens(src, nil)
	if !ok {
		return
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d tokens, go/scanner %d", name, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("%s: token %d = %q at %d, go/scanner %q at %d", name, i, src[got[i].start:got[i].end], got[i].start, src[want[i].start:want[i].end], want[i].start)
			return
		}
	}
}

// TestFingerprintReference recomputes every Go symbol's Hash, Shape and Sig
// the slow way — go/scanner tokens, one hash write per line and per token —
// and compares them with the parser's (on GOROOT/src/go; the whole tree
// with LORE_CORPUS=1).
func TestFingerprintReference(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	root := filepath.Join(goEnv(t, "GOROOT"), "src", "go")
	if os.Getenv("LORE_CORPUS") != "" {
		root = filepath.Dir(root)
	}
	p := NewParser(nil)
	defer p.Close()
	files, syms := 0, 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		f, err := p.Parse("x.go", src)
		if err != nil {
			t.Fatal(err)
		}
		files++
		if f.Hash != HashText(src) {
			t.Errorf("%s: file hash %s, HashText %s", path, f.Hash, HashText(src))
		}
		toks := goScanTokens(src, nil)
		ct := canonGo(nil, src, toks, nil)
		ls := lineStarts(src)
		ref := &File{Path: "x.go"}
		header := parseGo(ref, src, ls, toks, &goScratch{})
		if len(ref.Symbols) != len(f.Symbols) {
			t.Fatalf("%s: %d symbols, parseGo %d", path, len(f.Symbols), len(ref.Symbols))
		}
		for i, s := range f.Symbols {
			syms++
			a, b, ok := lineSpan(src, ls, s.StartLine, s.EndLine)
			if !ok {
				continue
			}
			if h := HashText(src[a:b]); s.Hash != h {
				t.Errorf("%s: %s: hash %s, want %s", path, s.FQName, s.Hash, h)
			}
			lo, hi := canonRange(ct, a, b)
			if sh := digestAs(shapePrefix, appendStream(nil, src, ct[lo:hi])); s.Shape != sh {
				t.Errorf("%s: %s: shape %s, want %s", path, s.FQName, s.Shape, sh)
			}
			if s.Sig != s.Shape { // the shape of some prefix of its tokens
				found := false
				for k := lo; k < hi && !found; k++ {
					found = s.Sig == digestAs(shapePrefix, appendStream(nil, src, ct[lo:k]))
				}
				if !found {
					t.Errorf("%s: %s: sig is not the shape of a prefix of its tokens", path, s.FQName)
				}
			}
			// Format 1, what lore wrote before, as the header told it.
			var in []span
			for _, tk := range toks {
				if tk.start >= a && tk.end <= b {
					in = append(in, tk)
				}
			}
			shape1, sig1 := shapeSpans(src, in), shapeSpans(src, in)
			if header[i] >= 0 && header[i] < b {
				n := 0
				for n < len(in) && in[n].start < header[i] {
					n++
				}
				sig1 = shapeSpans(src, in[:n])
			}
			if got, gotSig := ShapeLexical.Stream("go", src).Symbol(s); got != shape1 || gotSig != sig1 {
				t.Errorf("%s: %s: format 1 shape, sig %s %s, want %s %s", path, s.FQName, got, gotSig, shape1, sig1)
			}
		}
		return nil
	})
	t.Logf("%d files, %d symbols under %s", files, syms, root)
}
