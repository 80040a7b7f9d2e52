package analyzer

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"reflect"
	"testing"

	"github.com/lorehq/lore/source"
)

// TestSources indexes one repository through the working tree, git's
// index, a commit's tree and an editor overlay: the same code path, and
// the same symbols wherever the content is the same.
func TestSources(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":     "module m\n",
		"a.go":       "package m\n\n// A does a.\nfunc A() int { return 1 }\n",
		"pkg/b.py":   "class B:\n    def run(self):\n        pass\n",
		".gitignore": "ignored.go\n",
		"ignored.go": "package m\n\nfunc Ignored() {}\n",
	})
	git := func(args ...string) { gitIn(t, dir, args...) }
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "one")
	// stage a signature change, then edit the working tree again
	writeFiles(t, dir, map[string]string{"a.go": "package m\n\n// A does a.\nfunc A(x int) int { return x }\n"})
	git("add", "a.go")
	writeFiles(t, dir, map[string]string{"a.go": "package m\n\n// A does a.\nfunc A(x int) int { return x + 1 }\n"})

	dump := func(fsys fs.FS) map[string]Symbol {
		t.Helper()
		store := openStore(t)
		if _, err := Update(context.Background(), store, fsys, Options{}); err != nil {
			t.Fatal(err)
		}
		out := map[string]Symbol{}
		AllSymbols(store, func(s Symbol) error { out[s.FQName] = s; return nil })
		return out
	}
	head, err := source.GitTree(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	staged, err := source.GitIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	work := source.Dir(dir)
	editor := source.Overlay(work, map[string][]byte{"pkg/b.py": []byte("class B:\n    def run(self):\n        return 1\n")})

	h, s, w, e := dump(head), dump(staged), dump(work), dump(editor)
	var names []string
	for fq := range w {
		names = append(names, fq)
	}
	if want := []string{"a.go::A", "pkg/b.py::B", "pkg/b.py::B::run"}; !sameElems(names, want) {
		t.Fatalf("working tree symbols %v, want %v (ignored.go must be skipped)", names, want)
	}
	// The index keeps hashes only (see Symbol).
	if h["a.go::A"].Hash == s["a.go::A"].Hash || s["a.go::A"].Hash == w["a.go::A"].Hash {
		t.Error("staged and working-tree changes not seen")
	}
	if w["a.go::A"].Shape != "" || w["a.go::A"].Sig != "" {
		t.Error("the index keeps shapes")
	}
	if !reflect.DeepEqual(h["pkg/b.py::B::run"], w["pkg/b.py::B::run"]) {
		t.Error("unchanged file differs between HEAD and the working tree")
	}
	if e["pkg/b.py::B::run"].Hash == w["pkg/b.py::B::run"].Hash || e["a.go::A"] != w["a.go::A"] {
		t.Error("overlay must change exactly the edited buffer")
	}
}

func sameElems(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

// gitIn runs git in dir, as a fixed author, without the user's settings.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
