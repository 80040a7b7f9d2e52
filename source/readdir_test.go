//go:build unix

package source

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// package os is the oracle for readDir: names, order, types, modes, sizes
// and times agree for files, directories, symlinks and a named pipe.
func TestReadDirMatchesOS(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("bee"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.Mkdir(filepath.Join(dir, "sub"), 0o750)
	os.Symlink("b.txt", filepath.Join(dir, "link"))
	syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600)
	os.Chmod(filepath.Join(dir, "a.sh"), 0o755|os.ModeSetuid)
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, os has %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		gi, err1 := g.Info()
		wi, err2 := w.Info()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if g.Name() != w.Name() || g.Type() != w.Type() || g.IsDir() != w.IsDir() ||
			gi.Mode() != wi.Mode() || gi.Size() != wi.Size() || !gi.ModTime().Equal(wi.ModTime()) {
			t.Errorf("%s: got %v %v %d %v, os %v %v %d %v", w.Name(), g.Type(), gi.Mode(), gi.Size(), gi.ModTime(), w.Type(), wi.Mode(), wi.Size(), wi.ModTime())
		}
	}
}
