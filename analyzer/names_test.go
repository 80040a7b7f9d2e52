package analyzer

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lorehq/lore/graph"
)

// TestNameBucketFormat pins the stored bucket keys: FNV-1a modulo
// nameBuckets as "%03x".
func TestNameBucketFormat(t *testing.T) {
	for _, n := range []string{"", "a", "Update", "main", "__init__", "ÄÖ", "x\x00y"} {
		h := fnv.New32a()
		h.Write([]byte(n))
		if want := fmt.Sprintf("%03x", h.Sum32()%nameBuckets); nameBucket(n) != want {
			t.Errorf("nameBucket(%q) = %s, want %s", n, nameBucket(n), want)
		}
	}
}

// TestDecodeTopNames checks the light decoder against topLevelNames of
// the full decode.
func TestDecodeTopNames(t *testing.T) {
	p := NewParser(nil)
	defer p.Close()
	f, err := p.Parse("a/b.go", []byte("package b\n\ntype T struct{}\n\nfunc (T) M() {}\n\ntype I interface{ N() }\n\nconst C, D = 1, 2\n\nfunc F() {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeTopNames(encodeSymbols(f, nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := topLevelNames(f.Symbols); !sameSet(got, want) || len(want) != 5 {
		t.Errorf("decodeTopNames = %v, want %v", got, want)
	}
}

func TestSameNames(t *testing.T) {
	syms := func(names ...string) []Symbol {
		var out []Symbol
		for _, n := range names {
			out = append(out, Symbol{Name: n})
		}
		return out
	}
	for _, c := range []struct {
		old, now []string
		want     bool
	}{
		{[]string{"init", "init", "F"}, []string{"F", "init"}, true},
		{nil, nil, true},
		{[]string{"F"}, []string{"F", "G"}, false},
		{[]string{"F", "G"}, []string{"F"}, false},
		{[]string{"F", "F"}, []string{"G"}, false},
	} {
		if got := sameNames(syms(c.old...), fileNames("p.go", syms(c.now...))); got != c.want {
			t.Errorf("sameNames(%v, %v) = %v, want %v", c.old, c.now, got, c.want)
		}
	}
}

// TestNameIndexWrite checks the stored buckets against a reference: the
// sorted distinct strings "name\x00path" of the pairs learnt, after a cold
// write and after an update that forgets some pairs and learns others.
func TestNameIndexWrite(t *testing.T) {
	store := openStore(t)
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[string]bool{}
	names := func() []string {
		var out []string
		for range 300 {
			out = append(out, fmt.Sprintf("n%d", rng.IntN(40)))
		}
		return out
	}
	x := newNameIndex(true)
	files := map[string][]Symbol{}
	for i := range 20 {
		p := fmt.Sprintf("d/f%02d.go", i)
		var syms []Symbol
		for _, n := range names()[:rng.IntN(30)] {
			syms = append(syms, Symbol{Name: n})
			want[n+"\x00"+p] = true
		}
		files[p] = syms
		x.learn(fileNames(p, syms))
	}
	write := func(x *nameIndex) {
		t.Helper()
		if err := store.Batch(func(b *graph.Batch) error { return x.write(store, b) }); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		got := map[string]bool{}
		err := store.View(func(tx *graph.Tx) error {
			return tx.Scan(nsNames, "", func(k string, v []byte) error {
				entries, err := decodeNames(v)
				if !slices.IsSorted(entries) || len(slices.Compact(slices.Clone(entries))) != len(entries) {
					t.Errorf("%s: bucket %s not sorted and distinct: %q", when, k, entries)
				}
				for _, e := range entries {
					if name, _, _ := strings.Cut(e, "\x00"); nameBucket(name) != k {
						t.Errorf("%s: %q in bucket %s", when, e, k)
					}
					got[e] = true
				}
				return err
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: %d entries stored, want %d", when, len(got), len(want))
		}
	}
	write(x)
	check("cold")

	// Rewrite every other file with new names; those files' old pairs go.
	for i := 0; i < 20; i += 2 {
		p := fmt.Sprintf("d/f%02d.go", i)
		if err := store.Batch(func(b *graph.Batch) error {
			return b.Set(nsSymbols, p, encodeSymbols(&File{Path: p, Lang: "go", Symbols: files[p]}, nil))
		}); err != nil {
			t.Fatal(err)
		}
	}
	x = newNameIndex(false)
	for i := 0; i < 20; i += 2 {
		p := fmt.Sprintf("d/f%02d.go", i)
		for _, s := range files[p] {
			delete(want, s.Name+"\x00"+p)
		}
		var syms []Symbol
		for _, n := range names()[:rng.IntN(30)] {
			syms = append(syms, Symbol{Name: n + "x"})
			want[n+"x\x00"+p] = true
		}
		if _, kept, err := x.forget(store, p, fileNames(p, syms)); err != nil || kept {
			t.Fatalf("forget(%s) = kept %v, %v", p, kept, err)
		}
		x.learn(fileNames(p, syms))
	}
	write(x)
	check("update")
}

// A bucket of the first record format (every entry whole), as stores
// written before front coding hold, still decodes; an unknown format is
// corrupt.
func TestDecodeNamesFormats(t *testing.T) {
	want := []string{"Read\x00a/b.go", "Read\x00a/c.go", "ReadAll\x00a/b.go"}
	e := enc{b: []byte{recordFormat}}
	e.strs(want)
	got, err := decodeNames(e.b)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("format 1: %q, %v; want %q", got, err, want)
	}
	entries := []nameEntry{{"Read", "a/b.go"}, {"Read", "a/c.go"}, {"ReadAll", "a/b.go"}}
	v := encodeNames(entries)
	if got, err := decodeNames(v); err != nil || !slices.Equal(got, want) {
		t.Errorf("format 2: %q, %v; want %q", got, err, want)
	}
	if whole := len(e.b); len(v) >= whole {
		t.Errorf("front-coded bucket takes %d bytes, whole entries %d", len(v), whole)
	}
	for _, bad := range [][]byte{nil, {9, 0}, {namesFormat, 1, 5, 1, 'x'}, {namesFormat, 2, 0, 1, 'x', 0, 9}} {
		if _, err := decodeNames(bad); err == nil {
			t.Errorf("decodeNames(%v) accepted a corrupt record", bad)
		}
	}
}
