package source

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

// lsFiles renders entries as `git ls-files -s` does.
func lsFiles(es []indexEntry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%06o %s %d\t%s\n", e.mode, hex.EncodeToString(e.hash[:]), e.stage, e.name)
	}
	return b.String()
}

// C git is the oracle: every entry parseIndex reads from an index in each
// format version matches `git ls-files -s`, including conflict stages,
// intent-to-add entries, symlinks, executables and long and non-ASCII
// names.
func TestParseIndexMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main")
	w := func(name, body string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w("a.txt", "base\n")
	w("deep/er/still/deeper/file_with_a_rather_long_name_to_pad.go", "package x\n")
	w("naïve/日本語.txt", "x\n")
	w("run.sh", "#!/bin/sh\n")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o755)
	os.Symlink("a.txt", filepath.Join(dir, "link"))
	for i := range 40 {
		w(fmt.Sprintf("pkg/f%02d.go", i), "package pkg\n")
	}
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-qm", "base")
	gitIn(t, dir, "checkout", "-qb", "side")
	w("a.txt", "side\n")
	gitIn(t, dir, "commit", "-qam", "side")
	gitIn(t, dir, "checkout", "-q", "main")
	w("a.txt", "main\n")
	gitIn(t, dir, "commit", "-qam", "main")
	exec.Command("git", "-C", dir, "merge", "-q", "side").Run() // conflicts on a.txt
	w("new.txt", "intent\n")
	gitIn(t, dir, "add", "-N", "new.txt")

	total, agree := 0, 0
	for _, version := range []string{"2", "3", "4"} {
		gitIn(t, dir, "update-index", "--index-version", version)
		data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		es, err := parseIndex(data)
		if err != nil {
			t.Fatalf("version %s: %v", version, err)
		}
		want := gitIn(t, dir, "-c", "core.quotePath=false", "ls-files", "-s")
		total += strings.Count(want, "\n")
		if got := lsFiles(es); got != want {
			t.Errorf("version %s:\n got %s\nwant %s", version, got, want)
			continue
		}
		agree += len(es)
		staged := 0
		for _, e := range es {
			if e.stage != 0 {
				staged++
			}
			if e.name == "new.txt" && !e.intentToAdd {
				t.Errorf("version %s: new.txt not marked intent-to-add", version)
			}
		}
		if staged != 3 {
			t.Errorf("version %s: %d conflict entries, want 3", version, staged)
		}
	}
	t.Logf("agreement with git ls-files -s: %d of %d entries (index versions 2, 3, 4)", agree, total)
}

// The index of the repository lore is developed in, when the tests run in
// a clone: a real index of a real project.
func TestParseIndexOfThisRepository(t *testing.T) {
	out, err := exec.Command("git", "rev-parse", "--git-dir").Output()
	if err != nil {
		t.Skip("not in a git clone")
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "index"))
	if err != nil {
		t.Skip("no index:", err)
	}
	es, err := parseIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command("git", "-c", "core.quotePath=false", "ls-files", "-s", "--full-name", ":/").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := lsFiles(es); got != string(want) {
		t.Errorf("entries differ from git ls-files -s")
	}
	t.Logf("agreement with git ls-files -s on this repository: %d entries", len(es))
}

func TestParseIndexBadInput(t *testing.T) {
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o644)
	gitIn(t, dir, "add", "a")
	good, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	version := bytes.Clone(good)
	version[7] = 9
	huge := bytes.Clone(good)
	copy(huge[8:12], []byte{0x7f, 0xff, 0xff, 0xff})
	for name, data := range map[string][]byte{
		"empty": nil, "not an index": []byte("hello, this is not an index file at all"),
		"truncated": good[:len(good)/2], "version 9": version, "huge count": huge,
	} {
		if _, err := parseIndex(data); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	gitIn(t, dir, "update-index", "--split-index")
	split, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if _, err := parseIndex(split); err != errSplitIndex {
		t.Errorf("split index: %v, want %v", err, errSplitIndex)
	}
}

func FuzzParseIndex(f *testing.F) {
	if out, err := exec.Command("git", "rev-parse", "--git-dir").Output(); err == nil {
		if data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "index")); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseIndex(data) // must not panic or allocate without bound
	})
}

// A pre-commit hook of `git commit -a` or `git commit PATHS` sees the
// staged content in the temporary index git names in GIT_INDEX_FILE.
func TestIndexFollowsGitIndexFile(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("in the index\n"), 0o644)
	gitIn(t, dir, "add", "a.txt")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("in the temporary index\n"), 0o644)
	alt := filepath.Join(dir, ".git", "next-index.lock")
	cmd := exec.Command("git", "add", "a.txt")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GIT_INDEX_FILE="+alt)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for env, want := range map[string]string{"": "in the index\n", alt: "in the temporary index\n"} {
		t.Setenv("GIT_INDEX_FILE", env)
		idx, err := GitIndex(dir)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := fs.ReadFile(idx, "a.txt"); err != nil || string(b) != want {
			t.Errorf("GIT_INDEX_FILE=%q: a.txt = %q, %v; want %q", env, b, err, want)
		}
	}
}
