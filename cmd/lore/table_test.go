package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
)

// text/tabwriter is the oracle for the learning table.
func TestLearningTableMatchesTabwriter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "retry", "budget", "naïve", "日本語", "x", ""}
	for n := range 200 {
		var ls []learnfile.Summary
		for range r.IntN(12) {
			l := learnfile.Summary{ID: "l" + strings.Repeat("k", r.IntN(12)), Title: words[r.IntN(len(words))] + " " + words[r.IntN(len(words))]}
			for range r.IntN(3) {
				l.Tags = append(l.Tags, words[r.IntN(len(words)-1)])
			}
			ls = append(ls, l)
		}
		var want bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 4, 2, ' ', 0)
		for _, l := range ls {
			if len(l.Tags) == 0 {
				fmt.Fprintf(tw, "%s\t%s\n", l.ID, l.Title)
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", l.ID, l.Title, strings.Join(l.Tags, ","))
		}
		tw.Flush()
		if got := string(appendLearningTable(nil, ls)); got != want.String() {
			t.Fatalf("case %d:\n got %q\nwant %q", n, got, want.String())
		}
	}
}

// encoding/json of the whole slice is the oracle for jsonArray.
func TestJSONArrayMatchesEncoder(t *testing.T) {
	ls := []*learnfile.Learning{
		{ID: "a", Title: "<b>&\"naïve\" 日本語", Tags: []string{"x"}, Body: "line\n\ttab\n"},
		{ID: "b", Title: "", Links: []learnfile.Link{{To: "a", Type: "related", Weight: 0.25}}},
	}
	for _, items := range [][]*learnfile.Learning{ls, ls[:1], {}} {
		var got, want bytes.Buffer
		if err := jsonArray(&app{stdout: &got}, items); err != nil {
			t.Fatal(err)
		}
		if err := (&app{stdout: &want}).json(items); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d items:\n got %s\nwant %s", len(items), got.String(), want.String())
		}
	}
}

// encoding/json of the equivalent struct is the oracle for jsonObject:
// nil and empty arrays, metadata, invalidated edges, escaping.
func TestJSONObjectMatchesEncoder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"file:a.go", "learning:k3v9", "<&>", "naïve \"q\"", "日本語", ""}
	when := time.Date(2026, 11, 22, 12, 0, 0, 123, time.UTC)
	for n := range 100 {
		var sub graph.Subgraph
		var res []graph.Result
		if r.IntN(4) > 0 {
			sub.Nodes = []graph.Node{}
			for range r.IntN(4) {
				nd := graph.Node{ID: words[r.IntN(len(words))], Type: "file"}
				if r.IntN(2) == 0 {
					nd.Attrs = map[string]string{"title": words[r.IntN(len(words))], "b": "2"}
				}
				sub.Nodes = append(sub.Nodes, nd)
			}
		}
		if r.IntN(4) > 0 {
			sub.Edges = []graph.Edge{}
			for range r.IntN(4) {
				e := graph.Edge{Type: graph.LinksTo, From: words[r.IntN(len(words))], To: "x", Relation: "see-also", Weight: r.Float64(), CreatedAt: when, UpdatedAt: when, Version: r.IntN(9)}
				if r.IntN(2) == 0 {
					e.Metadata = map[string]any{"note": words[r.IntN(len(words))], "n": 1.5, "list": []any{"a", 2.0}}
					e.InvalidatedAt, e.InvalidReason = &when, "gone"
				}
				sub.Edges = append(sub.Edges, e)
			}
		}
		if r.IntN(4) > 0 {
			res = []graph.Result{}
			for range r.IntN(4) {
				res = append(res, graph.Result{Node: "x", Depth: 1, Score: r.Float64(), Path: []string{"a", "x"}, Steps: []graph.Step{{Type: graph.Imports, Weight: 1}}, Direction: graph.In})
			}
		}
		var got, want bytes.Buffer
		if err := (&app{stdout: &got}).jsonObject(arrayMember("nodes", sub.Nodes), arrayMember("edges", sub.Edges), arrayMember("results", res)); err != nil {
			t.Fatal(err)
		}
		if err := (&app{stdout: &want}).json(struct {
			*graph.Subgraph
			Results []graph.Result `json:"results"`
		}{&sub, res}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("case %d:\n got %s\nwant %s", n, got.String(), want.String())
		}
	}
	var got bytes.Buffer
	if err := (&app{stdout: &got}).jsonObject(); err != nil || got.String() != "{}\n" {
		t.Errorf("no members: %q, %v", got.String(), err)
	}
}
