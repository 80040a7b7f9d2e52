package lore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorehq/lore/graph"
)

func TestProvenanceAndFeedback(t *testing.T) {
	ws := newWorkspace(t)
	ctx := context.Background()
	l, err := ws.Add(ctx, AddOptions{Title: "retry budget is 3", DerivedFrom: []string{"task:T-142", "run:R-77"}})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(ws.Root(), l.Path))
	if !strings.Contains(string(data), "derived_from:") || !strings.Contains(string(data), "task:T-142") || !strings.Contains(string(data), "run:R-77") {
		t.Errorf("provenance not in the file:\n%s", data)
	}
	info, err := ws.Node(ctx, l.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	derived := map[string]bool{}
	for _, e := range info.Edges {
		if e.Type == graph.DerivedFrom {
			derived[e.To] = true
		}
	}
	if !derived["task:T-142"] || !derived["run:R-77"] || len(derived) != 2 {
		t.Errorf("DERIVED_FROM edges: %v", derived)
	}
	if _, err := ws.Add(ctx, AddOptions{Title: "x", DerivedFrom: []string{"ticket:9"}}); err == nil {
		t.Error("provenance ticket:9 accepted")
	}

	for _, helpful := range []bool{true, true, false} {
		if _, err := ws.Feedback(ctx, FeedbackOptions{Learning: l.ID[:4], Run: "run:R-90", Helpful: helpful}); err != nil {
			t.Fatal(err)
		}
	}
	fb, err := ws.Feedback(ctx, FeedbackOptions{Learning: l.ID, Run: "R-91", Helpful: true})
	if err != nil {
		t.Fatal(err)
	}
	if fb.Run != "R-91" || !fb.Helpful || fb.Mentions != 1 {
		t.Errorf("first feedback for R-91: %+v", fb)
	}
	all, err := ws.LearningFeedback(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 {
		t.Fatalf("feedback = %+v", all)
	}
	var r90 Feedback
	for _, f := range all {
		if f.Run == "R-90" {
			r90 = f
		}
	}
	if r90.Mentions != 3 || r90.HelpfulCount != 2 || r90.UnhelpfulCount != 1 || r90.Helpful {
		t.Errorf("R-90 after helpful, helpful, unhelpful: %+v", r90)
	}
	e, err := func() (graph.Edge, error) {
		var e graph.Edge
		err := ws.withStore(ctx, func(st *graph.Store) error {
			var err error
			e, err = st.Edge(graph.EdgeKey{Type: graph.UsedInRun, From: learningNode(l.ID), To: "run:R-90"})
			return err
		})
		return e, err
	}()
	if err != nil || e.Metadata["verdict"] != "unhelpful" || e.Mentions != 3 {
		t.Errorf("USED_IN_RUN edge: %+v %v", e, err)
	}
	// Feedback is local: the learning file does not change.
	after, _ := os.ReadFile(filepath.Join(ws.Root(), l.Path))
	if string(after) != string(data) {
		t.Error("feedback changed the learning file")
	}

	for _, tc := range []struct {
		opts FeedbackOptions
		want string
	}{
		{FeedbackOptions{Run: "R-1"}, "learning"},
		{FeedbackOptions{Learning: l.ID}, "run"},
		{FeedbackOptions{Learning: l.ID, Run: "run:"}, "run"},
		{FeedbackOptions{Learning: l.ID, Run: "R 1"}, "no spaces"},
	} {
		if _, err := ws.Feedback(ctx, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.opts, err, tc.want)
		}
	}
	if _, err := ws.Feedback(ctx, FeedbackOptions{Learning: "zzzzzz", Run: "R-1"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown learning: %v", err)
	}
}

func TestAddAnchor(t *testing.T) {
	ws := newWorkspace(t)
	ctx := context.Background()
	os.WriteFile(filepath.Join(ws.Root(), "a.go"), []byte("package a\n\nfunc F() {}\n"), 0o644)
	l, err := ws.Add(ctx, AddOptions{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ws.AddAnchor(ctx, l.ID, "a.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Anchors) != 1 || got.Anchors[0].Spec() != "a.go" || got.Anchors[0].Hash == "" {
		t.Errorf("anchors = %+v", got.Anchors)
	}
	again, err := ws.AddAnchor(ctx, l.ID, "a.go")
	if err != nil || len(again.Anchors) != 1 {
		t.Errorf("adding the same anchor twice: %+v %v", again, err)
	}
	if _, err := ws.AddAnchor(ctx, l.ID, "missing.go"); err == nil {
		t.Error("anchor to a missing file accepted")
	}
	info, err := ws.Node(ctx, l.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Edges) != 1 || info.Edges[0].Type != graph.AnchoredTo || info.Edges[0].To != "file:a.go" {
		t.Errorf("edges after AddAnchor: %+v", info.Edges)
	}
}
