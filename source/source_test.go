package source_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/source"
)

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func files(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		out[p] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// repo makes a git repository with two commits, a staged change and an
// unstaged change.
func repo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.txt", "one\n")
	write(t, dir, "d/b.txt", "bee\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "first")
	write(t, dir, "a.txt", "two\n")
	git(t, dir, "commit", "-q", "-am", "second")
	write(t, dir, "a.txt", "staged\n")
	write(t, dir, "d/new.txt", "new\n")
	git(t, dir, "add", ".")
	write(t, dir, "a.txt", "worktree\n")
	return dir
}

func TestGitSources(t *testing.T) {
	dir := repo(t)
	idx, err := source.GitIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := files(t, idx), map[string]string{"a.txt": "staged\n", "d/b.txt": "bee\n", "d/new.txt": "new\n"}; !reflect.DeepEqual(got, want) {
		t.Errorf("GitIndex = %v, want %v", got, want)
	}
	if err := fstest.TestFS(idx, "a.txt", "d/b.txt", "d/new.txt"); err != nil {
		t.Error(err)
	}
	for rev, want := range map[string]string{"HEAD": "two\n", "HEAD~1": "one\n", "main": "two\n"} {
		tree, err := source.GitTree(dir, rev)
		if err != nil {
			t.Fatal(err)
		}
		if got := files(t, tree); got["a.txt"] != want || got["d/b.txt"] != "bee\n" || len(got) != 2 {
			t.Errorf("GitTree(%s) = %v", rev, got)
		}
	}
	if _, err := source.GitTree(dir, "nope"); err == nil {
		t.Error("GitTree of an unknown revision should fail")
	}
	// from a subdirectory of the work tree
	if _, err := source.GitIndex(filepath.Join(dir, "d")); err != nil {
		t.Errorf("GitIndex from a subdirectory: %v", err)
	}
}

func TestDir(t *testing.T) {
	dir := repo(t)
	outside := t.TempDir()
	write(t, outside, "secret.txt", "secret\n")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "escape.txt")); err != nil {
		t.Skip("no symlinks:", err)
	}
	os.Symlink("a.txt", filepath.Join(dir, "inside.txt"))
	fsys := source.Dir(dir)
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{"a.txt", "d", "escape.txt", "inside.txt"}; !reflect.DeepEqual(names, want) {
		t.Errorf("ReadDir = %v, want %v (.git must not be listed)", names, want)
	}
	if _, err := fs.ReadFile(fsys, "escape.txt"); !errors.Is(err, source.ErrEscape) {
		t.Errorf("reading a symlink out of the repo: err = %v, want ErrEscape", err)
	}
	if b, err := fs.ReadFile(fsys, "inside.txt"); err != nil || string(b) != "worktree\n" {
		t.Errorf("symlink inside: %q %v", b, err)
	}
	if _, err := fs.ReadFile(fsys, "../x"); err == nil {
		t.Error("paths leaving the root must be invalid")
	}
	if _, err := fs.ReadFile(fsys, ".git/HEAD"); err != nil {
		t.Errorf(".git files can be opened by name: %v", err)
	}
	f, err := fsys.Open(".")
	if err != nil {
		t.Fatal(err)
	}
	des, _ := f.(fs.ReadDirFile).ReadDir(-1)
	f.Close()
	for _, d := range des {
		if d.Name() == ".git" {
			t.Error("Open(.).ReadDir lists .git")
		}
	}
}

// TestDirLinkedDirectories checks paths with a symbolic link above the
// leaf: a linked directory inside the repository is followed, one leading
// out of it is refused, and nested plain paths are read without links.
func TestDirLinkedDirectories(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write(t, outside, "sub/secret.txt", "secret\n")
	write(t, dir, "real/deep/x.txt", "x\n")
	if err := os.Symlink(filepath.Join(outside, "sub"), filepath.Join(dir, "out")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "in")); err != nil {
		t.Fatal(err)
	}
	fsys := source.Dir(dir)
	for range 2 { // the second round goes through the cache of real directories
		if b, err := fs.ReadFile(fsys, "real/deep/x.txt"); err != nil || string(b) != "x\n" {
			t.Errorf("plain nested path: %q %v", b, err)
		}
		if b, err := fs.ReadFile(fsys, "in/deep/x.txt"); err != nil || string(b) != "x\n" {
			t.Errorf("through a linked directory inside: %q %v", b, err)
		}
		if _, err := fs.ReadFile(fsys, "out/secret.txt"); !errors.Is(err, source.ErrEscape) {
			t.Errorf("through a linked directory outside: err = %v, want ErrEscape", err)
		}
		if _, err := fs.Stat(fsys, "out"); !errors.Is(err, source.ErrEscape) {
			t.Errorf("stat of a linked directory outside: err = %v, want ErrEscape", err)
		}
		if _, err := fs.ReadFile(fsys, "real/missing.txt"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing file: err = %v, want ErrNotExist", err)
		}
		// Listings: a directory is opened without following a link in
		// its own place; a link there is resolved like any other path.
		for _, d := range []string{"real/deep", "in/deep", "in"} {
			ents, err := fs.ReadDir(fsys, d)
			if err != nil || len(ents) == 0 {
				t.Errorf("ReadDir(%s) = %v, %v", d, ents, err)
			}
		}
		if _, err := fs.ReadDir(fsys, "out"); !errors.Is(err, source.ErrEscape) {
			t.Errorf("ReadDir of a linked directory outside: err = %v, want ErrEscape", err)
		}
		if _, err := fs.ReadDir(fsys, "real/missing"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadDir of a missing directory: err = %v, want ErrNotExist", err)
		}
		if _, err := fs.ReadDir(fsys, "real/deep/x.txt"); err == nil {
			t.Error("ReadDir of a file: no error")
		}
	}
}

func TestOverlay(t *testing.T) {
	base, err := txtar.FS(txtar.Parse([]byte("-- a.go --\npackage a\n-- d/b.go --\npackage b\n")))
	if err != nil {
		t.Fatal(err)
	}
	o := source.Overlay(base, map[string][]byte{"a.go": []byte("package edited\n"), "d/new.go": []byte("package n\n"), "e/f/g.go": []byte("package g\n")})
	got := files(t, o)
	want := map[string]string{"a.go": "package edited\n", "d/b.go": "package b\n", "d/new.go": "package n\n", "e/f/g.go": "package g\n"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Overlay = %v, want %v", got, want)
	}
	var ps []string
	for p := range want {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	if err := fstest.TestFS(o, ps...); err != nil {
		t.Error(err)
	}
}

// C git is the oracle for commit trees: every path, mode and content
// GitTree shows must match `git ls-tree -r` of the same revision, for
// branches, annotated tags, revision expressions and linked worktrees.
func TestGitTreeMatchesGit(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.txt", "one\n")
	write(t, dir, "deep/er/b.go", "package er\n")
	write(t, dir, "run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "one")
	git(t, dir, "tag", "-a", "-m", "release", "v1")
	write(t, dir, "a.txt", "two\n")
	git(t, dir, "commit", "-qam", "two")
	git(t, dir, "worktree", "add", "-q", filepath.Join(dir, "wt"), "v1")

	oracle := func(rev string) map[string]string {
		cmd := exec.Command("git", "ls-tree", "-r", rev)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git ls-tree %s: %v", rev, err)
		}
		m := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			meta, name, _ := strings.Cut(line, "\t")
			f := strings.Fields(meta)
			blob := exec.Command("git", "cat-file", "blob", f[2])
			blob.Dir = dir
			b, err := blob.Output()
			if err != nil {
				t.Fatal(err)
			}
			m[name] = f[0] + " " + string(b)
		}
		return m
	}
	modeOf := func(m fs.FileMode) string {
		switch {
		case m&fs.ModeSymlink != 0:
			return "120000"
		case m&0o111 != 0:
			return "100755"
		}
		return "100644"
	}
	agree := 0
	for _, c := range []struct{ from, rev, oracle string }{
		{dir, "main", "main"}, {dir, "v1", "v1"}, {dir, "HEAD~1", "HEAD~1"},
		{dir, "refs/tags/v1", "v1"}, {filepath.Join(dir, "deep", "er"), "HEAD", "HEAD"},
		{filepath.Join(dir, "wt"), "HEAD", "v1"},
	} {
		tree, err := source.GitTree(c.from, c.rev)
		if err != nil {
			t.Fatalf("GitTree(%s): %v", c.rev, err)
		}
		got := map[string]string{}
		err = fs.WalkDir(tree, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			b, err := fs.ReadFile(tree, p) // a symlink's blob is its target
			if err != nil {
				return err
			}
			got[p] = modeOf(info.Mode()) + " " + string(b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := oracle(c.oracle); !reflect.DeepEqual(got, want) {
			t.Errorf("GitTree(%s) from %s:\n got %q\nwant %q", c.rev, c.from, got, want)
			continue
		}
		agree++
	}
	t.Logf("agreement with git ls-tree: %d of 6 revisions", agree)
	for _, bad := range []string{"nope", "../../etc/passwd", "-h", ""} {
		if _, err := source.GitTree(dir, bad); err == nil {
			t.Errorf("GitTree(%q) should fail", bad)
		}
	}
}

// TestDirAppendFile checks the buffer-reusing read the analyzer uses: it
// appends to what dst holds, grows dst for large files, refuses links out
// of the repository, follows links inside it, and neither blocks on a
// named pipe (TestAppendFileFifo) nor reads a directory.
func TestDirAppendFile(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write(t, outside, "secret.txt", "secret\n")
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	write(t, dir, "d/big.txt", big)
	write(t, dir, "d/small.txt", "small\n")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "d/escape.txt")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink("small.txt", filepath.Join(dir, "d/inside.txt")); err != nil {
		t.Fatal(err)
	}
	fsys := source.Dir(dir).(interface {
		AppendFile(dst []byte, name string) ([]byte, error)
	})
	for range 2 { // the second round goes through the cache of real directories
		b, err := fsys.AppendFile([]byte("head:"), "d/small.txt")
		if err != nil || string(b) != "head:small\n" {
			t.Errorf("AppendFile(small) = %q, %v", b, err)
		}
		b, err = fsys.AppendFile(make([]byte, 0, 16), "d/big.txt")
		if err != nil || string(b) != big {
			t.Errorf("AppendFile(big): %d bytes, %v; want %d bytes", len(b), err, len(big))
		}
		if b, err := fsys.AppendFile(nil, "d/inside.txt"); err != nil || string(b) != "small\n" {
			t.Errorf("AppendFile(link inside) = %q, %v", b, err)
		}
		dst := []byte("keep")
		if b, err := fsys.AppendFile(dst, "d/escape.txt"); !errors.Is(err, source.ErrEscape) || string(b) != "keep" {
			t.Errorf("AppendFile(link outside) = %q, %v; want %q, ErrEscape", b, err, "keep")
		}
		if _, err := fsys.AppendFile(nil, "d/missing.txt"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("AppendFile(missing): err = %v, want ErrNotExist", err)
		}
		if _, err := fsys.AppendFile(nil, "d"); err == nil {
			t.Error("AppendFile of a directory: no error")
		}
		if _, err := fsys.AppendFile(nil, "../x"); err == nil {
			t.Error("AppendFile(../x): no error")
		}
	}
}

// A workspace in a subdirectory of its repository reads git's index and
// trees through fs.Sub, which must keep them complete file systems.
func TestSubOfGitSources(t *testing.T) {
	dir := repo(t)
	idx, err := source.GitIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := source.GitTree(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for name, fsys := range map[string]fs.FS{"index": idx, "tree": tree} {
		sub, err := fs.Sub(fsys, "d")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"b.txt"}
		if name == "index" {
			want = append(want, "new.txt")
		}
		if err := fstest.TestFS(sub, want...); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if b, err := fs.ReadFile(sub, "b.txt"); err != nil || string(b) != "bee\n" {
			t.Errorf("%s: b.txt = %q, %v", name, b, err)
		}
		if _, err := fs.Stat(sub, "a.txt"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: a.txt outside the subdirectory: %v", name, err)
		}
	}
}

func TestShallow(t *testing.T) {
	dir := repo(t)
	r, err := source.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Shallow() {
		t.Error("a full repository reads as shallow")
	}
	clone := filepath.Join(t.TempDir(), "c")
	git(t, dir, "clone", "-q", "--depth", "1", "file://"+dir, clone)
	if r, err = source.OpenRepo(clone); err != nil {
		t.Fatal(err)
	}
	if !r.Shallow() {
		t.Error("a --depth 1 clone does not read as shallow")
	}
	if root, _ := filepath.EvalSymlinks(r.Root()); root != must(filepath.EvalSymlinks(clone)) {
		t.Errorf("Root = %s, want %s", r.Root(), clone)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
