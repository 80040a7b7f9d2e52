package analyzer

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"golang.org/x/tools/txtar"
)

// The tree-sitter queries that the languages' wordImports functions
// replace: the definition of what counts as an import of each kind. The
// analyzer does not compile them (see walker.eachWord); the tests compare
// against them.
const (
	jsQuery = `
(call_expression
  function: (import)
  arguments: (arguments . (string) @spec.dynamic))
(call_expression
  function: (identifier) @_f
  arguments: (arguments . (string) @spec.static)
  (#eq? @_f "require"))
`
	pyQuery = `
(call
  function: (identifier) @_f
  arguments: (argument_list . (string) @spec.dynamic)
  (#eq? @_f "__import__"))
(call
  function: (attribute
    object: (identifier) @_m
    attribute: (identifier) @_a)
  arguments: (argument_list . (string) @spec.dynamic)
  (#eq? @_m "importlib")
  (#eq? @_a "import_module"))
`
	rustQuery = `
(use_declaration) @rs.use
(mod_item !body) @rs.mod
(extern_crate_declaration) @rs.extern
`
	javaQuery = `(import_declaration) @java.import`
)

// queryOracle finds imports with the queries over the whole tree.
type queryOracle struct {
	table  *Table
	parser *sitter.Parser
	query  map[*Language]*sitter.Query
	cursor *sitter.QueryCursor
}

func newQueryOracle(t testing.TB) *queryOracle {
	o := &queryOracle{table: NewTable(), parser: sitter.NewParser(), query: map[*Language]*sitter.Query{}, cursor: sitter.NewQueryCursor()}
	for name, src := range map[string]string{"typescript": jsQuery, "tsx": jsQuery, "javascript": jsQuery, "python": pyQuery, "rust": rustQuery, "java": javaQuery} {
		l := o.table.Lookup(name)
		q, err := sitter.NewQuery([]byte(src), l.grammar())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		o.query[l] = q
	}
	return o
}

func (o *queryOracle) Close() {
	for _, q := range o.query {
		q.Close()
	}
	o.cursor.Close()
	o.parser.Close()
}

// both returns the imports of src as the query finds them and as
// the language's wordImports function does, each as "line kind spec" in
// document order.
func (o *queryOracle) both(t testing.TB, path string, src []byte) (want, got []string) {
	l := o.table.ForPath(path)
	tsl, _, err := l.compiled()
	if err != nil {
		t.Fatal(err)
	}
	o.parser.SetLanguage(tsl)
	// The tree the analyzer reads: of the skeleton, unless it has errors.
	text, skeleton := src, false
	var sq squeezed
	if l.skeleton != nil {
		if sk, ok := l.skeleton(path, src, nil, &sq); ok {
			text, skeleton = sk, true
		}
	}
	tree, err := o.parser.ParseCtx(context.Background(), nil, text)
	if err != nil {
		t.Fatal(err)
	}
	if skeleton && tree.RootNode().HasError() {
		tree.Close()
		text = src
		sq.reset()
		if tree, err = o.parser.ParseCtx(context.Background(), nil, text); err != nil {
			t.Fatal(err)
		}
	}
	defer tree.Close()
	var fr forest
	fr.reset(l)
	sroot := tree.RootNode()
	root := fr.adopt(sroot)
	q := o.query[l]
	o.cursor.Exec(q, sroot)
	fq := &File{Path: path}
	wq := &walker{lang: l, src: src, parsed: text, sq: &sq, file: fq}
	for {
		m, ok := o.cursor.NextMatch()
		if !ok {
			break
		}
		m = o.cursor.FilterPredicates(m, text)
		for _, c := range m.Captures { // as parseTS handled captures
			name := q.CaptureNameForId(c.Index)
			switch kind, spec := strings.CutPrefix(name, "spec."); {
			case spec:
				wq.addImport(unquote(wq.text(fr.adopt(c.Node))), kind, fr.adopt(c.Node))
			case strings.HasPrefix(name, "rs."):
				importsRust(wq, name, fr.adopt(c.Node))
			case strings.HasPrefix(name, "java."):
				importsJava(wq, name, fr.adopt(c.Node))
			}
		}
	}
	f := &File{Path: path}
	w := &walker{lang: l, src: src, parsed: text, sq: &sq, file: f}
	l.wordImports(w, root)
	for _, imps := range []struct {
		list []Import
		out  *[]string
	}{{fq.Imports, &want}, {f.Imports, &got}} {
		// The order the analyzer leaves them in.
		sort.SliceStable(imps.list, func(i, j int) bool { return imps.list[i].Line < imps.list[j].Line })
		for _, imp := range imps.list {
			*imps.out = append(*imps.out, fmt.Sprintf("%d %s %s", imp.Line, imp.Kind, imp.Spec))
		}
	}
	return want, got
}

// TestWordImportsQuery checks that callImportsJS, callImportsPython,
// keywordImportsRust and keywordImportsJava find exactly what the queries
// find: on cases at the edges, on every file of those languages in the
// golden fixtures and, with LORE_CORPUS set, on the npm install of
// TestOracleTypeScript (rxjs, @types/node, typescript), the Python
// standard library, and the Rust and Java sources under $LORE_RUST_CORPUS
// and $LORE_JAVA_CORPUS (any directories, e.g. clones of tokio and gson).
func TestWordImportsQuery(t *testing.T) {
	o := newQueryOracle(t)
	defer o.Close()
	js := []string{
		`const a = require("a"); const b = require('b')` + "\n",
		"async function f() { await import(\"./x\"); return import('y', { with: { type: 'json' } }) }\n",
		"require(`tmpl`); require(x); require(); require(\"a\" + b); import(`t`)\n",
		"obj.require(\"no\"); requireX(\"no\"); $require(\"no\"); _import(\"no\"); x.import(\"no\")\n",
		"require /* c */ (\"spaced\"); import (\"spaced\"); require(/* c */ \"commented\")\n",
		"require(require(\"inner\")); (require)(\"paren\"); require<T>(\"generic\"); 0require(\"digit\")\n",
		"// require(\"comment\")\n/* import(\"block\") */ const s = \"require('str')\"; const t = `${require(\"tmpl\")}`\n",
		"import x = require(\"ts-import-require\");\nimport type { T } from \"y\";\nexport { z } from \"z\";\ntype U = typeof import(\"type-query\");\n",
		"const v = import.meta.url; import\n(\"newline\")\n",
		"\u00a0require(\"nbsp\"); ärequire(\"no\"); requireä(\"no\"); require(\"\")\n",
		"const el = <div onClick={() => import(\"./lazy\")}>{require(\"r\")}</div>;\n",
		"function f( { require(\"broken\")\nimport(\n",
		"", "require", "import",
	}
	py := []string{
		"import importlib\nm = importlib.import_module(\"a.b\")\nn = __import__('c')\n",
		"def f():\n    x = 1\n    return importlib.import_module(\"in_body\", package=__name__)\n",
		"class C:\n    def m(self):\n        for i in range(3):\n            __import__(f\"fstring{i}\")\n        __import__(\"loop_after\")\n",
		"other.import_module(\"no\"); importlib.import_module_x(\"no\"); my__import__(\"no\"); __import__x(\"no\")\n",
		"importlib . import_module ( 'spaced' ); __import__ (\n  'split')\n",
		"# __import__(\"comment\")\ns = \"importlib.import_module('str')\"\n__import__(b'bytes'); __import__(r\"raw\"); __import__(name)\n",
		"__import__(__import__(\"inner\")); (__import__)(\"paren\"); importlib.import_module(*args)\n",
		"def broken(:\n    __import__(\"after_error\")\n",
		"", "__import__", "import_module",
	}
	rs := []string{
		"use std::io;\npub use crate::a::{b, c as d};\npub(crate) use super::x::*;\nuse a::b::{self, c::{d, e}};\n",
		"mod inline { use self::y; fn f() { use z::w; } }\nmod outofline;\n#[cfg(test)]\npub mod tests;\n",
		"extern crate alloc;\nextern crate core as c;\nextern \"C\" { fn g(); }\npub extern \"C\" fn h() {}\n",
		"// use not_this; mod nor_this;\n/// use doc;\nlet s = \"use in_string;\"; fn r#use() {} let used = user; mod_x(); use_y();\n",
		"macro_rules! m { () => { use inside_macro; } }\nfn main() { m!(); }\nuse\n  split::across;\n",
		"use a::{b,\nmod broken\nextern crate\n", "", "use", "mod", "extern",
	}
	agree, total, found := 0, 0, 0
	check := func(path string, src []byte) {
		want, got := o.both(t, path, src)
		total++
		found += len(want)
		if slices.Equal(want, got) {
			agree++
			return
		}
		t.Errorf("%s: imports differ from the query's\n query: %q\n  ours: %q", path, want, got)
	}
	for i, c := range js {
		for _, ext := range []string{".ts", ".tsx", ".js"} {
			check(fmt.Sprintf("case%d%s", i, ext), []byte(c))
		}
	}
	for i, c := range py {
		check(fmt.Sprintf("case%d.py", i), []byte(c))
	}
	for i, c := range rs {
		check(fmt.Sprintf("case%d.rs", i), []byte(c))
	}
	java := []string{
		"package a.b;\nimport java.util.List;\nimport static java.lang.Math.max;\nimport java.io.*;\nimport static org.junit.Assert.*;\nclass C {}\n",
		"// import not.this;\n/* import nor.this; */\nclass D { String s = \"import in.string;\"; int importX; void imports() {} }\n",
		"import a.b.C;; import\n  d . e . F ;\nimport $x.Y;\n",
		"import a.b.{broken\nclass E { import f.G; }\n", "", "import", "import;",
	}
	for i, c := range java {
		check(fmt.Sprintf("case%d.java", i), []byte(c))
	}
	fixtures, _ := filepath.Glob("../testdata/analyzer/*.txtar")
	for _, file := range fixtures {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if l := o.table.ForPath(f.Name); l != nil && l.wordImports != nil {
				check(f.Name, f.Data)
			}
		}
	}
	t.Logf("cases and fixtures: %d / %d files agree with the queries (%d imports)", agree, total, found)
	if found < 80 {
		t.Errorf("the cases hold %d imports by the queries; they were written with more", found)
	}
	if os.Getenv("LORE_CORPUS") == "" {
		return
	}
	dir := tsOracleDir()
	stdlib, _ := pythonStdlib() // "" without python3: that corpus is skipped
	for _, corpus := range []struct{ name, dir string }{
		{"npm install of TestOracleTypeScript (rxjs, @types/node, typescript, ...)", filepath.Join(dir, "node_modules")},
		{"Python standard library", stdlib},
		{"Rust corpus ($LORE_RUST_CORPUS)", os.Getenv("LORE_RUST_CORPUS")},
		{"Java corpus ($LORE_JAVA_CORPUS)", os.Getenv("LORE_JAVA_CORPUS")},
	} {
		agree, total, found = 0, 0, 0
		if corpus.dir != "" {
			filepath.WalkDir(corpus.dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				if l := o.table.ForPath(p); l == nil || l.wordImports == nil {
					return nil
				}
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				check(p, src)
				return nil
			})
		}
		if total == 0 {
			t.Logf("%s: no files under %q (TestOracleTypeScript installs the npm one)", corpus.name, corpus.dir)
			continue
		}
		t.Logf("%s: %d / %d files agree with the queries (%d imports)", corpus.name, agree, total, found)
	}
}

// FuzzWordImports compares the wordImports functions with the queries on
// arbitrary text in each of the six grammars.
func FuzzWordImports(f *testing.F) {
	f.Add([]byte(`x = require("a"); import("b"); require(/*c*/ "d")`))
	f.Add([]byte("import x = require(\"y\");\nconst l = () => import(`t`)\n"))
	f.Add([]byte("<a b={require('c')}/>"))
	f.Add([]byte("def f():\n    return importlib.import_module('m')\n__import__(\"n\")\n"))
	f.Add([]byte("pub use a::{b, c as d};\nmod m;\nextern crate e;\nfn f() { use g::h; }\n"))
	f.Add([]byte("package p;\nimport static a.B.c;\nimport d.*;\nclass E {}\n"))
	o := newQueryOracle(f)
	f.Cleanup(o.Close)
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, path := range []string{"x.ts", "x.tsx", "x.js", "x.py", "x.rs", "x.java"} {
			if want, got := o.both(t, path, src); !slices.Equal(want, got) {
				t.Fatalf("%s: query %q, ours %q", path, want, got)
			}
		}
	})
}
