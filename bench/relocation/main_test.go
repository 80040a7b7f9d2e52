package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// A threshold outside (0,1] is refused before any commit is read, with
// the one line that says what to give.
func TestThresholdOutOfRange(t *testing.T) {
	for _, v := range []string{"-0.1", "1.5"} {
		err := run(context.Background(), []string{"-oracle", t.TempDir(), "-threshold", v}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "-threshold: want a confidence in (0,1]") {
			t.Errorf("-threshold %s: got %v, want the range error", v, err)
		}
	}
}

// Every doubt the verification fixtures pin in their reasons (the why
// sections of testdata/anchors) is one heldBack knows.
func TestHeldBackKnowsTheFixturesDoubts(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/anchors/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	seen := 0
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name != "why" {
				continue
			}
			for _, l := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				_, text, _ := strings.Cut(l, ": ")
				why := "invalid deleted (0.40): X no longer exists in x.java; 2 possible new location(s), none certain enough to follow: " + text
				if got := heldBack(why); got == "other" {
					t.Errorf("%s: heldBack does not know %q", filepath.Base(p), text)
				}
				seen++
			}
		}
	}
	if seen == 0 {
		t.Fatal("no why sections in the fixtures")
	}
	if got := heldBack("invalid file-deleted (1.00): x.java was deleted"); got != "nothing like it among the change's symbols" {
		t.Errorf("no candidates: got %q", got)
	}
}
