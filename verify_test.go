package lore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
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

// recordTransitions reads stored states by lookup for a few results and in
// one scan for many; both record exactly the anchors whose state changed.
func TestRecordTransitionsFewAndMany(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{5, 700} {
		ws := newWorkspace(t)
		rs := make([]anchors.Result, n)
		for i := range rs {
			rs[i] = anchors.Result{Learning: fmt.Sprintf("l%05d", i), Anchor: 1, Spec: "a.go", Status: anchors.Valid, Change: anchors.ChangeNone}
		}
		history := func() int {
			count := 0
			err := ws.withStore(ctx, func(st *graphStore) error {
				return st.View(func(tx *graph.Tx) error {
					return tx.Keys(nsHistory, "", func(string) error { count++; return nil })
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			return count
		}
		record := func() {
			if err := ws.withWriter(ctx, func(st *graphStore) error { return ws.recordTransitions(st, "c1", rs) }); err != nil {
				t.Fatal(err)
			}
		}
		record()
		if got := history(); got != n {
			t.Fatalf("%d results: %d transitions recorded first, want %d", n, got, n)
		}
		record()
		if got := history(); got != n {
			t.Errorf("%d results: the same states again recorded %d transitions", n, got-n)
		}
		for _, i := range []int{0, n / 2, n - 1} {
			rs[i].Status, rs[i].Change = anchors.Drifted, anchors.ChangeBodyChanged
		}
		record()
		if got := history(); got != n+3 {
			t.Errorf("%d results: three drifts recorded %d transitions", n, got-n)
		}
	}
}
