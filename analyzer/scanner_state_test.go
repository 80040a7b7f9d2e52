package analyzer

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestParseConcurrentLua parses Penlight's Lua files (the Debian package
// .ci/run installs) on four parsers at once and expects what one parser
// reads: the Lua grammar's scanner keeps its state in C globals, and two
// parses at once used to corrupt each other's strings and comments.
func TestParseConcurrentLua(t *testing.T) {
	files := oracleCorpus(t, "/usr/share/lua", 200, func(rel string) bool { return strings.HasSuffix(rel, ".lua") })
	srcs := make([][]byte, len(files))
	for i, f := range files {
		b, err := os.ReadFile(filepath.Join("/usr/share/lua", f))
		if err != nil {
			t.Fatal(err)
		}
		srcs[i] = b
	}
	read := func(workers int) [][]Symbol {
		out := make([][]Symbol, len(files))
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := NewParser(nil)
				defer p.Close()
				for i := w; i < len(files); i += workers {
					f, err := p.Parse(files[i], srcs[i])
					if err != nil {
						t.Error(err)
						return
					}
					out[i] = f.Symbols
				}
			}()
		}
		wg.Wait()
		return out
	}
	want := read(1)
	for round := range 10 {
		got := read(4)
		for i := range files {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("round %d: %s: %d symbols read concurrently, %d alone", round, files[i], len(got[i]), len(want[i]))
			}
		}
	}
}
