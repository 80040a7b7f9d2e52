package analyzer

import (
	"context"
	"math/rand/v2"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/lorehq/lore/source"
)

// TestWalkOrder checks Walk's order against a plain recursive listing
// (each directory's files by name, then its subdirectories' by name), for
// every number of workers, with skips in the same order.
func TestWalkOrder(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	files := map[string]string{}
	var grow func(p string, depth int)
	grow = func(p string, depth int) {
		for i := range 1 + r.IntN(5) {
			name := path.Join(p, string(rune('a'+r.IntN(6)))+strings.Repeat("f", i)+".go")
			files[name] = "package p\n"
			if r.IntN(8) == 0 {
				files[name] = strings.Repeat("x", 200) // over the size limit
			}
		}
		if depth < 4 {
			for i := range 1 + r.IntN(3) {
				grow(path.Join(p, string(rune('a'+r.IntN(6)))+strings.Repeat("d", i)), depth+1)
			}
		}
	}
	grow("src", 0)
	writeFiles(t, dir, files)

	var want []Entry
	var wantSkips []Skip
	var list func(rel string)
	list = func(rel string) {
		ents, err := os.ReadDir(dir + "/" + rel)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() {
				continue
			}
			p := path.Join(rel, e.Name())
			if fi, _ := e.Info(); fi.Size() > 100 {
				wantSkips = append(wantSkips, Skip{Path: p, Reason: "larger than the size limit"})
				continue
			}
			want = append(want, Entry{Path: p})
		}
		for _, e := range ents {
			if e.IsDir() {
				list(path.Join(rel, e.Name()))
			}
		}
	}
	list("src")
	if len(want) < 50 || len(wantSkips) == 0 {
		t.Fatalf("tree too small: %d files, %d skips", len(want), len(wantSkips))
	}
	for _, workers := range []int{1, 2, 8} {
		got, skips, err := Walk(context.Background(), source.Dir(dir), WalkOptions{MaxFileSize: 100, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			got[i].Size, got[i].ModTime = 0, 0
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("workers %d: files differ:\n got %v\nwant %v", workers, got, want)
		}
		if !reflect.DeepEqual(skips, wantSkips) {
			t.Errorf("workers %d: skips differ:\n got %v\nwant %v", workers, skips, wantSkips)
		}
	}
}
