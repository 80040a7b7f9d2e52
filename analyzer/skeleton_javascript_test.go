package analyzer

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestJSSkeleton(t *testing.T) {
	for _, tc := range []struct{ path, src, want string }{
		{"x.ts", "function f(a: number) { return a }\n", "function f(a: number) {}\n"},
		{"x.ts", "function f(): number {\n  return 1\n}\n", "function f(): number {\n\n}\n"},
		{"x.ts", "function f(): { a: number } { return g() }\n", "function f(): { a: number } {}\n"},
		{"x.ts", "class A extends B {\n  m() { x() }\n  n = () => { y() }\n}\n", "class A extends B {\n  m() {}\n  n = () => {}\n}\n"},
		{"x.ts", "class A extends mixin(B) { m() {} }\n", ""},
		{"x.ts", "class A<T extends { a: 1 }> extends f(B) { m() { x() } }\n", "class A<T extends { a: 1 }> extends f(B) { m() {} }\n"},
		{"x.ts", "namespace N { export function f() { g() } }\n", "namespace N { export function f() {} }\n"},
		{"x.ts", "declare function f(): void\nnamespace N { const x = 1 }\n", ""},
		{"x.ts", "function f() { return import('./m') }\n", ""},
		{"x.ts", "function f() { const m = require('m') }\n", ""},
		{"x.ts", "function f() { const r = /[}]/g; s = `${ {a: 1}.a }}` }\n", "function f() {}\n"},
		{"x.ts", "function f() {\n  return '}'\n}\n", "function f() {\n\n}\n"},
		{"x.ts", "init()\n{\n  function g() {}\n}\n", ""}, // a block of its own
		{"x.ts", "type F = (a: string) => { b: number }\n", "type F = (a: string) => {}\n"},
		{"x.ts", "function f() { x = a / b; y = /re/ }\n", "function f() {}\n"},
		{"x.ts", "function f() { s = 'unterminated\n}\n", ""}, // not followed: source as is
		{"x.ts", "function f() { g() \n", ""},                 // unbalanced
		{"x.ts", "function f() {}\n", ""},                     // nothing to squeeze
		// Comments keep their first three and last two bytes, and lines.
		{"x.ts", "/**\n * Adds.\n * @param a first\n */\nexport function add(a: number) { return a }\n",
			"/**\n\n\n*/\nexport function add(a: number) {}\n"},
		{"x.ts", "const a = 1 // one\n/* two */ const b = '/* not a comment */'\n", "const a = 1 // \n/* */ const b = '/* not a comment */'\n"},
		{"x.ts", "/*ab*/ //\n/**/ /*a*/\n", "/*a*/ //\n/**/ /*a*/\n"},
		{"x.ts", "function f() {\n  // a comment in a body\n  g() /* and another */\n}\n", "function f() {\n\n\n}\n"},
		{"x.ts", "/* unterminated\n", ""},
		{"x.ts", "/// <reference types=\"node\" />\n/** Doc. */\ndeclare function f(): { a: 1 }\n", "///\n/***/\ndeclare function f(): { a: 1 }\n"},
		{"x.d.ts", "/** Declaration files are parsed as they are. */\ndeclare function f(): void\n", ""},
	} {
		var q squeezed
		got, ok := jsSkeleton(tc.path, []byte(tc.src), nil, &q) // want "": parse the source
		if !ok {
			got = nil
		}
		if string(got) != tc.want {
			t.Errorf("jsSkeleton(%q)\n got %q\nwant %q", tc.src, got, tc.want)
		}
		if ok {
			checkSqueezed(t, []byte(tc.src), got, &q)
		}
	}
}

// checkSqueezed checks that a skeleton has the lines of src and that each
// of its bytes maps back to the same byte of src, or to a line break
// where squeezing left one.
func checkSqueezed(t *testing.T, src, skel []byte, q *squeezed) {
	t.Helper()
	if bytes.Count(skel, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Fatalf("skeleton changed the lines of %q: %q", src, skel)
	}
	for i, c := range skel {
		if o := q.start(i); o >= len(src) || src[o] != c {
			t.Fatalf("byte %d of skeleton %q maps to %d of %q", i, skel, o, src)
		}
	}
}

// TestJSXSkeleton checks JSX (which the scanner does not follow, and
// mostly gives up on) against the tree of the source.
func TestJSXSkeleton(t *testing.T) {
	ref, p := NewParser(wholeTable()), NewParser(nil)
	defer ref.Close()
	defer p.Close()
	for _, src := range []string{
		"export function App() {\n  return <div className=\"a\">{items.map(i => <Item key={i} />)}</div>\n}\n",
		"export const el = <p>see f() {x}</p>\nexport function g(a) { return a / 2 }\n",
		"export default function Page({ a }) { const [s, set] = useState(0); return <>{s}</> }\nexport class C { m() { return <b>don't</b> } }\n",
	} {
		want, err := ref.Parse("x.jsx", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Parse("x.jsx", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got.Symbols, got.Imports, got.Errors) != fmt.Sprint(want.Symbols, want.Imports, want.Errors) {
			t.Errorf("%q:\n got %v %v\nwant %v %v", src, got.Symbols, got.Imports, want.Symbols, want.Imports)
		}
	}
}

// wholeTable is the default table with every skeleton left out: what the
// skeletons are checked against.
func wholeTable() *Table {
	t := NewTable()
	for _, l := range t.langs {
		l.skeleton = nil
	}
	return t
}

// FuzzJSSkeleton checks that a skeleton keeps lines and maps back to its
// source (checkSqueezed), and that wherever tree-sitter parses the source
// without errors, the symbols (fingerprints included) and imports read
// through the skeleton are those read from the source.
func FuzzJSSkeleton(f *testing.F) {
	for _, s := range []string{
		"export function f<T>(a: T): T { return a }\n",
		"export class A extends B implements C {\n  @d() m(): void { if (x) { y() } }\n  get p(): number { return 1 }\n}\n",
		"export const f = async (x: number): Promise<void> => { await g(`${x}`) }\n",
		"declare module 'm' {\n  export interface I { f(): { a: 1 } }\n}\nnamespace N.M { function g() { return /}/ } }\n",
		"const x = { a() { return import('y') } }\n",
		"/** A. */\nexport interface A {\n  /** b */ b(): void; // c\n  c?: string /* d */\n}\ndeclare const x: number = 1 +\n",
		"/// <reference path=\"./a.d.ts\" />\ndeclare module 'm' { /* x */ export = N; }\ndeclare namespace N { type T = `a${string}` // t\n}\n",
	} {
		f.Add([]byte(s))
	}
	ref, p := NewParser(wholeTable()), NewParser(nil)
	f.Cleanup(ref.Close)
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, src []byte) {
		var q squeezed
		if skel, ok := jsSkeleton("x.ts", src, nil, &q); ok {
			checkSqueezed(t, src, skel, &q)
		}
		want, err := ref.Parse("x.ts", src)
		if err != nil || len(want.Errors) > 0 {
			return
		}
		got, err := p.Parse("x.ts", src)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got.Symbols, got.Imports) != fmt.Sprint(want.Symbols, want.Imports) {
			skel, _ := jsSkeleton("x.ts", src, nil, new(squeezed))
			t.Fatalf("%q:\n got %v %v\nwant %v %v\nskeleton %q", src, got.Symbols, got.Imports, want.Symbols, want.Imports, skel)
		}
	})
}

// TestJSSkeletonCorpus parses every TypeScript and JavaScript file of the
// npm corpus (see TestOracleTypeScript: rxjs, @types/node and what they
// bring, typescript's own lib files among them) with and without the
// skeleton: symbols, fingerprints, imports and errors must be the same.
func TestJSSkeletonCorpus(t *testing.T) {
	corpusTest(t)
	dir := tsOracleDir()
	root := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no npm corpus in %s (TestOracleTypeScript installs it)", dir)
	}
	skeletonCorpus(t, "JavaScript/TypeScript", root, []string{".ts", ".js"}, jsSkeleton, checkSqueezed)
}

// skeletonCorpus parses every file under root with one of the suffixes
// with and without the skeleton, which must read the same symbols,
// fingerprints, imports and errors, and checks each skeleton with check.
// A file whose syntax errors all lie in what the skeleton leaves out
// reads as if it had none, by design: it is counted, not compared.
func skeletonCorpus(t *testing.T, lang, root string, suffixes []string,
	skeleton func(string, []byte, []byte, *squeezed) ([]byte, bool),
	check func(*testing.T, []byte, []byte, *squeezed)) {
	ref, p := NewParser(wholeTable()), NewParser(nil)
	defer ref.Close()
	defer p.Close()
	var files, nsq, kept, hidden, differ int
	var size, saved int64
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.ContainsFunc(suffixes, func(s string) bool { return strings.HasSuffix(path, s) }) {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		size += int64(len(src))
		var q squeezed
		skel, ok := skeleton(path, src, nil, &q)
		if !ok {
			kept++
		} else {
			nsq++
			saved += int64(len(src) - len(skel))
			check(t, src, skel, &q)
		}
		want, _, err := ref.parse(context.Background(), path, src, "", false)
		if err != nil {
			return err
		}
		got, _, err := p.parse(context.Background(), path, src, "", false)
		if err != nil {
			return err
		}
		if len(want.Errors) > 0 && len(got.Errors) == 0 {
			hidden++ // the whole file's errors lie in what the skeleton leaves out
			return nil
		}
		if w, g := fmt.Sprint(want.Symbols, want.Imports, want.Errors), fmt.Sprint(got.Symbols, got.Imports, got.Errors); w != g {
			differ++
			if differ <= 5 {
				t.Errorf("%s: the skeleton's symbols differ\n got %.600s\nwant %.600s", path, g, w)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s skeleton: %d files (%.1f MB), %d squeezed (%.1f MB squeezed out), %d parsed whole; "+
		"%d with syntax errors only in what the skeleton leaves out (not compared); %d differ",
		lang, files, float64(size)/(1<<20), nsq, float64(saved)/(1<<20), kept, hidden, differ)
	if differ > 0 {
		t.Errorf("%d of %d files read differently through the skeleton", differ, files)
	}
}
