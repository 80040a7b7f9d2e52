package analyzer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func openStore(t *testing.T) *graph.Store {
	t.Helper()
	s, err := graph.Open("", graph.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mustUpdate(t *testing.T, store *graph.Store, dir string, opts Options) Summary {
	t.Helper()
	sum, err := Update(context.Background(), store, source.Dir(dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func importEdges(t *testing.T, store *graph.Store, path string) []string {
	t.Helper()
	var out []string
	err := store.View(func(tx *graph.Tx) error {
		es, err := tx.Edges("file:"+path, graph.Both, graph.Filter{Types: []graph.EdgeType{graph.Imports}})
		for _, e := range es {
			out = append(out, e.From+">"+e.To)
		}
		return err
	})
	if err != nil && !errors.Is(err, graph.ErrNotFound) {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestIncrementalUpdate(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":         "module example.com/m\n",
		"a/a.go":         "package a\n\nimport \"example.com/m/b\"\n\nfunc A() { b.B() }\n",
		"b/b.go":         "package b\n\nfunc B() {}\n",
		"py/mod.py":      "from . import helper\n\ndef run():\n    pass\n",
		"py/helper.py":   "def help():\n    pass\n",
		"py/__init__.py": "",
		"README.md":      "# readme\n",
	})
	store := openStore(t)
	table := NewTable()
	opts := Options{Table: table}

	sum := mustUpdate(t, store, dir, opts)
	if sum.Files != 7 || sum.Parsed != 7 || sum.Removed != 0 {
		t.Fatalf("cold: %+v", sum)
	}
	if got := importEdges(t, store, "b/b.go"); !reflect.DeepEqual(got, []string{"file:a/a.go>file:b/b.go"}) {
		t.Fatalf("edges of b/b.go: %v", got)
	}

	sum = mustUpdate(t, store, dir, opts)
	if sum.Parsed != 0 || sum.Unchanged != 7 {
		t.Fatalf("nothing changed: %+v", sum)
	}

	// a body change re-parses one file and updates its symbols and names
	writeFiles(t, dir, map[string]string{"b/b.go": "package b\n\nfunc B2() {}\n"})
	sum = mustUpdate(t, store, dir, opts)
	if sum.Parsed != 1 || sum.Unchanged != 6 {
		t.Fatalf("one changed: %+v", sum)
	}
	if got, _ := SymbolsByName(store, "B"); len(got) != 0 {
		t.Errorf("old name still indexed: %+v", got)
	}
	if got, _ := SymbolsByName(store, "B2"); len(got) != 1 || got[0].FQName != "b/b.go::B2" {
		t.Errorf("SymbolsByName(B2) = %+v", got)
	}

	// touching without changing content parses nothing
	now := filepathTouch(t, filepath.Join(dir, "a/a.go"))
	_ = now
	if sum = mustUpdate(t, store, dir, opts); sum.Parsed != 0 {
		t.Fatalf("touched: %+v", sum)
	}

	// deleting drops symbols and the edges into the file
	os.Remove(filepath.Join(dir, "b/b.go"))
	sum = mustUpdate(t, store, dir, opts)
	if sum.Removed != 1 {
		t.Fatalf("delete: %+v", sum)
	}
	if _, err := Symbols(store, "b/b.go"); !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("Symbols of deleted file: err = %v", err)
	}
	if got := importEdges(t, store, "a/a.go"); len(got) != 0 {
		t.Errorf("edges to a deleted file remain: %v", got)
	}
	if got, _ := SymbolsByName(store, "B2"); len(got) != 0 {
		t.Errorf("deleted file's names remain: %+v", got)
	}

	// renaming is a removal plus an addition; importers follow
	if err := os.Rename(filepath.Join(dir, "py/helper.py"), filepath.Join(dir, "py/helper2.py")); err != nil {
		t.Fatal(err)
	}
	sum = mustUpdate(t, store, dir, opts)
	if sum.Removed != 1 || sum.Parsed != 1 {
		t.Fatalf("rename: %+v", sum)
	}
	if got, _ := SymbolsByName(store, "help"); len(got) != 1 || got[0].Path != "py/helper2.py" {
		t.Errorf("renamed symbol: %+v", got)
	}
	imps, err := Imports(store, "py/mod.py")
	if err != nil || len(imps) != 1 || len(imps[0].Targets) != 1 || imps[0].Targets[0] != "py/__init__.py" {
		t.Errorf("imports after rename: %+v %v", imps, err)
	}

	// a change of Python's queries or extractor re-parses only Python
	table.Lookup("python").version += "+test"
	sum = mustUpdate(t, store, dir, opts)
	if sum.Parsed != 3 {
		t.Fatalf("python version bump parsed %d files, want 3: %+v", sum.Parsed, sum)
	}

	// Enclosing and FileInfo
	s, err := Enclosing(store, "py/mod.py", 4)
	if err != nil || s == nil || s.FQName != "py/mod.py::run" {
		t.Errorf("Enclosing = %+v, %v", s, err)
	}
	if fi, err := FileInfo(store, "README.md"); err != nil || fi.Lang != "" || fi.Hash != HashText([]byte("# readme\n")) {
		t.Errorf("FileInfo = %+v, %v", fi, err)
	}
}

func filepathTouch(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	mt := fi.ModTime().Add(1e9)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	return mt.UnixNano()
}

// TestWorkersAgree checks that the sequential mode and the parallel mode
// build the same index.
func TestWorkersAgree(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module x\n"}
	for i := 0; i < 40; i++ {
		files[filepath.ToSlash(filepath.Join("p", string(rune('a'+i%26))+strings.Repeat("x", i/26), "f.go"))] =
			"package p\n\nimport \"x/q\"\n\nfunc F() { q.Q() }\n\ntype T struct{}\n\nfunc (T) M() {}\n"
		files["q/q"+strings.Repeat("y", i)+".py"] = "class C:\n    def m(self):\n        pass\n"
	}
	files["q/q.go"] = "package q\n\nfunc Q() {}\n"
	writeFiles(t, dir, files)
	dump := func(workers int) []string {
		store := openStore(t)
		mustUpdate(t, store, dir, Options{Workers: workers})
		var out []string
		AllSymbols(store, func(s Symbol) error {
			out = append(out, s.FQName+" "+s.Hash+" "+s.Shape+" "+s.Sig)
			return nil
		})
		AllImports(store, func(im Import) error {
			out = append(out, im.Path+" "+im.Spec+" "+strings.Join(im.Targets, ","))
			return nil
		})
		out = append(out, importEdges(t, store, "q/q.go")...)
		return out
	}
	seq, par := dump(1), dump(4)
	if len(seq) < 200 || !reflect.DeepEqual(seq, par) {
		t.Errorf("Workers=1 and Workers=4 differ (%d vs %d entries)", len(seq), len(par))
	}
}

// TestBadInput covers binary files, files over the size limit, symlinks
// out of the repository, malformed source and ignore files.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".gitignore":          "*.log\n/build/\n",
		"sub/.gitignore":      "secret.py\n!keep.log\n",
		"sub/secret.py":       "def s(): pass\n",
		"sub/keep.log":        "kept\n",
		"sub/ok.py":           "def ok(): pass\n",
		"x.log":               "ignored\n",
		"build/gen.go":        "package gen\n",
		"excluded/e.go":       "package e\n",
		"config_ignored/c.go": "package c\n",
		"big.py":              "x = 1\n" + strings.Repeat("# filler line\n", 200),
		"broken.py":           "def f(:\n    pass\nclass K:\n    pass\n",
		"garbage.ts":          "}}}{{{ export class ((( function",
	})
	writeFiles(t, outside, map[string]string{"secret.go": "package secret\n"})
	os.WriteFile(filepath.Join(dir, "blob.py"), []byte("abc\x00def"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(dir, "escape.go")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	os.Symlink("sub/ok.py", filepath.Join(dir, "inside.py"))
	os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("excluded/\n"), 0o644)

	store := openStore(t)
	sum := mustUpdate(t, store, dir, Options{MaxFileSize: 1024, Ignore: []string{"config_ignored/"}})
	var got []string
	Files(store, func(f IndexedFile) error { got = append(got, f.Path); return nil })
	want := []string{".gitignore", "broken.py", "garbage.ts", "inside.py", "sub/.gitignore", "sub/keep.log", "sub/ok.py"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("indexed files\n got %v\nwant %v", got, want)
	}
	reasons := map[string]string{}
	for _, s := range sum.Skipped {
		reasons[s.Path] = s.Reason
	}
	for p, r := range map[string]string{"blob.py": "binary", "big.py": "larger than the size limit", "escape.go": "symlink outside the repository"} {
		if reasons[p] != r {
			t.Errorf("skip reason of %s = %q, want %q (all: %v)", p, reasons[p], r, sum.Skipped)
		}
	}
	if sum.ErrorFiles != 2 || len(sum.Errors) != 2 || sum.Errors[0].Path != "broken.py" {
		t.Errorf("errors: %d %+v", sum.ErrorFiles, sum.Errors)
	}
	syms, _ := Symbols(store, "broken.py")
	if len(syms) == 0 || syms[len(syms)-1].Name != "K" {
		t.Errorf("symbols after a syntax error should still be found: %+v", syms)
	}
}

// TestGoEdgesFollowDeclarations checks that a Go file's IMPORTS edges go
// to the files of the imported package that declare the names it uses,
// and follow a function moved to another file of that package.
func TestGoEdgesFollowDeclarations(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":        "module m\n",
		"main.go":       "package main\n\nimport \"m/lib\"\n\nfunc main() { lib.A() }\n",
		"lib/a.go":      "package lib\n\nfunc A() {}\n",
		"lib/b.go":      "package lib\n\nfunc B() {}\n",
		"lib/c.go":      "package lib\n\nfunc C() {}\n",
		"lib/x_test.go": "package lib\n",
	})
	store := openStore(t)
	mustUpdate(t, store, dir, Options{})
	if got := importEdges(t, store, "main.go"); !reflect.DeepEqual(got, []string{"file:main.go>file:lib/a.go"}) {
		t.Fatalf("edges = %v", got)
	}
	imps, _ := Imports(store, "main.go")
	if len(imps) != 1 || !reflect.DeepEqual(imps[0].Targets, []string{"lib/a.go", "lib/b.go", "lib/c.go"}) || !reflect.DeepEqual(imps[0].Names, []string{"A"}) {
		t.Fatalf("imports = %+v", imps)
	}
	// move A from a.go to c.go
	writeFiles(t, dir, map[string]string{
		"lib/a.go": "package lib\n",
		"lib/c.go": "package lib\n\nfunc C() {}\n\nfunc A() {}\n",
	})
	mustUpdate(t, store, dir, Options{})
	if got := importEdges(t, store, "main.go"); !reflect.DeepEqual(got, []string{"file:main.go>file:lib/c.go"}) {
		t.Fatalf("edges after moving A = %v", got)
	}
}

// An update that finds nothing changed writes nothing: its store stays
// read-only, so another reader holding the database does not block it.
// Files old enough to be trusted by their stat are needed: the last run's
// time is in the past.
func TestQuietUpdateWritesNothing(t *testing.T) {
	dir, db := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "b.py": "def b():\n    pass\n"})
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{"a.go", "b.py"} {
		os.Chtimes(filepath.Join(dir, n), old, old)
	}
	s, err := graph.Open(db, graph.Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, s, dir, Options{})
	s.Close()

	reader, err := graph.Open(db, graph.Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	s, err = graph.Open(db, graph.Options{Schema: 1, LockTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sum := mustUpdate(t, s, dir, Options{}) // would wait for reader's lock to write
	if sum.Unchanged != 2 || sum.Files != 2 || sum.Symbols != 2 {
		t.Errorf("quiet update summary: %+v", sum)
	}
	// A change is written as before.
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\nfunc A() {}\n\nfunc B() {}\n"})
	reader.Close()
	if sum := mustUpdate(t, s, dir, Options{}); sum.Parsed != 1 || sum.Symbols != 3 {
		t.Errorf("update after a change: %+v", sum)
	}
}

// TestEditKeepingImports covers the re-index of a file whose imports did
// not change: its record takes the new lines and keeps its targets and
// edges; a change of the names it uses resolves it again; and after an
// interrupted run (its mark left in the store) every parsed file is
// resolved again, restoring edges the run did not write.
func TestEditKeepingImports(t *testing.T) {
	dir := t.TempDir()
	src := "package a\n\nimport \"example.com/m/b\"\n\nfunc A() { b.B() }\n"
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n",
		"a/a.go": src,
		"b/b.go": "package b\n\nfunc B() {}\n",
		"b/c.go": "package b\n\nfunc C() {}\n",
	})
	store := openStore(t)
	mustUpdate(t, store, dir, Options{})
	edgesOfA := func() []string {
		var out []string
		for _, e := range importEdges(t, store, "a/a.go") {
			if strings.HasPrefix(e, "file:a/a.go>") {
				out = append(out, e)
			}
		}
		return out
	}
	importLine := func() int {
		line := 0
		AllImports(store, func(im Import) error {
			if im.Path == "a/a.go" {
				line = im.Line
			}
			return nil
		})
		return line
	}
	want := []string{"file:a/a.go>file:b/b.go"}
	if got := edgesOfA(); !reflect.DeepEqual(got, want) || importLine() != 3 {
		t.Fatalf("cold: edges %v, import line %d", got, importLine())
	}

	src = "// moved down\n" + src
	writeFiles(t, dir, map[string]string{"a/a.go": src})
	if sum := mustUpdate(t, store, dir, Options{}); sum.Parsed != 1 {
		t.Fatalf("edit: %+v", sum)
	}
	if got := edgesOfA(); !reflect.DeepEqual(got, want) || importLine() != 4 {
		t.Errorf("after a comment: edges %v, import line %d (want %v, 4)", got, importLine(), want)
	}
	if got, _ := SymbolsByName(store, "A"); len(got) != 1 || got[0].FQName != "a/a.go::A" || got[0].StartLine != 6 {
		t.Errorf("SymbolsByName(A) after a comment = %+v, want a/a.go::A at line 6", got)
	}

	src = strings.Replace(src, "b.B()", "b.C()", 1)
	writeFiles(t, dir, map[string]string{"a/a.go": src})
	mustUpdate(t, store, dir, Options{})
	if got, want := edgesOfA(), []string{"file:a/a.go>file:b/c.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after using another name: edges %v, want %v", got, want)
	}

	// An interrupted run: its mark is in the store and a's edges are gone.
	if err := store.Update(func(tx *graph.Tx) error { return tx.Set(nsState, "running", []byte{1}) }); err != nil {
		t.Fatal(err)
	}
	if err := store.SetOutEdges("file:a/a.go", graph.Imports, nil); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"a/a.go": "// again\n" + src})
	mustUpdate(t, store, dir, Options{})
	if got, want := edgesOfA(), []string{"file:a/a.go>file:b/c.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after an interrupted run: edges %v, want %v", got, want)
	}
	err := store.View(func(tx *graph.Tx) error {
		_, err := tx.Get(nsState, "running")
		return err
	})
	if !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("the mark of a finished run: %v, want not found", err)
	}
}

// TestRawDigestsRecord checks that the index's records, made from raw
// sums, are byte for byte those made from the hashes Parse returns (the
// index keeps no shapes), on every file of the fixtures (every language,
// syntax errors included), plus a symbol whose lines are not in the file.
func TestRawDigestsRecord(t *testing.T) {
	n := 0
	eachParsedFixture(t, func(file string, f txtar.File, p *Parser, want *File) {
		got, sums, err := p.parse(context.Background(), f.Name, f.Data, want.Hash, true)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want.Symbols {
			want.Symbols[i].Shape, want.Symbols[i].Sig = "", ""
		}
		if a, b := encodeSymbols(want, nil), encodeSymbols(got, sums); !bytes.Equal(a, b) {
			t.Errorf("%s %s: records differ", file, f.Name)
		}
		n += len(want.Symbols)
	})
	if n < 100 {
		t.Fatalf("only %d symbols compared", n)
	}
	// A symbol past the end of its file has no fingerprints either way.
	f := &File{Path: "x.go", Lang: "go", Symbols: []Symbol{{Path: "x.go", FQName: "x.go::F", Name: "F", Kind: KindFunction, StartLine: 9, EndLine: 9}}}
	sums := make([]digests, 1)
	fingerprint([]byte("package x\n"), []int{0, 10}, nil, f.Symbols, []int{-1}, nil, sums)
	if a, b := encodeSymbols(f, nil), encodeSymbols(f, sums); !bytes.Equal(a, b) {
		t.Errorf("symbol out of the file: records differ: %x vs %x", a, b)
	}
	t.Logf("%d symbols: records from raw sums equal", n)
}

// eachFixtureFile calls fn with every file of every analyzer fixture
// (testdata/analyzer/*.txtar) and the archive it is in.
// eachParsedFixture calls fn for every fixture file in a language lore
// parses, with the parser that parsed it and the parse.
func eachParsedFixture(t *testing.T, fn func(archive string, f txtar.File, p *Parser, pf *File)) {
	t.Helper()
	p := NewParser(nil)
	defer p.Close()
	eachFixtureFile(t, func(archive string, f txtar.File) {
		if p.Table().ForPath(f.Name) == nil {
			return
		}
		pf, err := p.Parse(f.Name, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		fn(archive, f, p, pf)
	})
}

func eachFixtureFile(t *testing.T, fn func(archive string, f txtar.File)) {
	t.Helper()
	archives, err := filepath.Glob("../testdata/analyzer/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, archive := range archives {
		ar, err := txtar.ParseFile(archive)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			fn(archive, f)
		}
	}
}

// The edge loader of a first index writes every chunk it is sent, in
// order, and once its context is cancelled refuses further chunks with
// an error instead of dropping them.
func TestEdgeLoader(t *testing.T) {
	store := openStore(t)
	chunk := func(from string, n int) []graph.Edge {
		var out []graph.Edge
		for i := range n {
			out = append(out, graph.Edge{Type: graph.Imports, From: "file:" + from, To: fmt.Sprintf("file:t%d.go", i), Weight: 1})
		}
		return out
	}
	l := startEdgeLoader(context.Background(), store)
	for _, from := range []string{"a.go", "b.go", "c.go"} {
		if err := l.send(chunk(from, 50)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.stop(); err != nil {
		t.Fatal(err)
	}
	if err := l.stop(); err != nil {
		t.Fatalf("second stop: %v", err)
	}
	for _, from := range []string{"a.go", "b.go", "c.go"} {
		edges, err := store.Edges("file:"+from, graph.Out, graph.Filter{})
		if err != nil || len(edges) != 50 {
			t.Errorf("%s: %d edges, %v; want 50", from, len(edges), err)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	l = startEdgeLoader(ctx, store)
	cancel()
	var err error
	for range 3 { // the channel may take one chunk before the loader sees the cancellation
		if err = l.send(chunk("d.go", 5)); err != nil {
			break
		}
	}
	if err == nil {
		err = l.stop()
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v, want context.Canceled", err)
	}
	if err := l.stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("stop after cancel: %v, want context.Canceled", err)
	}
}

// TestReopenedRunAgrees indexes a tree into a store on disk reopened
// after every file's symbols (see parseAll) and every IMPORTS edge of
// the resolution (see resolveFirst), with one worker and with
// several, and compares the index with one written without reopening
// (a first index that writes in batches: one that fills the store
// reopens nothing).
// A run whose mark another run replaced meanwhile stops.
func TestReopenedRunAgrees(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module x\n"}
	for i := range 30 {
		files[fmt.Sprintf("p%d/f.go", i%7)] = fmt.Sprintf("package p%d\n\nimport \"x/q\"\n\nfunc F%d() { q.Q%d() }\n", i%7, i, i%3)
		files[fmt.Sprintf("q/q%d.go", i)] = fmt.Sprintf("package q\n\nfunc Q%d() {}\n\ntype T%d struct{}\n", i, i)
		files[fmt.Sprintf("py/m%d.py", i)] = fmt.Sprintf("from py import m%d\n\nclass C%d:\n    def m(self):\n        pass\n", (i+1)%30, i)
	}
	writeFiles(t, dir, files)
	dump := func(store *graph.Store) []string {
		out := indexDump(t, store)
		err := AllSymbols(store, func(s Symbol) error {
			out = append(out, s.FQName+" "+s.Hash+" "+s.Shape+" "+s.Sig)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	plain := openStore(t)
	mustUpdate(t, plain, dir, Options{Workers: 1})
	want := dump(plain)
	for _, workers := range []int{1, 3} {
		store, err := graph.Open(filepath.Join(t.TempDir(), "db"), graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mustUpdate(t, store, dir, Options{Workers: workers, reopenAfter: 1, reopenEdges: 1, noFill: true})
		if got := dump(store); len(want) < 100 || !reflect.DeepEqual(got, want) {
			t.Errorf("workers %d: the reopened run's index differs (%d entries, want %d)", workers, len(got), len(want))
		}
		store.Close()
	}

	store, err := graph.Open(filepath.Join(t.TempDir(), "db"), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	u := newIndexRun(store, source.Dir(dir), Options{})
	if err := store.Update(func(tx *graph.Tx) error { return tx.Set(nsState, "running", []byte{1}) }); err != nil {
		t.Fatal(err)
	}
	if err := u.reopen(); err == nil || !strings.Contains(err.Error(), "another lore process") {
		t.Errorf("a run whose mark was replaced: %v", err)
	}
}

// TestReopenKeepsAWaitedStore: a run that would reopen its store keeps it
// while another opener waits for it, so the opener waits to the end of
// the run instead of taking the store in the middle and stopping it.
func TestReopenKeepsAWaitedStore(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no waiting markers off unix")
	}
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module x\n"}
	for i := range 20 {
		files[fmt.Sprintf("p/f%d.go", i)] = fmt.Sprintf("package p\n\nfunc F%d() {}\n", i)
	}
	writeFiles(t, dir, files)
	db := filepath.Join(t.TempDir(), "db")
	store, err := graph.Open(db, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opened := make(chan error, 1)
	go func() {
		other, err := graph.Open(db, graph.Options{LockTimeout: time.Minute, ReadWrite: true})
		if err == nil {
			other.Close()
		}
		opened <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); !graph.Waiting(db); {
		if time.Now().After(deadline) {
			t.Fatal("the second opener never waited")
		}
		time.Sleep(5 * time.Millisecond)
	}
	sum := mustUpdate(t, store, dir, Options{Workers: 1, reopenAfter: 1, noFill: true})
	if sum.Parsed != 21 {
		t.Errorf("parsed %d files, want 21", sum.Parsed)
	}
	select {
	case err := <-opened:
		t.Fatalf("the waiting opener got the store during the run: %v", err)
	default:
	}
	store.Close()
	if err := <-opened; err != nil {
		t.Errorf("the waiting opener after the run: %v", err)
	}
}

// TestFirstIndexWorkersAgree: a first index with several workers on disk
// (skips, a syntax error, ignored files included) has the summary,
// progress and index of a run with one worker in memory, and a second run
// finds nothing to read. A cancelled one stops with the context's error
// and leaves a store the next run indexes.
func TestFirstIndexWorkersAgree(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module x\n", ".gitignore": "gen/\n", "gen/g.go": "package gen\n",
		"bin.dat": "a\x00b", "bad/b.go": "package bad\n\nfunc (\n", "big.txt": strings.Repeat("x", 100)}
	for i := range 40 {
		files[fmt.Sprintf("p%d/f.go", i%6)] = fmt.Sprintf("package p%d\n\nimport \"x/q\"\n\nfunc F%d() { q.Q%d() }\n", i%6, i, i%4)
		files[fmt.Sprintf("q/q%d.go", i)] = fmt.Sprintf("package q\n\nfunc Q%d() {}\n", i)
	}
	writeFiles(t, dir, files)
	summary := func(s Summary) string {
		s.Duration, s.Phases = 0, Summary{}.Phases
		slices.SortFunc(s.Skipped, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) })
		return fmt.Sprintf("%+v", s)
	}
	opts := Options{MaxFileSize: 50}
	one := openStore(t)
	o := opts
	o.Workers = 1
	want := summary(mustUpdate(t, one, dir, o))
	wantDump := indexDump(t, one)

	store, err := graph.Open(filepath.Join(t.TempDir(), "db"), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	last := Progress{}
	o = opts
	o.Workers = 3
	o.Progress = func(p Progress) {
		if p.Done > p.Total {
			t.Errorf("progress %d of %d", p.Done, p.Total)
		}
		last = p
	}
	if got := summary(mustUpdate(t, store, dir, o)); got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
	if got := indexDump(t, store); !reflect.DeepEqual(got, wantDump) {
		t.Errorf("index differs from one worker's:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantDump, "\n"))
	}
	if last.Done != last.Total || last.Total != 50 {
		t.Errorf("last progress %d of %d, want 50 of 50", last.Done, last.Total)
	}
	if sum := mustUpdate(t, store, dir, Options{MaxFileSize: 50, Workers: 3}); sum.Parsed != 0 {
		t.Errorf("second run parsed %d files", sum.Parsed)
	}

	cancelled, err := graph.Open(filepath.Join(t.TempDir(), "db"), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cancelled.Close()
	ctx, cancel := context.WithCancel(context.Background())
	o = opts
	o.Workers = 3
	o.Progress = func(Progress) { cancel() }
	if _, err := Update(ctx, cancelled, source.Dir(dir), o); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled first index: %v, want context.Canceled", err)
	}
	o.Progress = nil
	mustUpdate(t, cancelled, dir, o)
	if got := indexDump(t, cancelled); !reflect.DeepEqual(got, wantDump) {
		t.Errorf("index after a cancelled first one differs from one worker's")
	}
}

// TestFirstIndexFills: a first index on disk fills the store at once
// (graph.Store.Fill: its tables are the stream writer's, at the bottom
// level) and writes what one written in batches writes, keeping what the
// store held (learnings of the graph); records of an earlier run, even an
// interrupted one, make the next first index write in batches.
func TestFirstIndexFills(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module x\n", "bin.dat": "a\x00b", "bad/b.go": "package bad\n\nfunc (\n"}
	for i := range 30 {
		files[fmt.Sprintf("p%d/f.go", i%7)] = fmt.Sprintf("package p%d\n\nimport \"x/q\"\n\nfunc F%d() { q.Q%d() }\n", i%7, i, i%3)
		files[fmt.Sprintf("q/q%d.go", i)] = fmt.Sprintf("package q\n\nfunc Q%d() {}\n\ntype T%d struct{}\n", i, i)
		files[fmt.Sprintf("py/m%d.py", i)] = fmt.Sprintf("from py import m%d\n\nclass C%d:\n    def m(self):\n        pass\n", (i+1)%30, i)
	}
	writeFiles(t, dir, files)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	learnings := func(store *graph.Store) {
		t.Helper()
		e := graph.Edge{Type: graph.AnchoredTo, From: "learning:k1", To: "file:q/q1.go", Weight: 1, CreatedAt: at, UpdatedAt: at}
		if err := store.Load(context.Background(), nil, []graph.Edge{e}); err != nil {
			t.Fatal(err)
		}
		if err := store.Update(func(tx *graph.Tx) error { return tx.Set("lrn", "k1", []byte("a learning")) }); err != nil {
			t.Fatal(err)
		}
	}
	dump := func(store *graph.Store) []string {
		t.Helper()
		out := indexDump(t, store)
		err := AllSymbols(store, func(s Symbol) error {
			out = append(out, "symbol "+s.FQName+" "+s.Hash)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		edges, err := store.Edges("learning:k1", graph.Out, graph.Filter{})
		if err != nil || len(edges) != 1 {
			t.Fatalf("the learning's edge: %v, %v", edges, err)
		}
		err = store.View(func(tx *graph.Tx) error {
			v, err := tx.Get("lrn", "k1")
			out = append(out, "lrn "+string(v))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	plain := openStore(t)
	learnings(plain)
	sum := mustUpdate(t, plain, dir, Options{Workers: 1})
	want := dump(plain)

	store, err := graph.Open(filepath.Join(t.TempDir(), "db"), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	learnings(store)
	got := mustUpdate(t, store, dir, Options{Workers: 3})
	if got.Files != sum.Files || got.Symbols != sum.Symbols || got.Imports != sum.Imports || got.ErrorFiles != sum.ErrorFiles {
		t.Errorf("summary %+v, want %+v", got, sum)
	}
	if lv := store.Tables(); len(lv) == 0 || lv[len(lv)-1] == 0 || lv[0] != 0 {
		t.Errorf("tables per level %v: the first index did not fill the store", lv)
	}
	if d := dump(store); !reflect.DeepEqual(d, want) {
		t.Errorf("the filled index differs from one written in batches (%d entries, want %d)", len(d), len(want))
	}
	if again := mustUpdate(t, store, dir, Options{Workers: 3}); again.Parsed != 0 {
		t.Errorf("the run after a fill parsed %d files", again.Parsed)
	}

	// An interrupted run's mark: the store may hold its records, which a
	// fill would keep; the next run writes in batches and agrees.
	marked, err := graph.Open(filepath.Join(t.TempDir(), "db"), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer marked.Close()
	learnings(marked)
	err = marked.Update(func(tx *graph.Tx) error { return tx.Set(nsState, "running", []byte{1}) })
	if err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, marked, dir, Options{Workers: 3})
	if d := dump(marked); !reflect.DeepEqual(d, want) {
		t.Errorf("after an interrupted run, the index differs from one written in batches")
	}
}
