package analyzer

import (
	"cmp"
	"slices"
	"strings"
	"testing"
)

// The index's records are a binary format of our own: decoding arbitrary
// bytes must fail cleanly, never panic.
func FuzzDecodeRecords(f *testing.F) {
	f.Add([]byte{1, 2, 3})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add(encodeSymbols(&File{Path: "f.go", Lang: "go", Symbols: recordSymbols("f.go")}, nil))
	f.Add(encodeDelta([]nameEntry{{"Read", "a/b.go"}}, []nameEntry{{"Read", "a/c.go"}, {"ReadAll", "a/c.go"}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeMeta("f.go", b)
		decodeSymbols("f.go", b)
		decodeTopNames(b)
		decodeImports("f.go", b)
		decodeNames(b)
		decodePart(b)
	})
}

// The parser normalizes a file's text for its hash into one buffer: the
// hash must be HashText's.
func FuzzNormalize(f *testing.F) {
	f.Add([]byte("a \r\nb\t\n"))
	f.Add([]byte("a\nb"))
	f.Fuzz(func(t *testing.T, b []byte) {
		norm := appendNormalized(nil, b)
		if got, want := digestString(norm), HashText(b); got != want {
			t.Errorf("appendNormalized(%q) = %q: %s, HashText %s", b, norm, got, want)
		}
		if text, ok := normalText(b); ok && string(text) != string(norm) {
			t.Errorf("normalText(%q) = %q, appendNormalized %q", b, text, norm)
		}
		checkCleanLines(t, b)
	})
}

// Parsing arbitrary text in every language yields findings, never a panic,
// and symbols whose lines lie inside the file.
func FuzzParse(f *testing.F) {
	f.Add("a.go", []byte("package a\nfunc F() {}\n"))
	f.Add("a.py", []byte("class A:\n  def f(self): pass\n"))
	f.Add("a.ts", []byte("export class A { m(): void {} }\n"))
	f.Add("b.ts", []byte("class S {\n  constructor(private readonly h: H, n = 1, readonly l?: number) {}\n}\n"))
	f.Add("a.rs", []byte("impl A { fn f(&self) {} }\n"))
	f.Add("a.kt", []byte("enum class E { A { override fun f() = 1 } }\nclass C { val p: Int\n  get() = 2\n  private set }\n"))
	f.Add("b.kt", []byte("/** D */\ndata class D(val a: Int, var b: String = \"\", c: Long) { val s get() = a }\n"))
	f.Add("a.scala", []byte("case class U(id: String)(implicit c: C)\nclass V(val r: R, x: Int)\n"))
	f.Add("a.c", []byte("#ifdef __cplusplus\nextern \"C\"\n#endif\nint CJSON_CDECL main(void)\n{\n  list_for_each(p, &h) {\n#ifdef W\n    if (a(p))\n#else\n    if (b(p))\n#endif\n      g();\n  }\n}\nRB_GENERATE(t, n, e, c)\nX\nstatic const int t[] = {\n#include \"a.h\"\n  1,\n};\n"))
	p := NewParser(nil) // one per fuzz worker: parsers are costly to build
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		for _, path := range []string{"x.go", "x.py", "x.ts", "x.tsx", "x.js", "x.rs", "x.java", "x.kt", "x.scala", "x.c"} {
			file, err := p.Parse(path, src)
			if err != nil {
				continue
			}
			lines := 1
			for _, c := range src {
				if c == '\n' {
					lines++
				}
			}
			for _, s := range file.Symbols {
				if s.StartLine < 1 || s.EndLine < s.StartLine || s.EndLine > lines {
					t.Fatalf("%s: symbol %s has lines %d-%d in a %d-line file", path, s.FQName, s.StartLine, s.EndLine, lines)
				}
			}
		}
	})
}

// A name bucket decodes to the entries it was encoded from, whatever the
// names and paths (without NUL in names, as symbol names never hold one).
func FuzzNamesRecord(f *testing.F) {
	f.Add("Read", "a/b.go", "ReadAll", "a/b.go", "Read", "a/c.go")
	f.Add("", "", "x", "", "x", "y")
	f.Fuzz(func(t *testing.T, n1, p1, n2, p2, n3, p3 string) {
		var entries []nameEntry
		for _, e := range []nameEntry{{n1, p1}, {n2, p2}, {n3, p3}} {
			if !strings.Contains(e.name, "\x00") {
				entries = append(entries, e)
			}
		}
		slices.SortFunc(entries, func(a, b nameEntry) int {
			return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.path, b.path))
		})
		entries = slices.Compact(entries)
		got, err := decodeNames(encodeNames(entries))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(entries) {
			t.Fatalf("decoded %d entries, want %d", len(got), len(entries))
		}
		for i, e := range entries {
			if want := e.name + "\x00" + e.path; got[i] != want {
				t.Errorf("entry %d = %q, want %q", i, got[i], want)
			}
		}
	})
}
