package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sample of the main oracle is read as the Java dataset "main", with
// RefactoringMiner's descriptions parsed as the TSE dataset's are, and
// only -sample heldout replays it.
func TestLoadMainSample(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "data.json")
	data := `[{"id": 1, "repository": "https://github.com/acme/alpha.git", "sha1": "aaaa", "refactorings": [
  {"type": "Rename Method", "description": "Rename Method public get(key String, n int) : T renamed to public fetch(key String, n int) : T in class p.Store", "validation": "TP"},
  {"type": "Move Class", "description": "Move Class p.Old moved to q.Old", "validation": "FP"}]}]`
	if err := os.WriteFile(main, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	// Samples given twice, or overlapping, are read as one: each commit
	// once.
	commits, err := loadOracle(dir, []string{main, main})
	if err != nil {
		t.Fatal(err)
	}
	if len(commits) != 1 {
		t.Fatalf("loaded %d commits, want 1", len(commits))
	}
	c := commits[0]
	if c.Dataset != "main" || c.Lang != "java" || c.Project != "alpha" || c.SHA != "aaaa" || len(c.Refs) != 2 {
		t.Fatalf("loaded %+v", c)
	}
	r := c.Refs[0]
	if !r.Valid || r.Before.String() != "p.Store.get(String,int)" || r.After.String() != "p.Store.fetch(String,int)" {
		t.Errorf("Rename Method read as valid=%v %s → %s", r.Valid, r.Before, r.After)
	}
	if c.Refs[1].Valid {
		t.Error("an FP counts as valid")
	}

	// Only -sample heldout picks it, and it says so when there is none.
	var out, log strings.Builder
	err = run(t.Context(), []string{"-oracle", dir, "-main", main, "-sample", "report", "-commits", "zzzz"}, &out, &log)
	if err != nil || strings.Contains(out.String(), "main ") {
		t.Errorf("-sample report replayed the held-out sample (%v):\n%s", err, out.String())
	}
	err = run(t.Context(), []string{"-oracle", dir, "-main", main, "-sample", "heldout", "-commits", "zzzz"}, &out, &log)
	if err == nil || !strings.Contains(err.Error(), "no commits in") {
		t.Errorf("-sample heldout with no commit: %v", err)
	}
	err = run(t.Context(), []string{"-oracle", dir, "-main", filepath.Join(dir, "absent.json"), "-sample", "heldout"}, &out, &log)
	if err == nil || !strings.Contains(err.Error(), "-main") {
		t.Errorf("-main naming no file: %v", err)
	}
}
