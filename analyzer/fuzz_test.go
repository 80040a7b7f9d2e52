package analyzer

import "testing"

// The index's records are a binary format of our own: decoding arbitrary
// bytes must fail cleanly, never panic.
func FuzzDecodeRecords(f *testing.F) {
	f.Add([]byte{1, 2, 3})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeMeta("f.go", b)
		decodeSymbols("f.go", b)
		decodeImports("f.go", b)
	})
}

// Parsing arbitrary text in every language yields findings, never a panic,
// and symbols whose lines lie inside the file.
func FuzzParse(f *testing.F) {
	f.Add("a.go", []byte("package a\nfunc F() {}\n"))
	f.Add("a.py", []byte("class A:\n  def f(self): pass\n"))
	f.Add("a.ts", []byte("export class A { m(): void {} }\n"))
	f.Add("a.rs", []byte("impl A { fn f(&self) {} }\n"))
	p := NewParser(nil) // one per fuzz worker: parsers are costly to build
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		for _, path := range []string{"x.go", "x.py", "x.ts", "x.tsx", "x.js", "x.rs", "x.java", "x.c"} {
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
