package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/lorehq/lore"
)

// text/tabwriter is the oracle for the learning table.
func TestLearningTableMatchesTabwriter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "retry", "budget", "naïve", "日本語", "x", ""}
	for n := range 200 {
		var ls []lore.Summary
		for range r.IntN(12) {
			l := lore.Summary{ID: "l" + strings.Repeat("k", r.IntN(12)), Title: words[r.IntN(len(words))] + " " + words[r.IntN(len(words))]}
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
	ls := []*lore.Learning{
		{ID: "a", Title: "<b>&\"naïve\" 日本語", Tags: []string{"x"}, Body: "line\n\ttab\n"},
		{ID: "b", Title: "", Links: []lore.Link{{To: "a", Type: "related", Weight: 0.25}}},
	}
	for _, items := range [][]*lore.Learning{ls, ls[:1], {}} {
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
