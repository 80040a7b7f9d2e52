package testrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lorehq/lore"
)

// New writes files (repository-relative slash paths to their text) into a
// new temporary directory, commits them on branch main of a new git
// repository, makes a lore workspace there and returns the directory.
// The commit does not depend on the user's or the system's git settings.
func New(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		Write(t, dir, name, text)
	}
	cmd := exec.Command("sh", "-c", "git init -q -b main && git add -A && git commit -qm initial")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.invalid")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git: %v\n%s", err, out)
	}
	if _, err := lore.Init(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Write writes text to the file name (a slash path) under dir, making its
// directory.
func Write(t testing.TB, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
