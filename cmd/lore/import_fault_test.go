package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFaultImportKilled kills lore graph import with SIGKILL while it
// reads its input and while it replaces the empty store's tables: the next
// command runs (rebuilding the store the second time), no spilled run or
// marker is left anywhere under .lore, and the import then succeeds.
func TestFaultImportKilled(t *testing.T) {
	lore := loreBinary(t)
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	if r := runLore(lore, dir, 0, "init"); r.code != 0 {
		t.Fatalf("init: %s", r.stderr)
	}
	// Enough edges for the stream writer (graph's defaultStreamMin).
	in := filepath.Join(t.TempDir(), "graph.json")
	var b bytes.Buffer
	b.WriteString(`{"edges":[`)
	const edges = 120_000
	for i := range edges {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"type":"IMPORTS","from":"file:src/f%d.go","to":"file:src/f%d.go"}`, i%7001, (i*13)%6997+7001)
	}
	b.WriteString("]}\n")
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, ".lore", "db")
	for _, stage := range []string{"reading", "streaming"} {
		os.RemoveAll(db)
		cmd := loreCmd(lore, dir, 0, "graph", "import", in)
		cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killed := false
		for !killed && time.Since(start) < hangBound {
			markers, _ := filepath.Glob(filepath.Join(db, "lore-loading-*"))
			switch {
			case stage == "streaming" && len(markers) > 0,
				stage == "reading" && len(markers) == 0 && time.Since(start) > 150*time.Millisecond:
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
			}
			if cmd.ProcessState != nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		r := finish(cmd, start)
		if r.code != -1 {
			t.Logf("%s: the import ended (%d) before it was killed: %s", stage, r.code, r.stderr)
		}
		if left := loadLeftovers(t, filepath.Join(dir, ".lore")); len(left) > 0 && stage == "reading" {
			t.Fatalf("%s: left behind: %v", stage, left)
		}
		st := runLore(lore, dir, 0, "graph", "stats")
		if st.code != 0 {
			t.Fatalf("%s: graph stats after the kill: %d %s", stage, st.code, st.stderr)
		}
		if left := loadLeftovers(t, filepath.Join(dir, ".lore")); len(left) > 0 {
			t.Fatalf("%s: left behind after the next command: %v", stage, left)
		}
		if stage == "streaming" && r.code == -1 && !strings.Contains(st.stderr, "rebuilding") {
			t.Errorf("%s: the next command did not say it rebuilds the store: %s", stage, st.stderr)
		}
		t.Logf("%s: killed after %v; next command: %s", stage, r.took.Round(time.Millisecond), strings.TrimSpace(st.stderr))
	}
	if r := runLore(lore, dir, 0, "graph", "import", in); r.code != 0 {
		t.Fatalf("import after the kills: %d %s", r.code, r.stderr)
	}
	st := runLore(lore, dir, 0, "graph", "stats")
	if st.code != 0 || !strings.Contains(st.stdout, fmt.Sprint(edges)) {
		t.Fatalf("graph stats after the import: %d %s %s", st.code, st.stdout, st.stderr)
	}
}

// loadLeftovers lists what a load leaves behind only when killed: spilled
// runs and markers, anywhere under dir (a store set aside included), the
// marker of a store set aside apart.
func loadLeftovers(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		inDB := filepath.Base(filepath.Dir(p)) == "db"
		if strings.HasPrefix(name, "lore-run-") || inDB && (strings.HasPrefix(name, "lore-loading-") || strings.HasPrefix(name, "lore-marking-")) {
			found = append(found, p)
		}
		return nil
	})
	return found
}
