package udiff

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedShape(t *testing.T) {
	a := "---\nid: x\nanchors:\n  - symbol: a.go::F\n    hash: sha256:1\ncreated: t\nupdated: t\n---\nBody.\n"
	b := strings.Replace(strings.Replace(a, "a.go::F", "b.go::F", 1), "updated: t", "updated: u", 1)
	want := `--- a/x.md
+++ b/x.md
@@ -1,9 +1,9 @@
 ---
 id: x
 anchors:
-  - symbol: a.go::F
+  - symbol: b.go::F
     hash: sha256:1
 created: t
-updated: t
+updated: u
 ---
 Body.
`
	if got := Unified("a/x.md", "b/x.md", a, b); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := Unified("a", "b", a, a); got != "" {
		t.Errorf("equal texts: %q", got)
	}
}

// git apply is the oracle: every diff must apply and give the new text.
func TestUnifiedAppliesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	rng := rand.New(rand.NewSource(1))
	words := []string{"alpha", "beta", "gamma", "delta", ""}
	text := func(n int) []string {
		var ls []string
		for range n {
			ls = append(ls, words[rng.Intn(len(words))]+fmt.Sprint(rng.Intn(4)))
		}
		return ls
	}
	join := func(ls []string, nl bool) string {
		s := strings.Join(ls, "\n")
		if nl && len(ls) > 0 {
			s += "\n"
		}
		return s
	}
	dir := t.TempDir()
	cases := [][2]string{{"", "a\n"}, {"a\n", ""}, {"a", "b"}, {"a\nb\n", "a\nb"}}
	for range 60 {
		a := text(rng.Intn(40))
		b := append([]string(nil), a...)
		for range rng.Intn(6) + 1 {
			switch i := rng.Intn(len(b) + 1); rng.Intn(3) {
			case 0:
				b = append(b[:i], append([]string{"new" + fmt.Sprint(rng.Intn(9))}, b[i:]...)...)
			case 1:
				if i < len(b) {
					b = append(b[:i], b[i+1:]...)
				}
			default:
				if i < len(b) {
					b[i] = "changed"
				}
			}
		}
		cases = append(cases, [2]string{join(a, rng.Intn(5) > 0), join(b, rng.Intn(5) > 0)})
	}
	for n, c := range cases {
		if c[0] == c[1] {
			continue
		}
		f := filepath.Join(dir, "f.txt")
		if err := os.WriteFile(f, []byte(c[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		if c[0] == "" || c[1] == "" {
			continue // creating or emptying a file needs git's own headers
		}
		patch := Unified("a/f.txt", "b/f.txt", c[0], c[1])
		cmd := exec.Command("git", "apply", "-")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(patch)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: git apply: %v: %s\npatch:\n%s", n, err, out, patch)
		}
		got, _ := os.ReadFile(f)
		if string(got) != c[1] {
			t.Fatalf("case %d: applied %q, want %q\npatch:\n%s", n, got, c[1], patch)
		}
	}
}
