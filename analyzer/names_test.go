package analyzer

import (
	"fmt"
	"hash/fnv"
	"testing"
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
	got, err := decodeTopNames(encodeSymbols(f))
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
