package graph

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStartWriteback checks that the hint takes what it cannot use in
// its stride: no directory, a directory named like a value log, a link.
func TestStartWriteback(t *testing.T) {
	dir := t.TempDir()
	startWriteback(filepath.Join(dir, "missing"))
	if err := os.WriteFile(filepath.Join(dir, "000001.vlog"), []byte("dirty"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "000002.vlog"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/null", filepath.Join(dir, "000003.vlog")); err != nil {
		t.Fatal(err)
	}
	startWriteback(dir)
	b, err := os.ReadFile(filepath.Join(dir, "000001.vlog"))
	if err != nil || string(b) != "dirty" {
		t.Fatalf("value log reads %q, %v", b, err)
	}
}
