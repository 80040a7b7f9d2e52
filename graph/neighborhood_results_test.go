package graph

import (
	"context"
	"reflect"
	"testing"
)

// NeighborhoodResults is one search giving what Traverse and Neighborhood
// give separately.
func TestNeighborhoodResultsMatchesTraverse(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	for _, e := range []Edge{
		{Type: Imports, From: "file:a.go", To: "file:b.go", Weight: 1},
		{Type: Imports, From: "file:b.go", To: "file:c.go", Weight: 1},
		{Type: CoChangesWith, From: "file:a.go", To: "file:d.go", Weight: 0.4},
		{Type: AnchoredTo, From: "learning:ab", To: "file:c.go", Weight: 1},
		{Type: LinksTo, From: "learning:ab", To: "learning:cd", Relation: "caused_by", Weight: 0.5},
	} {
		mustUpsert(t, s, e)
	}
	for _, opts := range []TraverseOptions{
		{Seeds: []string{"file:a.go"}},
		{Seeds: []string{"file:a.go"}, Depth: 3, Limit: 2},
		{Seeds: []string{"learning:ab", "file:d.go"}, Direction: Out, Depth: 4},
	} {
		want, err := s.Traverse(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		wantSub, err := s.Neighborhood(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		sub, res, err := s.NeighborhoodResults(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, want) || !reflect.DeepEqual(sub, wantSub) {
			t.Errorf("%+v:\n results %+v\n    want %+v\n subgraph %+v\n    want %+v", opts, res, want, sub, wantSub)
		}
	}
}
