package source

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func runGit(t *testing.T, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}

// gitObjects returns every object of the repository at dir as git reads
// it: type and content by id.
func gitObjects(t *testing.T, dir string) map[plumbing.Hash]cachedObject {
	t.Helper()
	ids := runGit(t, dir, nil, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
	out := runGit(t, dir, ids, "cat-file", "--batch")
	objs := map[plumbing.Hash]cachedObject{}
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		n, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("cat-file said %q", line)
		}
		data := make([]byte, n+1)
		if _, err := io.ReadFull(r, data); err != nil {
			t.Fatal(err)
		}
		typ, err := plumbing.ParseObjectType(f[1])
		if err != nil {
			t.Fatal(err)
		}
		objs[plumbing.NewHash(f[0])] = cachedObject{typ, data[:n]}
	}
	return objs
}

// Every object reads as git reads it, whatever way git stores it: one
// pack from fast-import, loose objects, packs with offset or reference
// deltas, several packs, and objects borrowed through alternates.
func TestObjectsMatchGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	runGit(t, dir, nil, "init", "-q", "-b", "main")
	commit := func(i int) {
		// Files that grow a little each time, so that packs hold deltas.
		for j := range 4 {
			p := filepath.Join(dir, fmt.Sprintf("d%d", j%2), fmt.Sprintf("f%d.txt", j))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for k := range 40 + i {
				fmt.Fprintf(&b, "line %d of file %d, written in commit %d\n", k, j, min(k, i))
			}
			if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		runGit(t, dir, nil, "add", ".")
		runGit(t, dir, nil, "commit", "-q", "-m", fmt.Sprint("commit ", i))
	}
	check := func(name, dir string) {
		t.Helper()
		want := gitObjects(t, dir)
		r, err := OpenRepo(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for id, w := range want {
			typ, b, err := r.object(id, plumbing.AnyObject)
			if err != nil || typ != w.typ || !bytes.Equal(b, w.data) {
				t.Fatalf("%s: object %s: %v %d bytes, %v; git: %v %d bytes", name, id, typ, len(b), err, w.typ, len(w.data))
			}
			r.mu.Lock()
			size, err := r.objs.size(id)
			r.mu.Unlock()
			if err != nil || size != int64(len(w.data)) {
				t.Errorf("%s: size of %s = %d, %v; want %d", name, id, size, err, len(w.data))
			}
		}
	}
	for i := range 30 {
		commit(i)
	}
	check("loose", dir)
	runGit(t, dir, nil, "gc", "-q")
	check("offset deltas", dir)
	runGit(t, dir, nil, "-c", "repack.useDeltaBaseOffset=false", "repack", "-q", "-a", "-d", "-f")
	check("reference deltas", dir)
	for i := 30; i < 40; i++ {
		commit(i)
	}
	runGit(t, dir, nil, "repack", "-q", "-d")
	commit(40)
	if packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack")); len(packs) < 2 {
		t.Fatalf("%d packs, want several", len(packs))
	}
	check("several packs and loose objects", dir)

	shared := filepath.Join(t.TempDir(), "shared")
	runGit(t, dir, nil, "clone", "-q", "--shared", dir, shared)
	r, err := OpenRepo(shared)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	if o, _ := r.objects(); len(o.packs) == 0 {
		t.Error("alternates: packs not mapped")
	}
	r.mu.Unlock()
	r.Close()
	check("alternates", shared)

	// The commit-graph file, once written, gives the walk its commits.
	runGit(t, dir, nil, "commit-graph", "write", "--reachable")
	r, err = OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := r.History()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.cg == nil {
		t.Fatal("commit-graph file not picked up")
	}
	head, err := h.Head()
	if err != nil {
		t.Fatal(err)
	}
	fromGraph, err := h.Commit(head)
	if err != nil {
		t.Fatal(err)
	}
	full, err := h.CommitFull(head)
	if err != nil {
		t.Fatal(err)
	}
	if fromGraph.Tree != full.Tree || fromGraph.Time != full.Time || len(fromGraph.Parents) != 1 || fromGraph.Parents[0] != full.Parents[0] {
		t.Errorf("commit-graph %+v, object %+v", fromGraph, full)
	}
	if full.Author != "<t@t>" {
		t.Errorf("author %q", full.Author)
	}
}

// A closed repository reads nothing, and says so.
func TestClosedRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	runGit(t, dir, nil, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, nil, "add", ".")
	runGit(t, dir, nil, "commit", "-q", "-m", "one")
	r, err := OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.Tree(head)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	if _, err := fs.ReadFile(tree, "a"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("read after close: %v", err)
	}
}
