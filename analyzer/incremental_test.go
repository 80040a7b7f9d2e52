package analyzer

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lorehq/lore/graph"
)

// indexDump is what an index says of imports, packages and names: every
// import record with its targets, every IMPORTS and IN_PACKAGE edge and
// package node, and the name index's pairs (its parts merged).
func indexDump(t *testing.T, store *graph.Store) []string {
	t.Helper()
	var out []string
	err := AllImports(store, func(im Import) error {
		out = append(out, "import "+im.Path+" "+im.Spec+" -> "+strings.Join(im.Targets, ","))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := store.Export(context.Background(), &buf, graph.JSON); err != nil {
		t.Fatal(err)
	}
	var g struct {
		Nodes []graph.Node
		Edges []graph.Edge
	}
	if err := json.Unmarshal(buf.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	for _, e := range g.Edges {
		if e.Type == graph.Imports || e.Type == graph.InPackage {
			out = append(out, "edge "+string(e.Type)+" "+e.From+" -> "+e.To)
		}
	}
	for _, n := range g.Nodes {
		if strings.HasPrefix(n.ID, graph.TypePackage+":") {
			out = append(out, "node "+n.ID)
		}
	}
	names := map[string]bool{}
	err = store.View(func(tx *graph.Tx) error {
		return tx.Scan(nsNames, "", func(_ string, v []byte) error { return mergePart(names, v) })
	})
	if err != nil {
		t.Fatal(err)
	}
	for e := range names {
		out = append(out, "name "+strings.Replace(e, "\x00", " ", 1))
	}
	sort.Strings(out)
	return out
}

// TestIncrementalResolutionMatchesCold changes a repository step by step —
// files added where imports reach or failed to reach, files removed, Go
// names moved between files, a go.mod's require lines and then its module
// path — and after each step compares the index updated in place with a
// first index of the same tree: the same import records and IMPORTS edges.
func TestIncrementalResolutionMatchesCold(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":          "module x\n\ngo 1.22\n",
		"a/a.go":          "package a\n\nfunc A() {}\n\nfunc B() {}\n",
		"a/b.go":          "package a\n\nfunc C() {}\n",
		"main.go":         "package main\n\nimport (\n\t\"x/a\"\n\t\"x/c\"\n)\n\nfunc main() { a.A(); a.C(); c.X() }\n",
		"tool/t.go":       "package tool\n\nimport \"x/a\"\n\nfunc T() { a.B() }\n",
		"pkg/__init__.py": "",
		"pkg/m.py":        "def f():\n    pass\n",
		"app.py":          "from pkg import m\nimport pkg.n\n",
		"src/index.ts":    "import { u } from './util';\nimport { l } from './lib';\nexport const x = u + l;\n",
		"src/lib.ts":      "export const l = 1;\n",
	})
	store := openStore(t)
	check := func(step string) {
		t.Helper()
		sum := mustUpdate(t, store, dir, Options{})
		cold := openStore(t)
		mustUpdate(t, cold, dir, Options{})
		got, want := indexDump(t, store), indexDump(t, cold)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the updated index differs from a first index\n got: %q\nwant: %q", step, got, want)
		}
		t.Logf("%s: %d parsed, %d imports resolved, %d records", step, sum.Parsed, sum.Imports, len(got))
	}
	check("first index")

	writeFiles(t, dir, map[string]string{
		"c/c.go":      "package c\n\nfunc X() {}\n",
		"pkg/n.py":    "def g():\n    pass\n",
		"src/util.ts": "export const u = 2;\n",
	})
	check("files added where imports failed to reach")

	if err := os.Remove(filepath.Join(dir, "a/b.go")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{
		"a/a.go": "package a\n\nfunc B() {}\n",
		"a/d.go": "package a\n\nfunc A() {}\n\nfunc C() {}\n",
	})
	check("a file removed, names moved to a new file")

	writeFiles(t, dir, map[string]string{"go.mod": "module x\n\ngo 1.23\n\nrequire example.org/y v1.0.0\n"})
	check("go.mod's require lines changed")

	if err := os.RemoveAll(filepath.Join(dir, "c")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "pkg/n.py"), filepath.Join(dir, "pkg/n2.py")); err != nil {
		t.Fatal(err)
	}
	check("a package removed, a module renamed")

	writeFiles(t, dir, map[string]string{"go.mod": "module z\n\ngo 1.23\n"})
	check("go.mod's module path changed")
}

func TestConfigKey(t *testing.T) {
	a := configKey("go.mod", []byte("module x\n\ngo 1.22\n\nrequire y v1\n"))
	b := configKey("go.mod", []byte("module x // the module\n\ngo 1.23\nrequire (\n\ty v2\n)\n"))
	c := configKey("go.mod", []byte("module x\nreplace y => ./y\n"))
	d := configKey("go.mod", []byte("module z\n"))
	if a != b || a == c || a == d || c == d {
		t.Errorf("go.mod keys: %s %s %s %s", a, b, c, d)
	}
	if configKey("package.json", []byte(`{"a":1}`)) == configKey("package.json", []byte(`{"a":2}`)) {
		t.Error("package.json: a change of content keeps the key")
	}
}

// TestGoNamesWithoutTopRecords: a store written before Go files had a
// record of their package-level names (nsTop) reads the names from the
// files' symbols, and a re-index of it agrees with a first index.
func TestGoNamesWithoutTopRecords(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":  "module x\n\ngo 1.22\n",
		"a/a.go":  "package a\n\nfunc A() {}\n\nfunc B() {}\n",
		"a/b.go":  "package a\n\nfunc C() {}\n",
		"main.go": "package main\n\nimport \"x/a\"\n\nfunc main() { a.A(); a.C() }\n",
		"t/t.go":  "package t\n\nimport \"x/a\"\n\nfunc T() { a.B() }\n",
	})
	store := openStore(t)
	mustUpdate(t, store, dir, Options{})
	var keys []string
	err := store.View(func(tx *graph.Tx) error {
		return tx.Keys(nsTop, "", func(k string) error { keys = append(keys, k); return nil })
	})
	if err != nil || len(keys) != 4 {
		t.Fatalf("records of names: %q, %v; want one per Go file", keys, err)
	}
	err = store.Batch(func(b *graph.Batch) error {
		for _, k := range keys {
			if err := b.Delete(nsTop, k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"a/d.go": "package a\n\nfunc D() {}\n"})
	mustUpdate(t, store, dir, Options{})
	cold := openStore(t)
	mustUpdate(t, cold, dir, Options{})
	if got, want := indexDump(t, store), indexDump(t, cold); !reflect.DeepEqual(got, want) {
		t.Errorf("the updated index differs from a first index\n got: %q\nwant: %q", got, want)
	}
}
