package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestTreeOf(t *testing.T) {
	tree := func(src string) string {
		ds, ok := declsOf("x.go", []byte("package x\n"+src))
		if !ok || len(ds) != 1 {
			t.Fatalf("declsOf(%q): %v %v", src, ds, ok)
		}
		return ds[0].tree
	}
	same := [][2]string{
		{"func f() int { return 0644 }", "func f() int {\n\t// octal\n\treturn 0o644\n}"},
		{"func f() int { return 1000 }", "func f() int { return 1_000 }"},
		{"type T struct{ a, b int }", "// T is.\ntype T struct {\n\ta, b int\n}"},
		{"func f() string { return `a  \n\tb` }", "func f() string { return `a\n\tb` }"},
		{"func f() (n int, err error) { n = 1; return }", "func f() (n int, err error) { n = 1; return n, err }"},
		{"func f() int { var x = 1; return x }", "func f() int { x := 1; return x }"},
		{"func f() { g(func() (m int) { return }) }", "func f() { g(func() (m int) { return m }) }"},
		{"func f(a int, b int) (x, y string) { return }", "func f(a, b int) (x string, y string) { return }"},
	}
	differ := [][2]string{
		{"func f() int { return 1 }", "func f() int { return 2 }"},
		{"func f() string { return \"a\" }", "func f() string { return `a` }"},
		{"func f(a ...int) { g(a) }", "func f(a ...int) { g(a...) }"},
		{"func f() (n int) { g(func() (m int) { return }); return }", "func f() (n int) { g(func() (m int) { return n }); return n }"},
		{"func f() int64 { var x int64 = 1; return x }", "func f() int64 { x := 1; return int64(x) }"},
		{"func f(a, b int) {}", "func f(a int, b int64) {}"},
	}
	checkTrees(t, tree, same, differ)
}

// checkTrees checks that each pair of same reads as one tree and each
// pair of differ as two.
func checkTrees(t *testing.T, tree func(string) string, same, differ [][2]string) {
	t.Helper()
	for _, p := range same {
		if tree(p[0]) != tree(p[1]) {
			t.Errorf("%q and %q: want one tree", p[0], p[1])
		}
	}
	for _, p := range differ {
		if tree(p[0]) == tree(p[1]) {
			t.Errorf("%q and %q: want two trees", p[0], p[1])
		}
	}
}

func TestDeclNames(t *testing.T) {
	ds, _ := declsOf("x.go", []byte(`package x
type (
	T struct{}
	L[K comparable] []K
)
func (t *T) M() {}
func (l L[K]) N() {}
func F() {}
func init() {}
func _() {}
`))
	var names []string
	for _, d := range ds {
		names = append(names, d.name)
	}
	if got, want := strings.Join(names, " "), "T L T::M L::N F"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
}

func TestParseNameStatus(t *testing.T) {
	changed, renames := parseNameStatus([]byte("M\x00a.go\x00R087\x00old dir/b.go\x00new/b.go\x00D\x00c.go\x00"))
	if len(changed) != 4 || !changed["old dir/b.go"] || !changed["c.go"] || renames["old dir/b.go"] != "new/b.go" {
		t.Errorf("changed %v, renames %v", changed, renames)
	}
}

// history makes a git repository of the given commits, each a set of
// files (empty text deletes one).
func history(t *testing.T, commits ...map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	gitDo := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitDo("init", "-q", "-b", "main")
	for i, files := range commits {
		for p, text := range files {
			p = filepath.Join(dir, p)
			if text == "" {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		gitDo("add", "-A")
		gitDo("commit", "-q", "-m", fmt.Sprint("commit ", i))
	}
	return dir
}

// replay runs the command over dir's last commit and checks the table's
// rows.
func replay(t *testing.T, dir string, args []string, rows ...string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), append([]string{"-repo", dir, "-commits", "1"}, args...), &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	t.Log(out.String())
	for _, want := range rows {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// TestReplay replays a real two-commit history: a function moved to
// another file of its package, one edited, one deleted, and one whose
// number was respelled (0644 to 0o644, as gofumpt does) beside others
// left alone.
func TestReplay(t *testing.T) {
	dir := history(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"p/a.go": `package p

import "os"

// Save writes the file.
func Save(name string, b []byte) error {
	return os.WriteFile(name, b, 0644)
}

func Count(xs []int) int {
	n := 0
	for range xs {
		n++
	}
	return n
}

func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

type Stack struct{ items []int }

func (s *Stack) Push(x int) { s.items = append(s.items, x) }
`,
		"p/b.go": `package p

func Unused(a, b string) string {
	if a == "" {
		return b
	}
	return a + "/" + b
}
`,
	}, map[string]string{
		"p/a.go": `package p

import "os"

// Save writes the file, readable by all.
func Save(name string, b []byte) error {
	return os.WriteFile(name, b, 0o644)
}

func Count(xs []int) int {
	return len(xs)
}

type Stack struct{ items []int }

func (s *Stack) Push(x int) { s.items = append(s.items, x) }
`,
		"p/b.go": `package p

// Sum adds xs up.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
`,
	})
	replay(t, dir, nil,
		"in place, tree unchanged                3      3      0      0      0      0      0",
		"in place, tree changed                  1      1      0      0      0      0      0",
		"moved, unchanged                        1      1      0      0      0      0      0",
		"gone                                    1      1  (not said gone: followed 0",
	)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-repo", dir, "-rev", "nosuch"}, &out, &out); err == nil || !strings.Contains(err.Error(), "-rev nosuch: not a commit") {
		t.Errorf("a revision that is not there: %v", err)
	}
	if err := run(context.Background(), []string{"-repo", dir, "-lang", "cobol"}, &out, &out); err == nil || !strings.Contains(err.Error(), "-lang cobol: want go, python, ts, java, ruby, php, c, rust or lines") {
		t.Errorf("a language it does not read: %v", err)
	}
	if err := run(context.Background(), []string{"-repo", dir, "-lang", "java", "-java", filepath.Join(t.TempDir(), "java")}, &out, &out); err == nil || !strings.Contains(err.Error(), "give -java PATH") {
		t.Errorf("-lang java without a JDK: %v", err)
	}
	if err := run(context.Background(), []string{"-repo", dir, "-lang", "ruby", "-ruby", filepath.Join(t.TempDir(), "ruby")}, &out, &out); err == nil || !strings.Contains(err.Error(), "give -ruby PATH") {
		t.Errorf("-lang ruby without Ruby: %v", err)
	}
	if err := run(context.Background(), []string{"-repo", dir, "-lang", "php", "-php", filepath.Join(t.TempDir(), "php")}, &out, &out); err == nil || !strings.Contains(err.Error(), "give -php PATH") {
		t.Errorf("-lang php without PHP: %v", err)
	}
	if err := run(context.Background(), []string{"-repo", dir, "-lang", "c", "-python", filepath.Join(t.TempDir(), "python3")}, &out, &out); err == nil || !strings.Contains(err.Error(), "give -python PATH") {
		t.Errorf("-lang c without Python: %v", err)
	}
	if err := run(context.Background(), []string{"-repo", dir, "-lang", "c", "-python", cPython, "-libclang", filepath.Join(t.TempDir(), "libclang.so")}, &out, &out); err == nil || !strings.Contains(err.Error(), "-libclang FILE") {
		t.Errorf("-lang c without libclang: %v", err)
	}
	if err := run(context.Background(), []string{"-repo", dir, "-lang", "rust", "-rustc", filepath.Join(t.TempDir(), "rustc")}, &out, &out); err == nil || !strings.Contains(err.Error(), "give -rustc PATH") {
		t.Errorf("-lang rust without rustc: %v", err)
	}
}

// needPython skips a test where no python3 runs.
func needPython(t *testing.T) {
	t.Helper()
	needRun(t, "python3 not installed: the Python oracle is not tested", "python3", "-c", "import ast")
}

// needRun skips a test, saying why, where argv does not run.
func needRun(t *testing.T, why string, argv ...string) {
	t.Helper()
	if err := exec.Command(argv[0], argv[1:]...).Run(); err != nil {
		t.Skip(why)
	}
}

// openOracle starts a script oracle for the test, closed at its end.
func openOracle(t *testing.T, start func(context.Context) (*scriptOracle, error)) *scriptOracle {
	t.Helper()
	o, err := start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.close() })
	return o
}

func TestPythonTrees(t *testing.T) {
	needPython(t)
	o := openOracle(t, func(ctx context.Context) (*scriptOracle, error) { return newPyOracle(ctx, "python3") })
	same := [][2]string{
		{"def f():\n    return 'a'\n", "def f():\n    # quote\n    return \"a\"\n"},
		{"def f():\n    '''Doc.'''\n    return (1)\n", "def f():\n    return 1\n"},
		{"def f(a, b):\n    g(a, b,)\n", "def f(\n    a,\n    b,\n):\n    g(\n        a,\n        b,\n    )\n"},
		{"def f():\n    return u'x  \\n'\n", "def f():\n    return 'x  \\n'\n"},
		{"def f():\n    return '''a  \nb'''\n", "def f():\n    return '''a\nb'''\n"},
		{"def f():\n    return 0XFF\n", "def f():\n    return 0xff\n"},
	}
	differ := [][2]string{
		{"def f():\n    return 1\n", "def f():\n    return 2\n"},
		{"def f():\n    b'data'\n", "def f():\n    pass\n"},
		{"@cache\ndef f():\n    return 1\n", "def f():\n    return 1\n"},
		{"def f():\n    return 'a'\n", "def f():\n    return f'a'\n"},
	}
	checkScript(t, o, "x.py", same, differ, `import x
if x:
    def g(): pass
class C:
    @property
    def p(self): return 1
    class Inner:
        def m(self):
            def nested(): pass
`, "g C C::p C::Inner C::Inner::m", "print 'python 2'\n")
}

// checkScript checks o's trees of one-declaration files named file (see
// checkTrees), the names it gives the declarations of src, and that bad
// does not parse.
func checkScript(t *testing.T, o *scriptOracle, file string, same, differ [][2]string, src, names, bad string) {
	t.Helper()
	tree := func(src string) string {
		t.Helper()
		ds, ok, err := o.decls(file, []byte(src))
		if err != nil || !ok || len(ds) != 1 {
			t.Fatalf("decls(%q): %v %v %v", src, ds, ok, err)
		}
		return ds[0].tree
	}
	checkTrees(t, tree, same, differ)
	ds, ok, err := o.decls(file, []byte(src))
	var got []string
	for _, d := range ds {
		got = append(got, d.name)
	}
	if strings.Join(got, " ") != names || !ok || err != nil {
		t.Errorf("names %q (%v, %v), want %q", got, ok, err, names)
	}
	if bad == "" {
		return // clang reads what it can of any file
	}
	if _, ok, err := o.decls(file, []byte(bad)); ok || err != nil {
		t.Errorf("a file that does not parse: ok %v, %v", ok, err)
	}
}

// TestReplayPython replays a real two-commit Python history: black's
// rewrite of one function (quotes, parentheses, trailing commas, a
// docstring edited), one function edited, one moved to another module,
// one deleted, a getter and setter of one name left out.
func TestReplayPython(t *testing.T) {
	needPython(t)
	dir := history(t, map[string]string{
		"pkg/a.py": `import os


def save(name, data):
    """Write data."""
    with open(name, 'w') as f:
        f.write(data,)
    return (len(data))


def count(xs):
    n = 0
    for _ in xs:
        n += 1
    return n


def total(xs):
    s = 0
    for x in xs:
        s += x
    return s


class Box:
    def __init__(self, v):
        self.v = v

    @property
    def value(self):
        return self.v

    @value.setter
    def value(self, v):
        self.v = v
`,
		"pkg/b.py": `def unused(a, b):
    if not a:
        return b
    return a + "/" + b
`,
	}, map[string]string{
		"pkg/a.py": `import os


def save(name, data):
    """Write data to the file name."""
    with open(name, "w") as f:
        f.write(data)
    return len(data)


def count(xs):
    return len(xs)


class Box:
    def __init__(self, v):
        self.v = v

    @property
    def value(self):
        return self.v

    @value.setter
    def value(self, v):
        self.v = v
`,
		"pkg/b.py": `def total(xs):
    s = 0
    for x in xs:
        s += x
    return s
`,
	})
	replay(t, dir, []string{"-lang", "python"},
		"oracle (CPython ast)",
		"in place, tree unchanged                3      3      0      0      0      0      0",
		"in place, tree changed                  1      1      0      0      0      0      0",
		"moved, unchanged                        1      1      0      0      0      0      0",
		"gone                                    1      1  (not said gone: followed 0",
	)
}

// needTypeScript gives the typescript npm package the TypeScript oracle
// reads with, installing it into $LORE_TS_HISTORY_DIR (default: a
// directory under the OS temp dir, reused between runs); it skips the
// test where node or npm cannot.
func needTypeScript(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed: the TypeScript oracle is not tested")
	}
	dir := os.Getenv("LORE_TS_HISTORY_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "lore-history-ts")
	}
	ts := filepath.Join(dir, "node_modules", "typescript")
	if _, err := os.Stat(filepath.Join(ts, "package.json")); err == nil {
		return ts
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm not installed: the TypeScript oracle is not tested")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", dir, "typescript@5.9").CombinedOutput(); err != nil {
		t.Skipf("npm install typescript failed (offline?): the TypeScript oracle is not tested: %v\n%s", err, out)
	}
	return ts
}

func TestTypeScriptTrees(t *testing.T) {
	o := openOracle(t, func(ctx context.Context) (*scriptOracle, error) { return newTSOracle(ctx, "node", needTypeScript(t)) })
	same := [][2]string{
		{"function f() { return 'a' }", "function f() {\n  // quote\n  return \"a\";\n}"},
		{"function f(a, b) { return g(a, b,) }", "function f(\n  a,\n  b,\n) {\n  return (g(a, b));;\n}"},
		{"const x = {'a': 1, \"2\": 0xff}", "const x = {a: 1, 2: 255};"},
		{"function f() { return /a/gm }", "function f() { return /a/mg }"},
		{"function f() { return (a * b) + c }", "function f() { return a * b + c }"},
		{"const e = <p>\n  some\n  text\n</p>", "const e = <p>some text</p>"},
		{"type T = | A | B", "type T = A | B"},
		{"function f() { return a || (b || c) }", "function f() { return a || b || c }"},
		{"function f() { return `a  \nb` }", "function f() { return `a\nb` }"},
	}
	differ := [][2]string{
		{"function f() { return 1 }", "function f() { return 2 }"},
		{"function f() { return a * (b + c) }", "function f() { return a * b + c }"},
		{"function f() { return -a }", "function f() { return !a }"},
		{"function f() { let x = 1 }", "function f() { const x = 1 }"},
		{"function f() { return `a` }", "function f() { return 'a' }"},
		{"function f() { return (a?.b).c }", "function f() { return a?.b.c }"},
		{"function f() { if (x); g() }", "function f() { if (x) g() }"},
		{"function f() { return a || (b && c) }", "function f() { return (a || b) && c }"},
		{"function f() { if (a) {} if (b) {} }", "function f() { if (a) {} else if (b) {} }"},
	}
	checkScript(t, o, "x.tsx", same, differ, `import x from 'x'
export function f(): void {}
export default class {
  constructor(private a: number) {}
  get v() { return 1 }
  set v(x) {}
  m(): void {}
}
interface I { n(): void; p: string }
namespace N.M { export const k = 1 }
let a = 1, b = 2
`, "f default default::constructor default::v default::v default::m I I::n N.M N.M::k", "function (\n")
}

// TestReplayTypeScript replays a real two-commit TypeScript history:
// prettier's rewrite of one function (quotes, semicolons, parentheses,
// trailing commas, a comment edited), one method edited, two functions
// moved to another module (one exported there), one deleted.
func TestReplayTypeScript(t *testing.T) {
	ts := needTypeScript(t)
	dir := history(t, map[string]string{
		"src/a.ts": `import {readFileSync} from 'fs'

// save writes data.
export function save(name: string, data: string): number {
    const text = (data + '\n')
    return ((text.length))
}

export class Stack<T> {
    private items: T[] = []
    push(x: T) { this.items.push(x) }
    size() { return this.items.length }
}

export function total(xs: number[]) {
    let s = 0
    for (const x of xs) s += clamp(x)
    return s
}

function clamp(x: number) {
    return Math.max(0, x)
}
`,
		"src/b.ts": `export function unused(a: string, b: string) {
    if (!a) return b
    return a + "/" + b
}
`,
	}, map[string]string{
		"src/a.ts": `import { readFileSync } from "fs";

// save writes data to the file name.
export function save(name: string, data: string): number {
  const text = data + "\n";
  return text.length;
}

export class Stack<T> {
  private items: T[] = [];
  push(x: T) {
    this.items.push(x);
  }
  size() {
    return this.items.length + 0;
  }
}
`,
		"src/b.ts": `export function total(xs: number[]) {
    let s = 0
    for (const x of xs) s += clamp(x)
    return s
}

export function clamp(x: number) {
    return Math.max(0, x)
}
`,
	})
	replay(t, dir, []string{"-lang", "ts", "-typescript", ts},
		"oracle (TypeScript compiler)",
		"in place, tree unchanged                3      3      0      0      0      0      0",
		"in place, tree changed                  2      2      0      0      0      0      0",
		"moved, unchanged                        2      2      0      0      0      0      0",
		"gone                                    1      1  (not said gone: followed 0",
	)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-repo", dir, "-lang", "ts"}, &out, &out); err == nil || !strings.Contains(err.Error(), "give -typescript") {
		t.Errorf("-lang ts without -typescript: %v", err)
	}
}

// needJava returns the java launcher, or skips: the Java oracle needs a
// JDK (its compiler API), not a JRE alone.
func needJava(t *testing.T) string {
	t.Helper()
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java not installed: the Java oracle is not tested")
	}
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("javac not installed (a JRE without a JDK): the Java oracle is not tested")
	}
	return java
}

func TestJavaTrees(t *testing.T) {
	o := openOracle(t, func(ctx context.Context) (*scriptOracle, error) { return newJavaOracle(ctx, needJava(t)) })
	same := [][2]string{
		{"class A { int f() { return (a * b) + c; } }", "class A {\n  /** doc */\n  int f() {\n    // c\n    return a * b + c;\n  }\n}"},
		{"class A { String s = \"a\" + \"b\"; }", "class A { String s = \"ab\"; }"},
		{"class A { final static int N = 0x10; }", "class A { static final int N = 16; }"},
		{"class A { byte b[]; }", "class A { byte[] b; }"},
		{"class A { boolean f() { return a && (b && c); } }", "class A { boolean f() { return a && b && c; } }"},
		{"enum A { X, Y, }", "enum A { X, Y; }"},
	}
	differ := [][2]string{
		{"class A { int f() { return 1; } }", "class A { int f() { return 2; } }"},
		{"class A { int f() { return a * (b + c); } }", "class A { int f() { return a * b + c; } }"},
		{"class A { boolean f() { return a || (b && c); } }", "class A { boolean f() { return (a || b) && c; } }"},
		{"class A { String f() { return x + \"a\"; } }", "class A { String f() { return x + \"b\"; } }"},
		{"class A { void f() { if (x) { g(); } h(); } }", "class A { void f() { if (x) { g(); h(); } } }"},
		{"class A { long n = 1; }", "class A { long n = 1L; }"},
		{"class A { void f(Object[] a) {} }", "class A { void f(Object... a) {} }"},
		{"class A { @Override public String toString() { return s; } }", "class A { public String toString() { return s; } }"},
	}
	// A class's tree is the whole class, its members' among them.
	tree := func(src string) string {
		t.Helper()
		ds, ok, err := o.decls("A.java", []byte(src))
		if err != nil || !ok || len(ds) == 0 {
			t.Fatalf("decls(%q): %v %v %v", src, ds, ok, err)
		}
		return ds[0].tree
	}
	checkTrees(t, tree, same, differ)
	checkScript(t, o, "A.java", nil, nil, `package p;
import java.util.Map;
public class A<T> {
    int a, b;
    private String name;
    A() {}
    A(int x) { this(); }
    void m(String... xs) {}
    void m(Map.Entry<String, T>[] e, int y) {}
    String name() { return name; }
    enum E { X, Y; void f() {} }
    interface I { int g(); }
}
class B {}
`, "A A::A() A::A(int) A::m(String...) A::m(Entry[],int) A::name() A::E A::E::f A::I A::I::g B", "class A {\n")
}

// TestReplayJava replays a real two-commit Java history:
// google-java-format's rewrite of one class (indentation, a string split
// with +, modifiers reordered, a comment edited), one method edited, one
// method moved to another class, one overload added beside a method
// (which overload it became is left out), one method deleted; both
// classes changed.
func TestReplayJava(t *testing.T) {
	java := needJava(t)
	dir := history(t, map[string]string{
		"src/p/Store.java": `package p;

public class Store {
    final static String GREETING = "hello, world";

    // save writes data.
    public int save(String name, String data) {
        String text = (data + "\n");
        return ((text.length()));
    }

    public int size(java.util.List<String> xs) { return xs.size(); }

    int clamp(int x) {
        return Math.max(0, x);
    }

    void unused() { System.out.println("x"); }

    int count(String s) { return s.length(); }
}
`,
		"src/p/Util.java": `package p;

class Util {
    static int twice(int x) { return 2 * x; }
}
`,
	}, map[string]string{
		"src/p/Store.java": `package p;

public class Store {
  static final String GREETING = "hello, " + "world";

  // save writes data to the file name.
  public int save(String name, String data) {
    String text = data + "\n";
    return text.length();
  }

  public int size(java.util.List<String> xs) {
    return xs.size() + 0;
  }

  int count(String s) {
    return s.length();
  }

  int count(char[] s) {
    return s.length;
  }
}
`,
		"src/p/Util.java": `package p;

class Util {
  static int twice(int x) {
    return 2 * x;
  }

  int clamp(int x) {
    return Math.max(0, x);
  }
}
`,
	})
	replay(t, dir, []string{"-lang", "java", "-java", java},
		"oracle (javac)",
		"in place, tree unchanged                3      3      0      0      0      0      0",
		"in place, tree changed                  3      3      0      0      0      0      0",
		"moved, unchanged                        1      1      0      0      0      0      0",
		"gone                                    1      1  (not said gone: followed 0",
	)
}

// needRuby skips where no Ruby with RubyVM::AbstractSyntaxTree is
// installed.
func needRuby(t *testing.T) {
	t.Helper()
	needRun(t, "ruby (2.6 or later) not installed: the Ruby oracle is not tested", "ruby", "-e", "RubyVM::AbstractSyntaxTree")
}

func TestRubyTrees(t *testing.T) {
	needRuby(t)
	o := openOracle(t, func(ctx context.Context) (*scriptOracle, error) { return newRubyOracle(ctx, "ruby") })
	same := [][2]string{
		{"def f(a)\n  g(a, :x => 'y')\nend\n", "def f(a)\n  # call g\n  g a, x: \"y\"\nend\n"},
		{"def f(a); a.map { |x| x }; end\n", "def f(a)\n  a.map do |x|\n    x\n  end\nend\n"},
		{"def f a, b\n  a && b\nend\n", "def f(a, b)\n  a and b\nend\n"},
		{"def f\n  %w(a b)\nend\n", "def f()\n  %w[a b]\nend\n"},
		{"def f\n  \"a  \nb\"\nend\n", "def f\n  \"a\nb\"\nend\n"},
		{"def f\n  \"\\xff  \nb\"\nend\n", "def f\n  \"\\xff\nb\"\nend\n"},
		{"def f(a); a; end\n", "def f(a)\n  a\nend\n"},
		{"def f\n  eval(s, __FILE__, __LINE__)\nend\n", "\ndef f\n  eval(s, __FILE__, __LINE__)\nend\n"},
	}
	differ := [][2]string{
		{"def f\n  1\nend\n", "def f\n  2\nend\n"},
		{"def f\n  headers[k]\nend\n", "def f\n  @headers[k]\nend\n"},
		{"def f(a)\n  g(a)\nend\n", "def f(a)\n  g(a) if a\nend\n"},
		{"def f\n  'a'\nend\n", "def f\n  :a\nend\n"},
	}
	checkScript(t, o, "x.rb", same, differ, `module M
  class C < Base
    def a; end
    def self.b(x) = x
    class << self
      def c; end
    end
  end
end
class M::D
  included do
    def e; end
  end
end
`, "M M::C M::C::a M::C::b M::C::c M::D M::D::e", "def f(\n")
}

// TestReplayRuby replays a real two-commit Ruby history: RuboCop's
// rewrite of one method (hash rockets, quotes, a block's braces), one
// method edited, one moved to another file of its class, one deleted.
func TestReplayRuby(t *testing.T) {
	needRuby(t)
	dir := history(t, map[string]string{
		"lib/store.rb": `class Store
  def save(name, data)
    write(name, data, :mode => 'w')
  end

  def count(xs)
    xs.map { |x| x.size }.sum
  end

  def clamp(x)
    [0, x].max
  end

  def unused
    puts 'x'
  end
end
`,
		"lib/store/util.rb": `class Store
  def twice(x)
    2 * x
  end
end
`,
	}, map[string]string{
		"lib/store.rb": `class Store
  # save writes data.
  def save(name, data)
    write(name, data, mode: "w")
  end

  def count(xs)
    xs.sum(&:size)
  end
end
`,
		"lib/store/util.rb": `class Store
  def twice(x)
    2 * x
  end

  def clamp(x)
    [0, x].max
  end
end
`,
	})
	replay(t, dir, []string{"-lang", "ruby"},
		"oracle (Ruby's parser)",
		"in place, tree unchanged                2      2      0      0      0      0      0",
		"in place, tree changed                  3      3      0      0      0      0      0",
		"moved, unchanged                        1      1      0      0      0      0      0",
		"gone                                    1      1  (not said gone: followed 0",
	)
}

// needPHP skips a test where no php with the ast extension runs.
func needPHP(t *testing.T) {
	t.Helper()
	needRun(t, "php with the ast extension (Debian: php-ast) not installed: the PHP oracle is not tested", "php", "-r", "ast\\parse_code('<?php', 90);")
}

func TestPHPTrees(t *testing.T) {
	needPHP(t)
	o := openOracle(t, func(ctx context.Context) (*scriptOracle, error) { return newPHPOracle(ctx, "php") })
	same := [][2]string{
		{"<?php\nfunction f($a) { return 'a' . 'b'; }", "<?php\n/** f */\nfunction f($a)\n{\n    return \"ab\";\n}"},
		{"<?php\nfunction f($a) { return $a . 'x' . 'y'; }", "<?php\nfunction f($a) { return $a . 'xy'; }"},
		{"<?php\nfunction f($a) { if ($a) { g(); } else if ($a > 1) { h(); } }", "<?php\nfunction f($a) { if ($a) { g(); } elseif ($a > 1) { h(); } }"},
		{"<?php\nfunction f() { return TRUE; }", "<?php\nfunction f() { return true; }"},
		{"<?php\nfunction f() { return \"a  \nb\"; }", "<?php\nfunction f() { return \"a\nb\"; }"},
		{"<?php\nfunction f($a) { return ($a); }", "<?php\nfunction f($a) { return $a; }"},
		{"<?php\nfunction f($a) { list($b) = array($a); }", "<?php\nfunction f($a) { [$b] = [$a]; }"},
	}
	differ := [][2]string{
		{"<?php\nfunction f() { return 1; }", "<?php\nfunction f() { return 2; }"},
		{"<?php\nfunction f($a) { return $a . 'b'; }", "<?php\nfunction f($a) { return 'b' . $a; }"},
		{"<?php\nfunction f() { return FOO; }", "<?php\nfunction f() { return foo; }"},
		{"<?php\nfunction f() { return '\\n'; }", "<?php\nfunction f() { return \"\\n\"; }"},
	}
	checkScript(t, o, "x.php", same, differ, `<?php
namespace App;

interface I { function a(); }
trait T { public function b() {} }
final class C extends B {
    public function c() {
        $x = new class { function anon() {} };
        return function () {};
    }
}
enum E { case X; public function e() {} }
function f() {}
`, "I I::a T T::b C C::c C::c::anon E E::e f", "<?php\nfunction f( {\n")
}

// TestReplayPHP replays a real two-commit PHP history: PHP-CS-Fixer's
// rewrite of two methods (an implied public, a long cast, quotes, a
// literal split by "."), one method edited, one deleted.
func TestReplayPHP(t *testing.T) {
	needPHP(t)
	dir := history(t, map[string]string{
		"src/Store.php": `<?php

class Store
{
    function save($name, $data)
    {
        $this->write($name, (boolean) $data, "w");
    }

    public function message()
    {
        return 'could not open the '
            . 'file';
    }

    public function clamp($x)
    {
        return max(0, $x);
    }

    public function unused()
    {
        echo 'x';
    }
}
`,
	}, map[string]string{
		"src/Store.php": `<?php

class Store
{
    /**
     * save writes data.
     */
    public function save($name, $data)
    {
        $this->write($name, (bool) $data, 'w');
    }

    public function message()
    {
        return 'could not open the file';
    }

    public function clamp($x)
    {
        return min(0, $x);
    }
}
`,
	})
	replay(t, dir, []string{"-lang", "php"},
		"oracle (php-ast)",
		"in place, tree unchanged                2      2      0      0      0      0      0",
		"in place, tree changed                  2      2      0      0      0      0      0",
		"gone                                    1      1  (not said gone: followed 0",
	)
}

// cPython is the Python that Debian's python3-clang-14 installs into.
const cPython = "/usr/bin/python3"

func needClang(t *testing.T) {
	t.Helper()
	needRun(t, "libclang's Python bindings (Debian: python3-clang-14) not installed: the C oracle is not tested", cPython, "-c",
		"import clang.cindex as ci; ci.Config.set_library_file('/usr/lib/llvm-14/lib/libclang-14.so.1'); ci.Index.create()")
}

func TestCTrees(t *testing.T) {
	needClang(t)
	o := openOracle(t, func(ctx context.Context) (*scriptOracle, error) {
		return newCOracle(ctx, cPython, "/usr/lib/llvm-14/lib/libclang-14.so.1")
	})
	same := [][2]string{
		{"int f(int a) { return a; }", "/* f */\nint\nf(int a)\n{\n    return a; // a\n}"},
		{"int f(void) { return 0x10; }", "int f(void) { return 16; }"},
		{"long f(void) { return 10ul; }", "long f(void) { return 10LU; }"},
		{"const char *f(void) { return \"a b\"; }", "const char *f(void) { return \"a \"\n    \"b\"; }"},
		{"int f(void) { int a[] = {1, 2,}; return a[0]; }", "int f(void) { int a[] = {1, 2}; return a[0]; }"},
		{"#define local static\nlocal int f(void) { return 1; }", "#define local static\n\nlocal int f(void) { return 1; }"},
	}
	differ := [][2]string{
		{"int f(void) { return 1; }", "int f(void) { return 2; }"},
		{"int f(int a) { return a; }", "long f(int a) { return a; }"},
		{"const char *f(void) { return \"\\x1\" \"2\"; }", "const char *f(void) { return \"\\x12\"; }"},
		{"long f(void) { return 100000; }", "long f(void) { return 100000L; }"},
	}
	checkScript(t, o, "x.c", same, differ, `#include <stdio.h>
#include "local.h"

struct point { int x, y; };
enum color { RED, GREEN };
typedef struct { int z; } anon_t;
static int counter;
int proto(int a);

static void helper(struct point *p)
{
    p->x = 0;
}

int CJSON_CDECL main(void)
{
    return 0;
}
`, "point color helper", "")
}

// TestReplayC replays a real two-commit C history: clang-format's
// rewrite of one function (layout, a comment, a string split), one
// function edited, one deleted.
func TestReplayC(t *testing.T) {
	needClang(t)
	dir := history(t, map[string]string{
		"src/buf.c": `#include "buf.h"

int buf_len(const struct buf *b) { return b->len; }

const char *buf_name(void) { return "a byte buffer"; }

int buf_cap(const struct buf *b)
{
    return b->cap;
}

void buf_unused(void)
{
}
`,
	}, map[string]string{
		"src/buf.c": `#include "buf.h"

/* buf_len is the bytes held. */
int buf_len(const struct buf *b)
{
    return b->len;
}

const char *buf_name(void)
{
    return "a byte "
           "buffer";
}

int buf_cap(const struct buf *b)
{
    return b->cap * 2;
}
`,
	})
	replay(t, dir, []string{"-lang", "c", "-python", cPython},
		"oracle (clang)",
		"in place, tree unchanged                2      2      0      0      0      0      0",
		"in place, tree changed                  1      1      0      0      0      0      0",
		"gone                                    1      1  (not said gone: followed 0",
	)
}

// rustc finds a rustc for the Rust oracle, on PATH or where rustup puts
// it, or skips.
func rustc(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("rustc"); err == nil {
		return p
	}
	if home, err := os.UserHomeDir(); err == nil {
		if p := filepath.Join(home, ".cargo", "bin", "rustc"); exec.Command(p, "--version").Run() == nil {
			return p
		}
	}
	t.Skip("rustc not installed: the Rust oracle is not tested")
	return ""
}

func TestRustTrees(t *testing.T) {
	needPython(t)
	rc := rustc(t)
	o := openOracle(t, func(ctx context.Context) (*scriptOracle, error) { return newRustOracle(ctx, "python3", rc) })
	same := [][2]string{
		{"fn f(a: i32) -> i32 { a + 1 }", "/// f\nfn f(a: i32) -> i32 {\n    // one more\n    a + 1\n}"},
		{"fn f(a: i32) -> i32 { (a + 1) }", "fn f(a: i32) -> i32 { a + 1 }"},
		{"fn f(a: u8) -> u8 { match a { 1 => { g(a) } _ => 0 } }", "fn f(a: u8) -> u8 {\n    match a {\n        1 => g(a),\n        _ => 0,\n    }\n}"},
		{"fn f() { let c = |x| { x + 1 }; }", "fn f() { let c = |x| x + 1; }"},
		{"fn f() { let c = |m| quote! { a(#m) }; }", "fn f() {\n    let c = |m| {\n        quote! { a(#m) }\n    };\n}"},
		{"fn f() { let v = vec![1, 2,]; }", "fn f() {\n    let v = vec![1,2];\n}"},
		{"struct S { a: i32, b: u8, }", "struct S {\n    /// a\n    a: i32,\n    b: u8\n}"},
		{"fn f() -> u32 { 10240 }", "fn f() -> u32 { 10_240 }"},
		{"fn f() -> &'static str { \"a  \nb\" }", "fn f() -> &'static str { \"a\nb\" }"},
		{"fn f() { use b::{y, x}; use a::z; g(); }", "fn f() {\n    use a::z;\n    use b::{x, y};\n    g();\n}"},
	}
	differ := [][2]string{
		{"fn f() -> i32 { 1 }", "fn f() -> i32 { 2 }"},
		{"fn f() -> i32 { 1 }", "pub fn f() -> i32 { 1 }"},
		{"fn f() { g(); }", "fn f() { g() }"},
		{"fn f() -> (i32,) { (1,) }", "fn f() -> (i32,) { (1) }"},
		{"fn f(a: u8) -> u8 { match a { 1 => { g(a); 2 } _ => 0 } }", "fn f(a: u8) -> u8 { match a { 1 => 2, _ => 0 } }"},
		{"#[inline]\nfn f() {}", "fn f() {}"},
		{"fn f() -> &'static str { \"a b\" }", "fn f() -> &'static str { \"ab\" }"},
		{"fn f() { use a::z; g(); use b::y; }", "fn f() { use b::y; g(); use a::z; }"},
		{"fn f() { let c = |m| quote! { a(#m) }; }", "fn f() { let c = |m| { quote! { a(#m) }; }; }"},
	}
	checkScript(t, o, "x.rs", same, differ, `mod file_module;
use std::fmt;

pub struct Point { x: i32 }
pub enum Kind { A, B(u8) }
pub trait Area { fn area(&self) -> f64; fn twice(&self) -> f64 { 2.0 * self.area() } }
impl Point { pub fn new() -> Self { Point { x: 0 } } }
impl<'a> fmt::Display for &'a Point { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) } }
impl Area for [Point] { fn area(&self) -> f64 { 0.0 } }
const LIMIT: usize = 3;
macro_rules! square { ($x:expr) => { $x * $x }; }
fn top() {}
#[cfg(test)]
mod tests { #[test] fn works() {} }
`, "Point Kind Area Area::area Area::twice Point::new Point::fmt top tests::works", "fn broken( {")
}

// TestReplayRust replays a real two-commit Rust history: rustfmt's
// rewrite of one function (a match arm's block, a trailing comma, a doc
// comment edited), one method edited, one function deleted.
func TestReplayRust(t *testing.T) {
	needPython(t)
	rc := rustc(t)
	dir := history(t, map[string]string{
		"src/lib.rs": `/// Sign.
pub fn sign(a: i32) -> i32 { match a { 0 => { 0 } _ => 1, } }

pub struct Buf { len: usize }

impl Buf {
    pub fn len(&self) -> usize { self.len }
}

fn unused() {}
`,
	}, map[string]string{
		"src/lib.rs": `/// The sign of a.
pub fn sign(a: i32) -> i32 {
    match a {
        0 => 0,
        _ => 1,
    }
}

pub struct Buf {
    len: usize,
}

impl Buf {
    pub fn len(&self) -> usize {
        self.len * 2
    }
}
`,
	})
	replay(t, dir, []string{"-lang", "rust", "-rustc", rc},
		"oracle (rustc)",
		"in place, tree unchanged                2      2      0      0      0      0      0",
		"in place, tree changed                  1      1      0      0      0      0      0",
		"gone                                    1      1  (not said gone: followed 0",
	)
}

// TestReplayLines replays line ranges and files against C git's diff: an
// entry of a table shifted by lines inserted above it while a copy of it
// stays below, a line of a raw string edited, a file renamed with an edit,
// one deleted.
func TestReplayLines(t *testing.T) {
	entry := "\t{\n\t\tname: \"x\",\n\t\twant: 1,\n\t},\n"
	table := func(top string) string {
		return "package p\n\nvar tests = []struct {\n\tname string\n\twant int\n}{\n" + top + entry + entry + "}\n"
	}
	help := func(line string) string {
		return "package p\n\nconst usage = `\nDownload an artifact.\n" + line + "\nThe command requires a path.\n`\n"
	}
	body := "package p\n\nfunc Run() int {\n\ta := 1\n\tb := 2\n\tc := 3\n\td := 4\n\treturn a + b + c + d\n}\n"
	dir := history(t, map[string]string{
		"table.go": table(""), "help.go": help("* a file path, or"), "run.go": body, "gone.txt": "one\ntwo\n",
	}, map[string]string{
		"table.go": table("\t{\n\t\tname: \"y\",\n\t},\n"), "help.go": help("* a path to a file, or"),
		"run.go": "", "cmd/run.go": strings.Replace(body, "d := 4", "d := 5", 1), "gone.txt": "",
	})
	// Of the ranges kept, one is a line "\t{" of which the file holds
	// copies: git's diff and lore's pair different ones (elsewh).
	replay(t, dir, []string{"-lang", "lines"},
		"lines the diff leaves alone            15     14      0      0      1      0      0",
		"lines the diff touches                  9      9      0      0      0      0      0",
		"file, no hunk (renamed, mode)           0",
		"file with hunks                         3      3      0      0      0      0      0",
		"file deleted                            1      1  (not said gone: followed 0",
	)
}

// TestKeptAt maps ranges through hunks as git prints them (-U0).
func TestKeptAt(t *testing.T) {
	ps := parsePatches([]byte(`diff --git a/a.go b/a.go
index 1..2 100644
--- a/a.go
+++ b/a.go
@@ -3,0 +4,2 @@ func f() {
+x
+y
@@ -10,2 +12 @@
--- a removed line that looks like a header
-z
+w
diff --git a/old name.txt b/new name.txt
similarity index 100%
rename from old name.txt
rename to new name.txt
diff --git a/img.png b/img.png
Binary files a/img.png and b/img.png differ
`))
	if len(ps) != 3 || ps[0].old != "a.go" || ps[0].new != "a.go" || len(ps[0].hunks) != 2 ||
		ps[1].old != "old name.txt" || ps[1].new != "new name.txt" || len(ps[1].hunks) != 0 || !ps[2].binary {
		t.Fatalf("patches %+v", ps)
	}
	for _, c := range []struct {
		s, e, ns, ne int
		kept         bool
	}{
		{1, 3, 1, 3, true},   // before the insertion after line 3
		{3, 4, 0, 0, false},  // lines inserted between 3 and 4
		{4, 9, 6, 11, true},  // shifted by the two inserted lines
		{9, 10, 0, 0, false}, // line 10 replaced
		{12, 14, 13, 15, true},
	} {
		ns, ne, kept := keptAt(ps[0].hunks, c.s, c.e)
		if kept != c.kept || kept && (ns != c.ns || ne != c.ne) {
			t.Errorf("L%d-L%d: %d-%d %v, want %d-%d %v", c.s, c.e, ns, ne, kept, c.ns, c.ne, c.kept)
		}
	}
}
