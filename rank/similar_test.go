package rank

import (
	"slices"
	"testing"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/learnfile"
)

func TestTerms(t *testing.T) {
	got := terms("validateToken checks the HTTPServer max_retries in src/auth.ts 42")
	want := []string{"validate", "token", "validatetoken", "checks", "http", "server", "httpserver", "max", "retries", "maxretries", "src", "auth", "ts"}
	if !slices.Equal(got, want) {
		t.Errorf("terms = %q\nwant    %q", got, want)
	}
}

// Sync recomputes similarity only when the words of a learning changed:
// links, baselines and dates do not change it; title, tags, body and
// anchor locations do.
func TestSimilarityText(t *testing.T) {
	base := &learnfile.Learning{ID: "a", Title: "retry budget", Tags: []string{"net"}, Body: "b\n",
		Anchors: []anchors.Anchor{{Symbol: "x.go::Retry", Hash: "sha256:1"}}}
	same := *base
	same.Links = []learnfile.Link{{To: "b", Type: "related", Weight: 0.5}}
	same.Anchors = []anchors.Anchor{{Symbol: "x.go::Retry", Hash: "sha256:2", Sketch: "m1:+ff"}}
	same.Updated = base.Updated.Add(time.Hour)
	if SimilarityText(&same) != SimilarityText(base) {
		t.Error("links, baselines or dates changed the similarity text")
	}
	for name, edit := range map[string]func(l *learnfile.Learning){
		"title":  func(l *learnfile.Learning) { l.Title = "retry limit" },
		"tags":   func(l *learnfile.Learning) { l.Tags = []string{"net", "db"} },
		"body":   func(l *learnfile.Learning) { l.Body = "c\n" },
		"anchor": func(l *learnfile.Learning) { l.Anchors = []anchors.Anchor{{Symbol: "y.go::Retry"}} },
		"glob":   func(l *learnfile.Learning) { l.Anchors = []anchors.Anchor{{Glob: "**/*.go"}} },
	} {
		l := *base
		edit(&l)
		if SimilarityText(&l) == SimilarityText(base) {
			t.Errorf("%s change left the similarity text alone", name)
		}
	}
}
