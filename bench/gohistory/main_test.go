package main

import (
	"bytes"
	"context"
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
	for _, p := range same {
		if tree(p[0]) != tree(p[1]) {
			t.Errorf("%q and %q: want one tree", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"func f() int { return 1 }", "func f() int { return 2 }"},
		{"func f() string { return \"a\" }", "func f() string { return `a` }"},
		{"func f(a ...int) { g(a) }", "func f(a ...int) { g(a...) }"},
		{"func f() (n int) { g(func() (m int) { return }); return }", "func f() (n int) { g(func() (m int) { return n }); return n }"},
		{"func f() int64 { var x int64 = 1; return x }", "func f() int64 { x := 1; return int64(x) }"},
		{"func f(a, b int) {}", "func f(a int, b int64) {}"},
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

// TestReplay replays a real two-commit history: a function moved to
// another file of its package, one edited, one deleted, and one whose
// number was respelled (0644 to 0o644, as gofumpt does) beside others
// left alone.
func TestReplay(t *testing.T) {
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
	write := func(files map[string]string) {
		t.Helper()
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
	}
	gitDo("init", "-q", "-b", "main")
	write(map[string]string{
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
	})
	gitDo("add", "-A")
	gitDo("commit", "-q", "-m", "one")
	write(map[string]string{
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
	gitDo("add", "-A")
	gitDo("commit", "-q", "-m", "two")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"-repo", dir, "-commits", "1"}, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	t.Log(out.String())
	if err := run(context.Background(), []string{"-repo", dir, "-rev", "nosuch"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "-rev nosuch: not a commit") {
		t.Errorf("a revision that is not there: %v", err)
	}
	for _, want := range []string{
		"in place, tree unchanged                3      3      0      0      0      0      0",
		"in place, tree changed                  1      1      0      0      0      0      0",
		"moved in its package, unchanged         1      1      0      0      0      0      0",
		"gone from its package                   1      1  (not said gone: followed 0",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
