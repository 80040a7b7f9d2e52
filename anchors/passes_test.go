package anchors_test

import (
	"context"
	"sync"
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

// fileCounter counts the files the verifier reads, by path.
type fileCounter struct {
	anchors.Files
	mu    sync.Mutex
	reads map[string]int
}

func (c *fileCounter) File(ctx context.Context, path string) (*anchors.File, error) {
	c.mu.Lock()
	c.reads[path]++
	c.mu.Unlock()
	return c.Files.File(ctx, path)
}

// With history and the change's file list, relocation reads only the
// files the change touched, and files new to the source (untracked ones
// are in no git diff): a file the change left as it was holds only
// symbols that were there before, none of them where a vanished one went.
func TestRelocationReadsOnlyTouchedFiles(t *testing.T) {
	ctx := context.Background()
	body := "(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x * x\n\t}\n\treturn t\n}\n"
	before := fstest.MapFS{
		"a.go":       {Data: []byte("package a\n\nfunc SumSquares" + body)},
		"b.go":       {Data: []byte("package a\n\nfunc Keep() int {\n\treturn 2\n}\n")},
		"old/c.go":   {Data: []byte("package a\n\nfunc Squares" + body)},
		"other/d.go": {Data: []byte("package a\n\nfunc Other() int {\n\treturn 3\n}\n")},
	}
	after := fstest.MapFS{
		"a.go":       {Data: []byte("package a\n")},
		"b.go":       before["b.go"],
		"old/c.go":   before["old/c.go"],
		"other/d.go": before["other/d.go"],
		"new/e.go":   {Data: []byte("package a\n\nfunc SquareSum" + body)},
	}
	bs, err := anchors.NewSource(before, anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer bs.Close()
	a, err := anchors.ParseSpec("a.go::SumSquares")
	if err != nil {
		t.Fatal(err)
	}
	if a, err = anchors.Baseline(ctx, bs, a); err != nil {
		t.Fatal(err)
	}
	src, err := anchors.NewSource(after, anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	files := &fileCounter{Files: src, reads: map[string]int{}}
	v, err := anchors.NewVerifier(files, anchors.Options{Base: bs, Changed: func(context.Context) []string { return []string{"a.go"} }})
	if err != nil {
		t.Fatal(err)
	}
	r := v.Verify(ctx, a)
	// old/c.go had the same body before: no candidate either way.
	if r.To == nil || r.To.FQName != "new/e.go::SquareSum" || r.Change != anchors.ChangeMovedRenamed {
		t.Fatalf("got %s %s %v, want moved+renamed to new/e.go::SquareSum", r.Status, r.Change, r.To)
	}
	for _, p := range []string{"b.go", "old/c.go", "other/d.go"} {
		if n := files.reads[p]; n != 0 {
			t.Errorf("%s, untouched, read %d times", p, n)
		}
	}
}
