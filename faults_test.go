package lore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorehq/lore/anchors"
)

// A learning at every limit of the format at once, with the longest
// strings its size allows, is stored whole: alone, and among others synced
// in one go (more than one transaction holds).
func TestLearningLimits(t *testing.T) {
	ctx := context.Background()
	for _, shape := range []struct {
		name                    string
		pathLen, tagLen, others int
	}{{"short strings", 8, 8, 1}, {"long strings", 200, 64, 1}, {"30 at once", 200, 64, 30}} {
		t.Run(shape.name, func(t *testing.T) {
			ws := newWorkspace(t)
			for n := range shape.others {
				l := &Learning{ID: fmt.Sprintf("lim%04d", n), Title: "at the limits"}
				dir := strings.Repeat("d", shape.pathLen)
				for i := range maxAnchors {
					l.Anchors = append(l.Anchors, anchors.Anchor{Symbol: fmt.Sprintf("%s/f%d.go::F%d", dir, i, n), Hash: "sha256:" + strings.Repeat("a", 64)})
				}
				for i := range maxLinks {
					l.Links = append(l.Links, Link{To: fmt.Sprintf("x%07d", i), Type: strings.Repeat("r", shape.tagLen), Weight: 0.5})
				}
				for i := range maxDerivedFrom {
					l.DerivedFrom = append(l.DerivedFrom, fmt.Sprintf("task:%s%d", dir[:min(len(dir), 60)], i))
				}
				data, err := l.Marshal()
				for err != nil && strings.Contains(err.Error(), "KiB at most") {
					// Too long as a whole: shorten the paths.
					for i := range l.Anchors {
						l.Anchors[i].Symbol = l.Anchors[i].Symbol[len(l.Anchors[i].Symbol)/10:]
					}
					data, err = l.Marshal()
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(data) < maxLearningBytes {
					data = append(data, strings.Repeat("body text\n", (maxLearningBytes-len(data))/10)...)
				}
				if err := os.WriteFile(filepath.Join(ws.learningsDir(), l.ID+".md"), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := ws.Sync(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Problems) > 0 {
				t.Fatalf("problems: %v", rep.Problems)
			}
			l, err := ws.Get(ctx, "lim0000")
			if err != nil || len(l.Anchors) != maxAnchors || len(l.Links) != maxLinks {
				t.Fatalf("stored: %v, %v", l, err)
			}
		})
	}
}
