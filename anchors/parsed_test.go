package anchors_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/lorehq/lore/anchors"
)

// A file's version parsed by one Source is not parsed again by the next
// one sharing Parsed; another version is, and a full Parsed starts afresh.
func TestParsedAcrossSources(t *testing.T) {
	ctx := context.Background()
	parsed := anchors.NewParsed(2)
	read := func(fsys fstest.MapFS, path string) *anchors.File {
		t.Helper()
		src, err := anchors.NewSource(fsys, anchors.SourceOptions{Parsed: parsed})
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		f, err := src.File(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Symbols) == 0 {
			t.Fatalf("%s: no symbols", path)
		}
		return f
	}
	v1 := fstest.MapFS{"a.go": {Data: []byte("package a\n\nfunc F() {}\n")}}
	v2 := fstest.MapFS{"a.go": {Data: []byte("package a\n\nfunc G() {}\n")}}
	first := read(v1, "a.go")
	if again := read(v1, "a.go"); &again.Symbols[0] != &first.Symbols[0] {
		t.Error("the same version was parsed again")
	}
	changed := read(v2, "a.go")
	if changed.Symbols[0].Name != "G" {
		t.Errorf("another version gave %s, want G", changed.Symbols[0].Name)
	}
	if again := read(v2, "a.go"); &again.Symbols[0] != &changed.Symbols[0] {
		t.Error("the second version was parsed again")
	}
	more := fstest.MapFS{"b.go": {Data: []byte("package a\n\nfunc B() {}\n")}, "c.go": {Data: []byte("package a\n\nfunc C() {}\n")}}
	read(more, "b.go")
	read(more, "c.go") // over the bound: a.go is forgotten
	if again := read(v2, "a.go"); &again.Symbols[0] == &changed.Symbols[0] || again.Symbols[0].Name != "G" {
		t.Errorf("after the bound: %s, want G parsed again", again.Symbols[0].Name)
	}
}
