package analyzer

import (
	"fmt"
	"os"
	"path/filepath"
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
			checkSqueezed(t, []byte(tc.src), got, &q, "")
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
			checkSqueezed(t, src, skel, &q, "")
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
	skeletonCorpus(t, "JavaScript/TypeScript", root, []string{".ts", ".js"}, jsSkeleton, "")
}
