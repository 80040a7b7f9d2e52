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
	if want := topLevelNames(f.Symbols); !slices.Equal(sortedKeys(got), want) || len(want) != 5 {
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
	check := func(when string) { t.Helper(); checkNames(t, store, when, want) }
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

// checkNames compares the stored name index with want ("name\x00path"
// pairs): every part sorted and distinct, in its bucket, at most
// nameMaxParts parts a bucket, the merged parts equal to want, and
// pathsNamed of each name equal to want's paths of it.
func checkNames(t *testing.T, store *graph.Store, when string, want map[string]bool) {
	t.Helper()
	got := map[string]bool{}
	parts := map[string]int{}
	err := store.View(func(tx *graph.Tx) error {
		return tx.Scan(nsNames, "", func(k string, v []byte) error {
			adds, dels, err := decodePart(v)
			if err != nil {
				return fmt.Errorf("part %s: %w", k, err)
			}
			parts[k[:3]]++
			for _, entries := range [][]string{adds, dels} {
				if !slices.IsSorted(entries) || len(slices.Compact(slices.Clone(entries))) != len(entries) {
					t.Errorf("%s: part %s not sorted and distinct: %q", when, k, entries)
				}
				for _, e := range entries {
					if name, _, _ := strings.Cut(e, "\x00"); nameBucket(name) != k[:3] {
						t.Errorf("%s: %q in part %s", when, e, k)
					}
				}
			}
			return mergePart(got, v)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range parts {
		if n > nameMaxParts {
			t.Errorf("%s: bucket %s has %d parts, at most %d wanted", when, k, n, nameMaxParts)
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("%s: %d entries stored, want %d", when, len(got), len(want))
	}
	byName := map[string][]string{}
	for e := range want {
		name, p, _ := strings.Cut(e, "\x00")
		byName[name] = append(byName[name], p)
	}
	for name, paths := range byName {
		slices.Sort(paths)
		var found []string
		err := store.View(func(tx *graph.Tx) error {
			var err error
			found, err = pathsNamed(tx, name)
			return err
		})
		if err != nil || !slices.Equal(found, paths) {
			t.Errorf("%s: pathsNamed(%q) = %q, %v; want %q", when, name, found, err, paths)
		}
	}
}

// TestNameIndexParts follows the name index through a first index that
// flushes its pairs in several parts and runs that each rewrite some
// files: their deltas pile up, and a bucket folds into one base before it
// has more than nameMaxParts parts. After each run the index equals the
// pairs of the files as they are.
func TestNameIndexParts(t *testing.T) {
	store := openStore(t)
	rng := rand.New(rand.NewPCG(3, 4))
	files := map[string][]Symbol{}
	namesOf := func() []Symbol {
		var syms []Symbol
		for range rng.IntN(40) {
			syms = append(syms, Symbol{Name: fmt.Sprintf("n%d", rng.IntN(60))})
		}
		return syms
	}
	want := func() map[string]bool {
		out := map[string]bool{}
		for p, syms := range files {
			for _, s := range syms {
				out[s.Name+"\x00"+p] = true
			}
		}
		return out
	}
	run := func(x *nameIndex, fn func(b *graph.Batch) error) {
		t.Helper()
		if err := store.Update(x.begin); err != nil {
			t.Fatal(err)
		}
		if err := store.Batch(func(b *graph.Batch) error {
			if err := fn(b); err != nil {
				return err
			}
			return x.write(store, b)
		}); err != nil {
			t.Fatal(err)
		}
	}
	x := newNameIndex(true)
	x.flushAt = 500
	run(x, func(b *graph.Batch) error {
		for i := range 200 {
			p := fmt.Sprintf("d%d/f%03d.go", i%7, i)
			files[p] = namesOf()
			if err := b.Set(nsSymbols, p, encodeSymbols(&File{Path: p, Lang: "go", Symbols: files[p]}, nil)); err != nil {
				return err
			}
			x.learn(fileNames(p, files[p]))
			if x.full() {
				if err := x.flush(store, b); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if x.flushes < 5 {
		t.Fatalf("the first index flushed %d times, want several", x.flushes)
	}
	checkNames(t, store, "cold", want())
	for r := range 3 * nameMaxParts {
		// The symbol records are written before the run that reads them
		// (forget reads the stored record, as Update's record does).
		changed := map[string][]Symbol{}
		for range 1 + rng.IntN(20) {
			p := fmt.Sprintf("d%d/f%03d.go", rng.IntN(7), rng.IntN(230))
			changed[p] = namesOf()
		}
		x := newNameIndex(false)
		run(x, func(b *graph.Batch) error {
			for p, syms := range changed {
				if _, ok := files[p]; ok {
					keep := fileNames(p, syms)
					if _, kept, err := x.forget(store, p, keep); err != nil {
						return err
					} else if kept {
						continue
					}
				}
				x.learn(fileNames(p, syms))
			}
			return nil
		})
		err := store.Batch(func(b *graph.Batch) error {
			for p, syms := range changed {
				files[p] = syms
				if err := b.Set(nsSymbols, p, encodeSymbols(&File{Path: p, Lang: "go", Symbols: syms}, nil)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		checkNames(t, store, fmt.Sprintf("run %d", r), want())
	}
}

// TestNameIndexColdAfterInterrupted: a first index cut short leaves the
// parts it flushed; the first index that runs next starts the name index
// afresh, so that no pair of the files as they were then stays.
func TestNameIndexColdAfterInterrupted(t *testing.T) {
	store := openStore(t)
	learnAll := func(x *nameIndex, b *graph.Batch, files map[string][]string) error {
		for p, names := range files {
			var syms []Symbol
			for _, n := range names {
				syms = append(syms, Symbol{Name: n})
			}
			x.learn(fileNames(p, syms))
			if x.full() {
				if err := x.flush(store, b); err != nil {
					return err
				}
			}
		}
		return nil
	}
	cut := newNameIndex(true)
	cut.flushAt = 2
	if err := store.Update(cut.begin); err != nil {
		t.Fatal(err)
	}
	// Flushed, never written to the end (no write): as a run killed midway.
	err := store.Batch(func(b *graph.Batch) error {
		return learnAll(cut, b, map[string][]string{"a.go": {"Old", "Gone"}, "b.go": {"Old"}, "c.go": {"Stale"}})
	})
	if err != nil || cut.flushes == 0 {
		t.Fatalf("the interrupted run flushed %d times, %v", cut.flushes, err)
	}
	x := newNameIndex(true)
	if err := store.Update(x.begin); err != nil {
		t.Fatal(err)
	}
	err = store.Batch(func(b *graph.Batch) error {
		if err := learnAll(x, b, map[string][]string{"a.go": {"New"}, "b.go": {"Old"}}); err != nil {
			return err
		}
		return x.write(store, b)
	})
	if err != nil {
		t.Fatal(err)
	}
	checkNames(t, store, "after", map[string]bool{"New\x00a.go": true, "Old\x00b.go": true})
}
