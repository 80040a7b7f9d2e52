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

// TestParseLuaAfterCutOffString parses a Lua file that ends inside a
// string, then one with block strings: the grammar's scanner keeps the
// open string's quote in a C global a new parse does not reset, and the
// second file used to lose a function to it. What a file yields must not
// depend on the file parsed before it.
func TestParseLuaAfterCutOffString(t *testing.T) {
	p := NewParser(nil)
	defer p.Close()
	blocks := []byte("local s = [[a\"b\nc]]\nfunction f() return 1 end\nlocal t = [==[x]]y]==]\nfunction g() end\n")
	fresh, err := p.Parse("blocks.lua", blocks)
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []string{"G'", "print(\"unfinished", "local x = 'a"} {
		if _, err := p.Parse("cut.lua", []byte(cut)); err != nil {
			t.Fatal(err)
		}
		got, err := p.Parse("blocks.lua", blocks)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Symbols, fresh.Symbols) {
			t.Errorf("after %q: %d symbols, %d in a fresh parse: %v", cut, len(got.Symbols), len(fresh.Symbols), got.Symbols)
		}
	}
}
