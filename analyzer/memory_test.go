package analyzer

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// rss is the resident set size in bytes (Linux), or 0.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// TestMemoryFlat parses the fixture corpus (every language) many times
// with one parser and checks that neither the Go heap nor the process's
// resident memory (which includes tree-sitter's C allocations) grows.
func TestMemoryFlat(t *testing.T) {
	if rss() == 0 {
		t.Skip("no /proc/self/statm")
	}
	files, _ := filepath.Glob("../testdata/analyzer/*.txtar")
	type doc struct {
		name string
		src  []byte
	}
	var corpus []doc
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, af := range ar.Files {
			corpus = append(corpus, doc{af.Name, af.Data})
		}
	}
	rounds := 200
	if testing.Short() {
		rounds = 50
	}
	p := NewParser(nil)
	defer p.Close()
	measure := func() (int64, uint64) {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return rss(), ms.HeapAlloc
	}
	var r0 int64
	var h0 uint64
	for i := 0; i < rounds; i++ {
		if i == rounds/4 {
			r0, h0 = measure()
		}
		for _, d := range corpus {
			if _, err := p.Parse(d.name, d.src); err != nil {
				t.Fatal(err)
			}
		}
	}
	r1, h1 := measure()
	t.Logf("%d parses: RSS %.1f → %.1f MiB, heap %.1f → %.1f MiB", rounds*len(corpus),
		float64(r0)/(1<<20), float64(r1)/(1<<20), float64(h0)/(1<<20), float64(h1)/(1<<20))
	if r1-r0 > 16<<20 {
		t.Errorf("RSS grew by %.1f MiB", float64(r1-r0)/(1<<20))
	}
	if int64(h1)-int64(h0) > 8<<20 {
		t.Errorf("heap grew by %.1f MiB", float64(int64(h1)-int64(h0))/(1<<20))
	}
}
