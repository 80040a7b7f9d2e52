package lore

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lorehq/lore/anchors"
)

// --fix writes baselines into a file it reads again after verifying. When
// the file changed in between (a person removed anchor 1), the anchor to
// rewrite is found by what it is (spec and baseline), never by its old
// position: position 1 now holds another anchor (issue 27).
func TestFixMatchesAnchorsByIdentity(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(ws.Root(), name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc One(x int) int {\n\treturn x + 1\n}\n\nfunc Two(x int) int {\n\treturn x * 2\n}\n")
	l, err := ws.Add(ctx, AddOptions{Title: "One and Two stay apart", Anchors: []string{"a.go::One", "a.go::Two"}})
	if err != nil {
		t.Fatal(err)
	}
	before := l.Anchors
	old, _ := ws.readLearning(l)
	old.Updated = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := ws.writeLearning(old); err != nil {
		t.Fatal(err)
	}
	// Both move to b.go: --fix would rewrite both.
	write("a.go", "package a\n")
	write("b.go", "package a\n\nfunc One(x int) int {\n\treturn x + 1\n}\n\nfunc Two(x int) int {\n\treturn x * 2\n}\n")
	rep, err := ws.Verify(ctx, VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var fixes []anchorFix
	for i, r := range rep.Results {
		a, ok := anchors.Fix(r)
		if !ok {
			t.Fatalf("result %d not fixable: %+v", i, r)
		}
		fixes = append(fixes, anchorFix{learning: l.ID, path: l.Path, old: before[i], new: a})
	}
	// Meanwhile the person removes anchor 1.
	fresh, err := ws.readLearning(l)
	if err != nil {
		t.Fatal(err)
	}
	fresh.Anchors = fresh.Anchors[1:]
	if err := ws.writeLearning(fresh); err != nil {
		t.Fatal(err)
	}
	vs := &verifySource{files: nil}
	out := &VerifyReport{}
	if err := ws.fix(ctx, vs, VerifyOptions{Fix: true}, fixes, out); err != nil {
		t.Fatal(err)
	}
	got, err := ws.readLearning(l)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Anchors) != 1 || got.Anchors[0].Symbol != "b.go::Two" {
		t.Fatalf("anchors after --fix = %+v, want only b.go::Two", got.Anchors)
	}
	if got.Anchors[0] != fixes[1].new {
		t.Errorf("anchor = %+v, want the fix of Two %+v", got.Anchors[0], fixes[1].new)
	}
	if got.Updated.Year() == 2020 {
		t.Errorf("updated %v not bumped by --fix", got.Updated)
	}
	// An anchor the person changed is left as they wrote it.
	fresh, _ = ws.readLearning(l)
	fresh.Anchors[0].Symbol = "b.go::One"
	fresh.Anchors[0].Hash = ""
	ws.writeLearning(fresh)
	if err := ws.fix(ctx, vs, VerifyOptions{Fix: true}, fixes, &VerifyReport{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := ws.readLearning(l); got.Anchors[0].Symbol != "b.go::One" || got.Anchors[0].Hash != "" {
		t.Errorf("a person's anchor was overwritten: %+v", got.Anchors[0])
	}
}
