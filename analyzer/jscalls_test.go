package analyzer

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"golang.org/x/tools/txtar"
)

// callsQuery is the tree-sitter query callImportsJS replaces: the
// definition of what counts as an import made by a call. The analyzer
// does not compile it (see callImportsJS); the tests compare against it.
const callsQuery = `
(call_expression
  function: (import)
  arguments: (arguments . (string) @spec.dynamic))
(call_expression
  function: (identifier) @_f
  arguments: (arguments . (string) @spec.static)
  (#eq? @_f "require"))
`

// callsOracle finds calls' imports with callsQuery over the whole tree.
type callsOracle struct {
	table  *Table
	parser *sitter.Parser
	query  map[*Language]*sitter.Query
	cursor *sitter.QueryCursor
}

func newCallsOracle(t testing.TB) *callsOracle {
	o := &callsOracle{table: NewTable(), parser: sitter.NewParser(), query: map[*Language]*sitter.Query{}, cursor: sitter.NewQueryCursor()}
	for _, name := range []string{"typescript", "tsx", "javascript"} {
		l := o.table.Lookup(name)
		q, err := sitter.NewQuery([]byte(callsQuery), l.grammar())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		o.query[l] = q
	}
	return o
}

func (o *callsOracle) Close() {
	for _, q := range o.query {
		q.Close()
	}
	o.cursor.Close()
	o.parser.Close()
}

// both returns the calls' imports of src as the query finds them and as
// callImportsJS does, each as "line kind spec" in document order.
func (o *callsOracle) both(t testing.TB, path string, src []byte) (want, got []string) {
	l := o.table.ForPath(path)
	tsl, _, err := l.compiled()
	if err != nil {
		t.Fatal(err)
	}
	o.parser.SetLanguage(tsl)
	tree, err := o.parser.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	root := tree.RootNode()
	q := o.query[l]
	o.cursor.Exec(q, root)
	for {
		m, ok := o.cursor.NextMatch()
		if !ok {
			break
		}
		m = o.cursor.FilterPredicates(m, src)
		for _, c := range m.Captures {
			// As the analyzer ran it: through addImport, which drops
			// empty specs.
			kind, ok := strings.CutPrefix(q.CaptureNameForId(c.Index), "spec.")
			if spec := unquote(c.Node.Content(src)); ok && spec != "" {
				want = append(want, fmt.Sprintf("%d %s %s", c.Node.StartPoint().Row+1, kind, spec))
			}
		}
	}
	f := &File{Path: path}
	w := &walker{lang: l, types: l.types, named: l.named, src: src, parsed: src, file: f}
	callImportsJS(w, root)
	for _, imp := range f.Imports {
		got = append(got, fmt.Sprintf("%d %s %s", imp.Line, imp.Kind, imp.Spec))
	}
	return want, got
}

// TestCallImportsJSQuery checks that callImportsJS finds exactly what the
// query finds: on cases at the edges, on every JavaScript and TypeScript
// file of the golden fixtures and, with LORE_CORPUS set and the npm
// corpus installed (see TestOracleTypeScript), on rxjs and @types/node.
func TestCallImportsJSQuery(t *testing.T) {
	o := newCallsOracle(t)
	defer o.Close()
	cases := []string{
		`const a = require("a"); const b = require('b')` + "\n",
		"async function f() { await import(\"./x\"); return import('y', { with: { type: 'json' } }) }\n",
		"require(`tmpl`); require(x); require(); require(\"a\" + b); import(`t`)\n",
		"obj.require(\"no\"); requireX(\"no\"); $require(\"no\"); _import(\"no\"); x.import(\"no\")\n",
		"require /* c */ (\"spaced\"); import (\"spaced\"); require(/* c */ \"commented\")\n",
		"require(require(\"inner\")); (require)(\"paren\"); require<T>(\"generic\")\n",
		"// require(\"comment\")\n/* import(\"block\") */ const s = \"require('str')\"; const t = `${require(\"tmpl\")}`\n",
		"import x = require(\"ts-import-require\");\nimport type { T } from \"y\";\nexport { z } from \"z\";\ntype U = typeof import(\"type-query\");\n",
		"const v = import.meta.url; import\n(\"newline\")\n",
		"\u00a0require(\"nbsp\"); ärequire(\"no\"); requireä(\"no\")\n",
		"const el = <div onClick={() => import(\"./lazy\")}>{require(\"r\")}</div>;\n",
		"function f( { require(\"broken\")\nimport(\n",
		"",
		"require",
		"import",
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
		t.Errorf("%s: calls' imports differ from the query's\n query: %q\n  ours: %q", path, want, got)
	}
	for i, c := range cases {
		for _, ext := range []string{".ts", ".tsx", ".js"} {
			check(fmt.Sprintf("case%d%s", i, ext), []byte(c))
		}
	}
	fixtures, _ := filepath.Glob("../testdata/analyzer/*.txtar")
	for _, file := range fixtures {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if l := o.table.ForPath(f.Name); l != nil && l.calls != nil {
				check(f.Name, f.Data)
			}
		}
	}
	t.Logf("cases and fixtures: %d / %d files agree with the query (%d calls' imports)", agree, total, found)
	if found < 30 {
		t.Errorf("the cases hold %d calls' imports by the query; they were written with more", found)
	}
	if os.Getenv("LORE_CORPUS") == "" {
		return
	}
	dir := os.Getenv("LORE_TS_ORACLE_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "lore-ts-oracle")
	}
	agree, total, found = 0, 0, 0
	for _, corpus := range []string{filepath.Join(dir, "node_modules", "rxjs", "src"), filepath.Join(dir, "node_modules", "@types", "node"), filepath.Join(dir, "node_modules", "typescript", "lib")} {
		filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if l := o.table.ForPath(p); l == nil || l.calls == nil {
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
		t.Skipf("no corpus under %s: run TestOracleTypeScript first", dir)
	}
	t.Logf("npm corpus (rxjs, @types/node, typescript/lib): %d / %d files agree with the query (%d calls' imports)", agree, total, found)
}

// FuzzCallImportsJS compares callImportsJS with the query on arbitrary
// text in each of the three grammars.
func FuzzCallImportsJS(f *testing.F) {
	f.Add([]byte(`x = require("a"); import("b"); require(/*c*/ "d")`))
	f.Add([]byte("import x = require(\"y\");\nconst l = () => import(`t`)\n"))
	f.Add([]byte("<a b={require('c')}/>"))
	o := newCallsOracle(f)
	f.Cleanup(o.Close)
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, path := range []string{"x.ts", "x.tsx", "x.js"} {
			if want, got := o.both(t, path, src); !slices.Equal(want, got) {
				t.Fatalf("%s: query %q, ours %q", path, want, got)
			}
		}
	})
}
