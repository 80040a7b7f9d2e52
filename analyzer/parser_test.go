package analyzer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestParserReuse checks that a parser's scratch, reused from file to
// file, leaves nothing behind: the files of this module and the analyzer
// fixtures, parsed one after another by one parser (as the index's raw
// parse and as Parse, in turn), give what a new parser gives for each.
func TestParserReuse(t *testing.T) {
	type file struct {
		path string
		src  []byte
	}
	var files []file
	filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			if src, err := os.ReadFile(p); err == nil {
				files = append(files, file{filepath.ToSlash(p), src})
			}
		}
		return nil
	})
	if len(files) < 50 {
		t.Fatalf("only %d Go files found", len(files))
	}
	shared := NewParser(nil)
	defer shared.Close()
	n := 0
	check := func(path string, src []byte) {
		ctx := context.Background()
		fresh := NewParser(shared.Table())
		defer fresh.Close()
		hash := HashText(src)
		raw := n%2 == 0
		n++
		got, sums, err := shared.parse(ctx, path, src, hash, raw)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var rec []byte
		if raw {
			rec = encodeSymbols(got, sums) // before the fresh parse: sums are the parser's
		}
		want, wantSums, err := fresh.parse(ctx, path, src, hash, raw)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: a reused parser gives\n%+v\na new one\n%+v", path, got, want)
		}
		if raw && !bytes.Equal(rec, encodeSymbols(want, wantSums)) {
			t.Errorf("%s: a reused parser's record differs from a new one's", path)
		}
	}
	for _, f := range files {
		check(f.path, f.src)
	}
	eachFixtureFile(t, func(_ string, f txtar.File) { check(f.Name, f.Data) })
	t.Logf("%d files parsed by one parser and by new ones: equal", n)
}
