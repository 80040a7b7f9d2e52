package lore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A first verification records a state for every anchor; with thousands
// of anchors that must not exceed one transaction.
func TestVerifyManyAnchors(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	os.WriteFile(filepath.Join(ws.Root(), "a.go"), []byte("package a\n"), 0o644)
	for i := range 1500 {
		id := fmt.Sprintf("m%09d", i)
		body := fmt.Sprintf("---\nid: %s\ntitle: learning %d\nanchors:\n  - glob: '*.go'\n  - glob: 'none/*.md'\n---\n", id, i)
		os.WriteFile(filepath.Join(ws.learningsDir(), id+".md"), []byte(body), 0o644)
	}
	rep, err := ws.Verify(ctx, VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Valid != 1500 || rep.Summary.Invalid != 1500 {
		t.Fatalf("summary = %+v", rep.Summary)
	}
	hist, err := ws.History(ctx, "m000000007")
	if err != nil || len(hist) != 2 {
		t.Fatalf("history = %v, %v", hist, err)
	}
	// Nothing changed: a second run records nothing new.
	if _, err := ws.Verify(ctx, VerifyOptions{}); err != nil {
		t.Fatal(err)
	}
	if hist, _ := ws.History(ctx, "m000000007"); len(hist) != 2 {
		t.Fatalf("history after a quiet run = %d entries", len(hist))
	}
}
