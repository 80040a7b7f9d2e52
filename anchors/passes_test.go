package anchors_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
)

// countingFiles counts the repository-wide lookups relocation makes.
type countingFiles struct {
	anchors.Files
	named atomic.Int64
}

func (c *countingFiles) SymbolsNamed(ctx context.Context, name string) ([]analyzer.Symbol, error) {
	c.named.Add(1)
	return c.Files.SymbolsNamed(ctx, name)
}

// A run whose renames explain nothing else verifies each anchor once: the
// pass that re-reads drifted anchors in the light of the run's renames
// has nothing to do, and must not verify every anchor again (with the
// targets taken, each relocated anchor would then scan the whole source
// for another).
func TestRenamesPassOnlyWhenNeeded(t *testing.T) {
	ctx := context.Background()
	before := fstest.MapFS{
		"a.go": {Data: []byte("package a\n\nfunc Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n\nfunc One() int {\n\treturn 1\n}\n")},
	}
	after := fstest.MapFS{
		"a.go": {Data: []byte("package a\n\nfunc Total(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n\nfunc One() int {\n\treturn 1\n}\n")},
	}
	bs, err := anchors.NewSource(before, anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer bs.Close()
	var as []anchors.Anchor
	for _, spec := range []string{"a.go::Sum", "a.go::One"} {
		a, err := anchors.ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		if a, err = anchors.Baseline(ctx, bs, a); err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	as2, err := anchors.NewSource(after, anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer as2.Close()
	files := &countingFiles{Files: as2}
	v, err := anchors.NewVerifier(files, anchors.Options{Base: bs})
	if err != nil {
		t.Fatal(err)
	}
	rs := v.VerifyAll(ctx, as)
	if rs[0].Change != anchors.ChangeRenamed || rs[0].To == nil || rs[0].To.FQName != "a.go::Total" {
		t.Fatalf("Sum: %s %s %v, want renamed to a.go::Total", rs[0].Status, rs[0].Change, rs[0].To)
	}
	if n := files.named.Load(); n != 1 {
		t.Errorf("Sum was relocated %d times, want once", n)
	}
}
