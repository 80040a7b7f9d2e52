package lore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
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
				l := &learnfile.Learning{ID: fmt.Sprintf("lim%04d", n), Title: "at the limits"}
				dir := strings.Repeat("d", shape.pathLen)
				for i := range learnfile.MaxAnchors {
					l.Anchors = append(l.Anchors, anchors.Anchor{Symbol: fmt.Sprintf("%s/f%d.go::F%d", dir, i, n), Hash: "sha256:" + strings.Repeat("a", 64)})
				}
				for i := range learnfile.MaxLinks {
					l.Links = append(l.Links, learnfile.Link{To: fmt.Sprintf("x%07d", i), Type: strings.Repeat("r", shape.tagLen), Weight: 0.5})
				}
				for i := range learnfile.MaxDerivedFrom {
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
				if len(data) < learnfile.MaxBytes {
					data = append(data, strings.Repeat("body text\n", (learnfile.MaxBytes-len(data))/10)...)
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
			if err != nil || len(l.Anchors) != learnfile.MaxAnchors || len(l.Links) != learnfile.MaxLinks {
				t.Fatalf("stored: %v, %v", l, err)
			}
		})
	}
}

// writtenCtx is a context that is cancelled as soon as a learning file
// appears whose name is not in before: the moment after an operation wrote
// its file, when a signal arriving makes the rest of it fail.
type writtenCtx struct {
	context.Context
	dir    string
	before map[string]bool
}

func (c writtenCtx) Err() error {
	ms, _ := filepath.Glob(filepath.Join(c.dir, "*.md"))
	for _, m := range ms {
		if !c.before[filepath.Base(m)] {
			return context.Canceled
		}
	}
	return nil
}

func (c writtenCtx) Done() <-chan struct{} { return nil }

// Once the learning file is written, an interruption (or a store that
// cannot be updated) makes the operation succeed with a warning, not fail:
// a retry would make a duplicate.
func TestInterruptedAfterTheWriteSucceeds(t *testing.T) {
	ws, notes := newNotingWorkspace(t)
	before := map[string]bool{}
	ctx := writtenCtx{Context: context.Background(), dir: ws.learningsDir(), before: before}
	l, err := ws.Add(ctx, AddOptions{Title: "written, then interrupted"})
	if err != nil {
		t.Fatalf("Add reported %v though it wrote %v", err, l)
	}
	if len(*notes) == 0 || !strings.Contains((*notes)[len(*notes)-1], "saved, but .lore/db was not updated (interrupted)") {
		t.Fatalf("no warning about the store: %q", *notes)
	}
	got, err := ws.Get(context.Background(), l.ID)
	if err != nil || got.Title != l.Title {
		t.Fatalf("the next operation does not see it: %v %v", got, err)
	}
}

// Interrupted before anything was written, an operation fails.
func TestInterruptedBeforeTheWriteFails(t *testing.T) {
	ws := newWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if l, err := ws.Add(ctx, AddOptions{Title: "never"}); err == nil {
		t.Fatalf("Add succeeded after an interruption: %v", l)
	}
	if ms, _ := filepath.Glob(filepath.Join(ws.learningsDir(), "*.md")); len(ms) != 0 {
		t.Fatalf("written: %v", ms)
	}
}

// A learning added by another process while this one waited for the store
// is not taken for deleted: the links to it stay in the graph.
func TestListingAfterTheLock(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	base, _ := ws.Add(ctx, AddOptions{Title: "base"})
	other, err := Open(ws.Root(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// ws holds the store while other waits for it, and meanwhile adds a
	// learning and links base to it, as another lore process would.
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- ws.withWriter(ctx, func(st *graph.Store) error {
			close(started)
			time.Sleep(300 * time.Millisecond) // other waits for the store now
			added := &learnfile.Learning{ID: "added", Title: "added meanwhile", Path: ".lore/learnings/added.md"}
			if err := ws.writeLearning(added); err != nil {
				return err
			}
			fresh, err := ws.readLearning(base)
			if err != nil {
				return err
			}
			fresh.Links = append(fresh.Links, learnfile.Link{To: "added", Type: "x", Weight: 1})
			if err := ws.writeLearning(fresh); err != nil {
				return err
			}
			return ws.learnings.Sync(ctx)
		})
	}()
	<-started
	if _, err := other.Add(ctx, AddOptions{Title: "other"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sub, err := ws.Relations(ctx, RelationsOptions{})
	if err != nil || len(sub.Edges) != 1 {
		t.Fatalf("links after the wait: %v %v", sub, err)
	}
}
