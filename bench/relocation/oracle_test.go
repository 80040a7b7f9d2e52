package main

import (
	"os"
	"os/exec"
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

// The purity study's sample (sampleResPurity.json) carries no validation
// and a tab after each type: its entries are read as validated, and only
// -sample purity replays them. A clone without the commit (its branch
// deleted before the clone was made) gives way to the snapshot.
func TestLoadPuritySample(t *testing.T) {
	dir := t.TempDir()
	data := "[{\"repository\": \"https://github.com/acme/beta.git\", \"sha1\": \"bbbb0123\", \"refactorings\": [\n" +
		"  {\"type\": \"Rename Method\", \"description\": \"Rename Method\\tpublic get(key String) : T renamed to public fetch(key String) : T in class p.Store\", \"purity\": {\"purityValue\": \"-\"}}]}]"
	if err := os.WriteFile(filepath.Join(dir, "sampleResPurity.json"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	commits, err := loadOracle(dir, nil)
	if err != nil || len(commits) != 1 {
		t.Fatalf("loaded %d commits (%v), want 1", len(commits), err)
	}
	c := commits[0]
	if c.Dataset != "purity" || c.Lang != "java" || len(c.Refs) != 1 {
		t.Fatalf("loaded %+v", c)
	}
	if r := c.Refs[0]; !r.Valid || r.Before.String() != "p.Store.get(String)" || r.After.String() != "p.Store.fetch(String)" {
		t.Errorf("read valid=%v %s → %s", r.Valid, r.Before, r.After)
	}
	// An empty clone of the project: no such commit in it, nor any
	// snapshot, so both reasons are told.
	clones := filepath.Join(dir, "clones")
	if out, err := exec.Command("git", "init", "-q", filepath.Join(clones, "beta")).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	for _, sample := range []string{"dev", "report", "heldout", "all", "kotlin", "purity"} {
		var out, log strings.Builder
		err := run(t.Context(), []string{"-oracle", dir, "-clones", clones, "-sample", sample}, &out, &log)
		if chosen := strings.Contains(log.String(), "beta bbbb0123"); chosen != (sample == "purity") {
			t.Errorf("-sample %s: purity commit chosen %v (%v):\n%s", sample, chosen, err, log.String())
		}
		if sample == "purity" && !strings.Contains(log.String(), "from the clone") {
			t.Errorf("a clone without the commit and no snapshot: %s", log.String())
		}
	}
}
