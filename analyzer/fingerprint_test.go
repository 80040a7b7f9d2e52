package analyzer

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

func TestHashTextNormalizes(t *testing.T) {
	base := HashText([]byte("a := 1\nb := 2\n"))
	for _, v := range []string{"a := 1\r\nb := 2\r\n", "a := 1  \nb := 2\t\n", "a := 1\nb := 2"} {
		if got := HashText([]byte(v)); got != base {
			t.Errorf("HashText(%q) = %s, want %s", v, got, base)
		}
	}
	if HashText([]byte("a := 1\nb := 3\n")) == base {
		t.Error("different text, same hash")
	}
	if HashText([]byte("a :=  1\nb := 2\n")) == base {
		t.Error("inner whitespace must count for the exact hash")
	}
	if !strings.HasPrefix(base, "sha256:") || len(base) != 7+64 {
		t.Errorf("bad format %q", base)
	}
}

// TestNormalizeAsHashText holds the parser's normalization (one buffer,
// hashed at once) to HashText's line by line hashing, on the line ends
// and blanks it reads away.
func TestNormalizeAsHashText(t *testing.T) {
	for _, v := range []string{"", "\n", "\r\n", " ", "a", "a\n", "a\r\n", "a \n", "a\t", "a\r\r\n", "a\n\n",
		"a  \nb\n", "a\nb \t\r\n", "a\r\nb\r\nc", " \n \n", "a\n  b  \n\tc\t", "\r", "a\rb\n"} {
		norm := appendNormalized(nil, []byte(v))
		if got, want := digestString(norm), HashText([]byte(v)); got != want {
			t.Errorf("appendNormalized(%q) = %q: %s, HashText %s", v, norm, got, want)
		}
		// normalText hands the text back exactly when nothing but a
		// final line break is read away.
		plain := v
		if p, ok := strings.CutSuffix(plain, "\n"); ok {
			plain = strings.TrimSuffix(p, "\r")
		}
		if text, ok := normalText([]byte(v)); ok != (plain == string(norm)) || ok && string(text) != plain {
			t.Errorf("normalText(%q) = %q, %v; appendNormalized %q", v, text, ok, norm)
		}
	}
}

// checkCleanLines checks that when cleanLines holds for src, normalText
// reads away nothing but the final line break of any run of its lines,
// as fingerprint takes it to.
func checkCleanLines(t *testing.T, src []byte) {
	ls := lineStarts(src)
	if !cleanLines(src, ls) {
		return
	}
	for start := 1; start <= len(ls) && start <= 20; start++ {
		for end := start; end <= len(ls) && end <= start+20; end++ {
			a, b, ok := lineSpan(src, ls, start, end)
			if !ok {
				continue
			}
			want := bytes.TrimSuffix(src[a:b], []byte("\n"))
			if text, ok := normalText(src[a:b]); !ok || !bytes.Equal(text, want) {
				t.Errorf("%q, lines %d-%d: normalText = %q, %v; cleanLines says %q", src, start, end, text, ok, want)
			}
		}
	}
}

func TestCleanLines(t *testing.T) {
	for _, v := range []string{"", "\n", "\n\n", "a", "a\n", "a\nb", "a\nb\n", "a\n\nb\n\n", "\tx\n y\n"} {
		if !cleanLines([]byte(v), lineStarts([]byte(v))) {
			t.Errorf("cleanLines(%q) = false", v)
		}
		checkCleanLines(t, []byte(v))
	}
	for _, v := range []string{" ", "a \n", "a\t\nb\n", "a\r\n", "a\nb\r\n", "a\nb ", "a\nb\t", "a\r", "\r\n"} {
		if cleanLines([]byte(v), lineStarts([]byte(v))) {
			t.Errorf("cleanLines(%q) = true", v)
		}
	}
}

// TestShapeIgnoresFormatting checks, per language, that reformatting and
// comments keep the shape while a changed token changes it.
func TestShapeIgnoresFormatting(t *testing.T) {
	cases := []struct {
		lang, a, same, diff string
	}{
		{"go", "func f(a int) int {\n\treturn a + 1\n}\n", "// doc\nfunc f(a int) int { return a+1 /* one */ }", "func f(a int) int { return a + 2 }"},
		{"python", "def f(a):\n    return a + 1\n", "def f( a ):  # c\n    return a+1\n", "def f(a):\n    return a + '1'\n"},
		{"typescript", "function f(a: number) {\n  return `x ${a}`; // c\n}", "function f(a:number){return `x ${a}`}", "function f(a: number) { return `y ${a}` }"},
		{"rust", "fn f<'a>(x: &'a str) -> char { 'x' }", "fn f<'a>(x:&'a str)->char{ /* c /* nested */ */ 'x' }", "fn f<'a>(x: &'a str) -> char { 'y' }"},
		{"java", "int f(int a) { return a; }", "int f(int a)\n{\n  return a; // c\n}", "int f(int b) { return b; }"},
		{"c", "int f(void) { return \"//not a comment\"[0]; }", "int f(void){return \"//not a comment\"[0];}", "int f(void) { return \"//\"[0]; }"},
		{"", "a b, c", "a   b ,\n c", "a b; c"},
	}
	for _, c := range cases {
		sa, ss, sd := ShapeOf(c.lang, []byte(c.a)), ShapeOf(c.lang, []byte(c.same)), ShapeOf(c.lang, []byte(c.diff))
		if sa != ss {
			t.Errorf("%s: shape differs for reformatted text:\n%q\n%q\ntokens %q vs %q", c.lang, c.a, c.same, Tokens(c.lang, []byte(c.a)), Tokens(c.lang, []byte(c.same)))
		}
		if sa == sd {
			t.Errorf("%s: shape equal for changed text %q", c.lang, c.diff)
		}
	}
}

func TestTokensDropComments(t *testing.T) {
	got := strings.Join(Tokens("python", []byte("x = 'a # b'  # comment\ny = \"\"\"doc\n# kept\"\"\"\n")), " ")
	want := `x = 'a # b' y = """doc
# kept"""`
	if got != want {
		t.Errorf("Tokens = %q, want %q", got, want)
	}
	if got := Tokens("go", []byte("a /* c */ b // d\n`raw\r\nx`")); len(got) != 3 || got[2] != "`raw\r\nx`" {
		t.Errorf("go tokens = %q", got)
	}
}

// TestSymbolFingerprints checks that a symbol's Hash and Shape equal the
// fingerprint of its line range and that Sig tells a signature change from
// a body change.
func TestSymbolFingerprints(t *testing.T) {
	p := NewParser(nil)
	defer p.Close()
	langs := []struct {
		path, sym            string
		base, body, sig, fmt string
	}{
		{"a.go", "a.go::T::M",
			"package a\n\n// M doc.\nfunc (t *T) M(x int) int {\n\treturn x\n}\n",
			"package a\n\n// M doc.\nfunc (t *T) M(x int) int {\n\treturn x + 1\n}\n",
			"package a\n\n// M doc.\nfunc (t *T) M(x int64) int {\n\treturn x\n}\n",
			"package a\n\n// M doc, reworded.\nfunc (t *T) M(x int) int { return x }\n"},
		{"a.py", "a.py::C::m",
			"class C:\n    @dec\n    def m(self, x):\n        return x\n",
			"class C:\n    @dec\n    def m(self, x):\n        return x * 2\n",
			"class C:\n    @dec\n    def m(self, x, y):\n        return x\n",
			"class C:\n    @dec\n    def m(self,x):  # note\n        return x\n"},
		{"a.ts", "a.ts::C::m",
			"class C {\n  m(x: number): number {\n    return x;\n  }\n}\n",
			"class C {\n  m(x: number): number {\n    return x + 1;\n  }\n}\n",
			"class C {\n  m(x: string): number {\n    return x;\n  }\n}\n",
			"class C {\n  m(x: number): number { return x; } // c\n}\n"},
		{"a.rs", "a.rs::S::m",
			"impl S {\n    fn m(&self) -> u8 {\n        1\n    }\n}\n",
			"impl S {\n    fn m(&self) -> u8 {\n        2\n    }\n}\n",
			"impl S {\n    fn m(&mut self) -> u8 {\n        1\n    }\n}\n",
			"impl S {\n    fn m(&self) -> u8 { 1 }\n}\n"},
		{"A.java", "A.java::A::m",
			"class A {\n  int m(int x) {\n    return x;\n  }\n}\n",
			"class A {\n  int m(int x) {\n    return -x;\n  }\n}\n",
			"class A {\n  long m(int x) {\n    return x;\n  }\n}\n",
			"class A {\n  int m(int x) { return x; }\n}\n"},
	}
	find := func(f *File, fq string) *Symbol {
		for i := range f.Symbols {
			if f.Symbols[i].FQName == fq {
				return &f.Symbols[i]
			}
		}
		t.Fatalf("%s: no symbol %s in %+v", f.Path, fq, f.Symbols)
		return nil
	}
	for _, l := range langs {
		parse := func(src string) *Symbol {
			f, err := p.Parse(l.path, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			s := find(f, l.sym)
			fp, ok := RangeFingerprint(f.Lang, []byte(src), s.StartLine, s.EndLine)
			if !ok || fp.Hash != s.Hash || fp.Shape != s.Shape {
				t.Errorf("%s: symbol fingerprint %s/%s != range fingerprint %+v", l.sym, s.Hash, s.Shape, fp)
			}
			return s
		}
		base, body, sig, reformatted := parse(l.base), parse(l.body), parse(l.sig), parse(l.fmt)
		if body.Sig != base.Sig || body.Shape == base.Shape {
			t.Errorf("%s: body change: sig equal=%v shape equal=%v", l.sym, body.Sig == base.Sig, body.Shape == base.Shape)
		}
		if sig.Sig == base.Sig {
			t.Errorf("%s: signature change not seen in Sig", l.sym)
		}
		if reformatted.Shape != base.Shape || reformatted.Hash == base.Hash {
			t.Errorf("%s: reformat: shape equal=%v hash equal=%v (tokens %q vs %q)", l.sym, reformatted.Shape == base.Shape, reformatted.Hash == base.Hash,
				RangeTokens(langOf(l.path), []byte(l.fmt), reformatted.StartLine, reformatted.EndLine),
				RangeTokens(langOf(l.path), []byte(l.base), base.StartLine, base.EndLine))
		}
	}
}

func langOf(p string) string {
	if l := NewTable().ForPath(p); l != nil {
		return l.Name
	}
	return ""
}

func TestLines(t *testing.T) {
	src := []byte("one\ntwo\nthree")
	if got, ok := Lines(src, 2, 3); !ok || string(got) != "two\nthree" {
		t.Errorf("Lines(2,3) = %q %v", got, ok)
	}
	if _, ok := Lines(src, 4, 5); ok {
		t.Error("Lines past the end should fail")
	}
	if got, _ := Lines(src, 1, 1); string(got) != "one\n" {
		t.Errorf("Lines(1,1) = %q", got)
	}
}

// TestStreamShapesSymbols checks that a file's canonical stream gives each
// symbol the shape its parse does: the verifier compares the shape of a
// symbol read from the index, which keeps none, through the stream.
func TestStreamShapesSymbols(t *testing.T) {
	n := 0
	eachParsedFixture(t, func(file string, f txtar.File, _ *Parser, pf *File) {
		st := ShapeCanonical.Stream(pf.Lang, f.Data)
		for _, s := range pf.Symbols {
			if s.Shape == "" {
				continue
			}
			if got := st.Shape(s.StartLine, s.EndLine); got != s.Shape {
				t.Errorf("%s %s: %s: stream shape %s, parse %s", file, f.Name, s.FQName, got, s.Shape)
			}
			if got := ShapeCanonical.Shape(st.Tokens(s.StartLine, s.EndLine)); got != s.Shape {
				t.Errorf("%s %s: %s: shape of the stream's tokens %s, parse %s", file, f.Name, s.FQName, got, s.Shape)
			}
			n++
		}
	})
	if n < 100 {
		t.Fatalf("only %d symbols compared", n)
	}
	t.Logf("%d symbols: stream and parse agree", n)
}

// Lines scans only as far as it must, and agrees with the line index the
// streams use on every range, in range or not.
func TestLinesAgreesWithLineIndex(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "a\n", "a\nb", "a\nb\n", "\n\n\n", "a\n\nb\n\n", "x\r\ny\r\n"} {
		b := []byte(src)
		ls := lineStarts(b)
		for start := -1; start <= len(ls)+2; start++ {
			for end := -1; end <= len(ls)+2; end++ {
				got, ok := Lines(b, start, end)
				x, y, wok := lineSpan(b, ls, start, end)
				var want []byte
				if wok {
					want = b[x:y]
				}
				if ok != wok || string(got) != string(want) {
					t.Errorf("Lines(%q, %d, %d) = %q, %v; want %q, %v", src, start, end, got, ok, want, wok)
				}
			}
		}
	}
}

// TestWindowsInReorderedRuns: the canonical stream sorts a Go import
// block (its groups merged) and a run of Rust uses, so that a formatter's
// order does not count; a window of lines that takes part of such a run
// reads all of it, since its lines hold places in the sorted order, not
// the imports written there (gh's 3be7a02fec dropped "path/filepath" and
// added "net/http/httptest": lines 6-10 read the same five sorted places
// before and after).
func TestWindowsInReorderedRuns(t *testing.T) {
	for _, c := range []struct {
		lang, before, after string
		start, end          int
		same                bool
	}{
		{"go", "package p\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"os\"\n\t\"path/filepath\"\n\n\t\"a.com/a\"\n\t\"b.com/b\"\n\t\"c.com/c\"\n)\n",
			"package p\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"net/http/httptest\"\n\t\"os\"\n\n\t\"a.com/a\"\n\t\"b.com/b\"\n\t\"c.com/c\"\n)\n", 5, 7, false},
		{"go", "package p\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\n\t\"example.com/a\"\n)\n",
			"package p\n\nimport (\n\t\"example.com/a\"\n\t\"fmt\"\n\t\"io\"\n)\n", 3, 8, true},
		{"rust", "use c::x;\nuse b::y;\nuse a::z;\nfn f() {}\n", "use c::w;\nuse b::y;\nuse a::z;\nfn f() {}\n", 1, 1, false},
		{"rust", "use b::x;\nuse a::y;\nfn f() {}\n", "use a::y;\nuse b::x;\nfn f() {}\n", 1, 2, true},
		{"rust", "use b::x;\nuse a::y;\nfn f() { g() }\n", "use a::y;\nuse b::x;\nfn f() { g() }\n", 3, 3, true},
	} {
		b := ShapeCanonical.Stream(c.lang, []byte(c.before))
		a := ShapeCanonical.Stream(c.lang, []byte(c.after))
		if got := b.RangeShape(c.start, c.end) == a.RangeShape(c.start, c.end); got != c.same {
			t.Errorf("%s L%d-L%d: same shape %v, want %v\n\tbefore %q\n\tafter  %q", c.lang, c.start, c.end, got, c.same,
				b.Tokens(c.start, c.end), a.Tokens(c.start, c.end))
		}
	}
}

// TestWindowsInsideTokens: a window of lines inside a string that spans
// many lines reads its part of the string (gh's help texts, raw strings:
// their lines edited read as unchanged when a window took only the tokens
// that begin in it, none); one of comments only reads their words.
func TestWindowsInsideTokens(t *testing.T) {
	goHelp := func(line2, line4 string) string {
		return "package p\n\nvar help = `\n\tDownload an artifact.\n" + line2 + "\n\tThe command requires:\n" + line4 + "\n`\n"
	}
	for _, c := range []struct {
		name, lang, before, after string
		start, end                int
		same                      bool
	}{
		{"a raw string's line edited", "go", goHelp("\t* a file path", "\t* an image"), goHelp("\t* a path to a file", "\t* an image"), 5, 5, false},
		{"another line of the string edited", "go", goHelp("\t* a file path", "\t* an image"), goHelp("\t* a file path", "\t* an image URI"), 5, 5, true},
		{"a string's line re-indented", "go", goHelp("\t* a file path", "\t* an image"), goHelp("    * a file path", "\t* an image"), 5, 5, true},
		{"the window ends inside the string", "go", goHelp("\t* a file path", "\t* an image"), goHelp("\t* a file path", "\t* an image URI"), 1, 5, true},
		{"a comment's words edited", "go", "package p\n\n// Close flushes\n// the buffer.\nfunc Close() {}\n", "package p\n\n// Close drops\n// the buffer.\nfunc Close() {}\n", 3, 4, false},
		{"a comment re-wrapped", "go", "package p\n\n// Close flushes\n// the buffer.\nfunc Close() {}\n", "package p\n\n// Close flushes the\n//   buffer.\nfunc Close() {}\n", 3, 4, true},
		{"a docstring re-indented", "python", "def f():\n    \"\"\"Flush\n       the buffer.\"\"\"\n    return 1\n", "def f():\n    \"\"\"Flush\n    the buffer.\"\"\"\n    return 1\n", 2, 3, true},
		{"a docstring's words edited", "python", "def f():\n    \"\"\"Flush\n    the buffer.\"\"\"\n    return 1\n", "def f():\n    \"\"\"Drop\n    the buffer.\"\"\"\n    return 1\n", 2, 3, false},
		{"blank lines", "go", "package p\n\n\nfunc f() {}\n", "package p\n\n\t\nfunc f() {}\n", 2, 3, true},
	} {
		b := ShapeCanonical.Stream(c.lang, []byte(c.before))
		a := ShapeCanonical.Stream(c.lang, []byte(c.after))
		if got := b.RangeShape(c.start, c.end) == a.RangeShape(c.start, c.end); got != c.same {
			t.Errorf("%s: same shape %v, want %v", c.name, got, c.same)
		}
	}
}

// A line has code when it holds a token of the stream, in either format:
// comments, docstrings in format 2, and blank lines hold none.
func TestRangeHasCode(t *testing.T) {
	src := []byte("package p\n\n// Close flushes\n/* the buffer */\nfunc Close() {\n\tx := `a\n\n`\n}\n")
	for _, fm := range []ShapeFormat{ShapeLexical, ShapeCanonical} {
		st := fm.Stream("go", src)
		for _, c := range []struct {
			start, end int
			want       bool
		}{{1, 1, true}, {2, 2, false}, {3, 4, false}, {3, 5, true}, {6, 6, true}, {7, 7, false}, {10, 10, false}} {
			if got := st.RangeHasCode(c.start, c.end); got != c.want {
				t.Errorf("format %d, L%d-L%d: has code %v, want %v", fm, c.start, c.end, got, c.want)
			}
		}
	}
}

// What a range says: its comments' words, a docstring's, not its code's,
// whatever the comment markers and line breaks.
func TestRangeSaid(t *testing.T) {
	for _, c := range []struct {
		lang, src  string
		start, end int
		want       string
	}{
		{"go", "package p\n\n// Close flushes\n// the buffer.\nfunc Close() { x := \"a b\" } // done\n", 3, 5, "Close flushes the buffer done "},
		{"go", "package p\n\n/* Close\n   flushes */ var x = 1\n", 4, 4, "flushes "},
		{"go", "package p\n\nvar help = `\n// not a comment\n`\n", 4, 4, ""},
		{"python", "def f():\n    \"\"\"Flush\n    the buffer.\"\"\"\n    return 1  # one\n", 1, 4, "Flush the buffer one "},
		{"python", "x = \"\"\"kept\"\"\"\n", 1, 1, ""},
		{"python", "def f():\n    \"\"\"Flush\n    the buffer\n    to disk.\"\"\"\n    return 1\n", 1, 2, "Flush … "},
		{"python", "def f():\n    \"\"\"Flush\n    the buffer\n    to disk.\"\"\"\n    return 1\n", 3, 5, "the buffer to disk … "},
		{"python", "x = \"\"\"kept\nacross\nlines\"\"\"\n", 2, 3, ""},
		{"c", "int x; /* a */ int y; // b\n", 1, 1, "a b "},
		{"cpp", "namespace a {\nint x;\n}  // namespace a::b\n}  // end namespace a\n", 1, 4, ""},
		{"cpp", "namespace a {\nint x;\n}  // the namespace ends\n", 1, 3, "the namespace ends "},
		{"cpp", "int x;  // namespace a\n}\n// namespace notes\n", 1, 3, "namespace a namespace notes "},
	} {
		if got := ShapeCanonical.Stream(c.lang, []byte(c.src)).RangeSaid(c.start, c.end); got != c.want {
			t.Errorf("%s %q L%d-L%d: said %q, want %q", c.lang, c.src, c.start, c.end, got, c.want)
		}
	}
}

// A range's tokens are found whatever lines hold them, where the lines
// they share hold the tokens that were next to them: lines joined, not
// tokens added.
func TestFindRange(t *testing.T) {
	before := ShapeCanonical.Stream("c", []byte("static int\nf(int x)\n{\n\treturn x;\n}\nint g(int x) { return x; }\n"))
	for _, c := range []struct {
		after      string
		start, end int
		want       [][2]int
	}{
		{"// f\nstatic int f(int x) {\n  return x;\n}\nint g(int x) { return x; }\n", 2, 4, [][2]int{{2, 3}}},
		{"static int\nf(int x)\n{\n\treturn x; x++;\n}\n", 2, 4, nil},                               // tokens added on the last line
		{"static int f(int x) { return x; }\nint g(int x) { return x; }\n", 4, 5, [][2]int{{1, 1}}}, // g's is not where f's went
	} {
		if got := ShapeCanonical.Stream("c", []byte(c.after)).FindRange(before, c.start, c.end); !slices.Equal(got, c.want) {
			t.Errorf("L%d-L%d in %q: found at %v, want %v", c.start, c.end, c.after, got, c.want)
		}
	}
	// A sorted run of includes: the range's part of it is read by the
	// places its tokens took, the rest of the run searched beside it.
	before = ShapeCanonical.Stream("c", []byte("#include <b.h>\n\n#include <a.h>\n#include <c.h>\n\nstatic int f(int,\n    int);\n"))
	for _, c := range []struct {
		after      string
		start, end int
		want       [][2]int
	}{
		{"#include <a.h>\n#include <b.h>\n#include <c.h>\n\nstatic int f(int, int);\n", 4, 6, [][2]int{{3, 5}}},
		{"#include <a.h>\n#include <b.h>\n#include <c.h>\n\nstatic int f(int, int);\n", 1, 3, [][2]int{{1, 2}}},
		{"#include <a.h>\n#include <b.h>\n#include <d.h>\n\nstatic int f(int, int);\n", 4, 6, nil},                 // another header
		{"#include <a.h>\n#include <b.h>\n#include <c.h>\n#include <d.h>\n\nstatic int f(int, int);\n", 1, 3, nil}, // a header added
	} {
		if got := ShapeCanonical.Stream("c", []byte(c.after)).FindRange(before, c.start, c.end); !slices.Equal(got, c.want) {
			t.Errorf("L%d-L%d in %q: found at %v, want %v", c.start, c.end, c.after, got, c.want)
		}
	}
}

// A range inside a raw string, or one that ends inside it, does not hold
// whole tokens.
func TestRangeWhole(t *testing.T) {
	st := ShapeCanonical.Stream("go", []byte("package p\n\nvar help = `\nline\n`\nvar x = 1\n"))
	for _, c := range []struct {
		start, end int
		want       bool
	}{{1, 2, true}, {3, 5, true}, {4, 4, false}, {4, 6, false}, {1, 3, false}, {6, 6, true}} {
		if got := st.RangeWhole(c.start, c.end); got != c.want {
			t.Errorf("L%d-L%d: whole %v, want %v", c.start, c.end, got, c.want)
		}
	}
}
