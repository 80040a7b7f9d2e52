package analyzer

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
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

// TestWalkTracked: a file git tracks is listed although .gitignore
// matches it (git keeps only untracked files out), in the working tree,
// the index and a commit's tree alike, and in a workspace in a
// subdirectory; an untracked one stays out, and so does a tracked one an
// extra pattern names.
func TestWalkTracked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".gitignore":     "gen/\n*.log\n",
		"a.go":           "package a\n",
		"gen/kept.go":    "package gen\n",
		"gen/stray.go":   "package gen\n",
		"gen-tools/t.go": "package tools\n",
		"x.log":          "kept\n",
		"y.log":          "stray\n",
		"sub/.gitignore": "out/\n",
		"sub/out/o.go":   "package out\n",
		"sub/s.go":       "package sub\n",
	})
	git := func(args ...string) { gitIn(t, dir, args...) }
	git("init", "-q")
	git("add", ".")
	git("add", "-f", "gen/kept.go", "x.log", "sub/out/o.go")
	git("commit", "-q", "-m", "one")

	index, head := gitSources(t, dir)
	list := func(fsys fs.FS, ignore ...string) []string {
		t.Helper()
		entries, _, err := Walk(context.Background(), fsys, WalkOptions{Ignore: ignore})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Path)
		}
		return out
	}
	want := []string{".gitignore", "a.go", "x.log", "gen/kept.go", "gen-tools/t.go", "sub/.gitignore", "sub/s.go", "sub/out/o.go"}
	for name, fsys := range map[string]fs.FS{"working tree": source.Dir(dir), "index": index, "HEAD": head,
		"overlay": source.Overlay(source.Dir(dir), map[string][]byte{"gen/new.go": []byte("package gen\n")})} {
		if got := list(fsys); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v\nwant %v", name, got, want)
		}
	}
	if got, want := list(source.Dir(dir), "gen/"), []string{".gitignore", "a.go", "x.log", "gen-tools/t.go", "sub/.gitignore", "sub/s.go", "sub/out/o.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("an extra pattern over a tracked file: got %v\nwant %v", got, want)
	}
	if got, want := list(source.Dir(filepath.Join(dir, "sub"))), []string{".gitignore", "s.go", "out/o.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("a workspace in a subdirectory: got %v\nwant %v", got, want)
	}
}

// TestWalkNonUTF8Names: a name io/fs cannot hold is left out the same
// way from the working tree (a skip, with its reason), git's index and a
// commit (whose file systems do not list it).
func TestWalkNonUTF8Names(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.rs": "fn a() {}\n", "bad-\xff.rs": "fn b() {}\n", "d\xfe/c.rs": "fn c() {}\n"})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "one")
	index, head := gitSources(t, dir)
	for name, fsys := range map[string]fs.FS{"dir": source.Dir(dir), "index": index, "head": head} {
		entries, skips, err := Walk(context.Background(), fsys, WalkOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Path)
		}
		want := []string{"a.rs"}
		if name == "dir" {
			for _, s := range skips {
				got = append(got, s.Path+": "+s.Reason)
			}
			want = append(want, "bad-\xff.rs: name is not valid UTF-8", "d\xfe: name is not valid UTF-8")
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// gitSources returns the repository at dir as git's index and its HEAD
// commit read it.
func gitSources(t *testing.T, dir string) (index, head fs.FS) {
	t.Helper()
	index, err := source.GitIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err = source.GitTree(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return index, head
}
