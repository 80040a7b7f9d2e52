package warm

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/testrepo"
	"github.com/lorehq/lore/rank"
)

// repo builds a git repository with a lore workspace, an index and one
// learning anchored to src/jwt.go::Verify.
func repo(t *testing.T) (dir, id string) {
	t.Helper()
	dir = testrepo.New(t, map[string]string{
		"src/jwt.go":  "package src\n\n// Verify checks a token.\nfunc Verify(token string) bool {\n\treturn len(token) > 0\n}\n",
		"src/auth.go": "package src\n\nfunc Login(token string) bool {\n\treturn Verify(token)\n}\n",
	})
	ws, err := lore.Open(dir, lore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ws.Add(context.Background(), lore.AddOptions{Title: "Verify rejects empty tokens", Anchors: []string{"src/jwt.go::Verify"}})
	if err != nil {
		t.Fatal(err)
	}
	return dir, l.ID
}

// changes collects what a view's OnChange reports.
type changes struct {
	mu  sync.Mutex
	got []Change
	c   chan struct{}
}

func newChanges() *changes { return &changes{c: make(chan struct{}, 100)} }

func (c *changes) add(ch Change) {
	c.mu.Lock()
	c.got = append(c.got, ch)
	c.mu.Unlock()
	c.c <- struct{}{}
}

// wait waits until pred holds for one reported change.
func (c *changes) wait(t *testing.T, what string, pred func(Change) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		c.mu.Lock()
		for _, ch := range c.got {
			if pred(ch) {
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		select {
		case <-c.c:
		case <-deadline:
			t.Fatalf("no change reported: %s (got %+v)", what, c.got)
		}
	}
}

func open(t *testing.T, dir string, opts Options) (*View, *changes) {
	t.Helper()
	ch := newChanges()
	opts.Dir = dir
	opts.OnChange = ch.add
	v, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := v.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return v, ch
}

func count(t *testing.T, v *View) int {
	t.Helper()
	var n int
	err := v.Do(context.Background(), func(ws *lore.Workspace) error {
		ls, err := ws.ListSummaries(context.Background(), lore.ListOptions{})
		n = len(ls)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func status(t *testing.T, v *View, overlay map[string][]byte) anchors.Status {
	t.Helper()
	var st anchors.Status
	err := v.Do(context.Background(), func(ws *lore.Workspace) error {
		rep, err := ws.Verify(context.Background(), lore.VerifyOptions{Paths: []string{"src/jwt.go"}, Overlay: overlay})
		if err == nil {
			st = anchors.Worst(rep.Results)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// The view follows learning files written by another process and source
// files saved by an editor, and the writer beside it waits only a moment.
func TestFollows(t *testing.T) {
	for _, mode := range []string{"notify", "poll"} {
		t.Run(mode, func(t *testing.T) {
			dir, _ := repo(t)
			v, ch := open(t, dir, Options{polling: mode == "poll", Poll: 100 * time.Millisecond})
			if v.Following() != mode {
				t.Fatalf("following by %s, want %s", v.Following(), mode)
			}
			if n := count(t, v); n != 1 {
				t.Fatalf("%d learnings, want 1", n)
			}
			v.mu.Lock()
			held := v.ws.Held()
			v.mu.Unlock()
			if !held {
				t.Fatal("store not held after a call")
			}
			// Another process adds a learning while the view holds the store.
			other, err := lore.Open(dir, lore.Options{LockTimeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if _, err := other.Add(context.Background(), lore.AddOptions{Title: "Login calls Verify", Anchors: []string{"src/auth.go::Login"}}); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("writer beside the view took %s", d)
			}
			ch.wait(t, "learnings", func(c Change) bool { return c.Learnings })
			if n := count(t, v); n != 2 {
				t.Errorf("%d learnings after another process added one, want 2", n)
			}
			// An unsaved edit drifts the anchor; the file on disk does not.
			edited := []byte("package src\n\n// Verify checks a token.\nfunc Verify(token string) bool {\n\treturn len(token) > 1\n}\n")
			if s := status(t, v, map[string][]byte{"src/jwt.go": edited}); s != anchors.Drifted {
				t.Errorf("with the unsaved buffer: %s, want drifted", s)
			}
			if s := status(t, v, map[string][]byte{}); s != anchors.Valid {
				t.Errorf("without it: %s, want valid", s)
			}
			// Saved: the view re-indexes and says so (notify), or the
			// next verification does (poll).
			testrepo.Write(t, dir, "src/jwt.go", string(edited))
			if mode == "notify" {
				ch.wait(t, "src/jwt.go", func(c Change) bool { return len(c.Paths) == 1 && c.Paths[0] == "src/jwt.go" })
			} else {
				time.Sleep(300 * time.Millisecond)
			}
			if s := status(t, v, map[string][]byte{}); s != anchors.Drifted {
				t.Errorf("after the save: %s, want drifted", s)
			}
		})
	}
}

// While calls come one after another, a writer beside the view gets the
// store within a moment, and the calls go on.
func TestWriterBesideBusyView(t *testing.T) {
	dir, id := repo(t)
	v, _ := open(t, dir, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	calls := 0
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			err := v.Do(ctx, func(ws *lore.Workspace) error {
				_, err := ws.Get(ctx, id)
				return err
			})
			if err != nil && ctx.Err() == nil {
				t.Error(err)
				return
			}
			calls++
		}
	}()
	time.Sleep(100 * time.Millisecond)
	var worst time.Duration
	for i := range 5 {
		other, err := lore.Open(dir, lore.Options{LockTimeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := other.Add(context.Background(), lore.AddOptions{Title: "note " + strings.Repeat("x", i+1), Anchors: []string{"src/auth.go"}}); err != nil {
			t.Fatal(err)
		}
		worst = max(worst, time.Since(start))
	}
	cancel()
	wg.Wait()
	t.Logf("%d calls; slowest writer beside them %s", calls, worst)
	if worst > 2*time.Second {
		t.Errorf("writer waited %s beside a busy view", worst)
	}
	if n := count(t, v); n != 6 {
		t.Errorf("%d learnings, want 6", n)
	}
}

// Bad options are refused; a closed view refuses calls.
func TestOpenClose(t *testing.T) {
	if _, err := Open(context.Background(), Options{}); err == nil {
		t.Error("no Dir accepted")
	}
	if _, err := Open(context.Background(), Options{Dir: t.TempDir()}); err == nil {
		t.Error("a directory without a workspace accepted")
	}
	dir, _ := repo(t)
	v, err := Open(context.Background(), Options{Dir: dir, Poll: -1})
	if err != nil {
		t.Fatal(err)
	}
	count(t, v)
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	if err := v.Do(context.Background(), func(*lore.Workspace) error { return nil }); err == nil {
		t.Error("call after Close accepted")
	}
	// The store is free after Close.
	ws, _ := lore.Open(dir, lore.Options{LockTimeout: -1})
	if _, err := ws.Index(context.Background(), lore.IndexOptions{}); err != nil {
		t.Errorf("store held after Close: %v", err)
	}
}

// A warm view's context answers, asked again and again, follow the tree
// (verified for each answer) and the learnings (ranked again after a
// sync), and equal a command's.
func TestContextStaysCurrent(t *testing.T) {
	dir, id := repo(t)
	v, ch := open(t, dir, Options{})
	target := lore.ContextOptions{Targets: []string{"src/jwt.go"}}
	ask := func() (res *rank.Result, statuses map[string]string) {
		t.Helper()
		err := v.Do(context.Background(), func(ws *lore.Workspace) error {
			var err error
			res, err = ws.Context(context.Background(), target)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		statuses = map[string]string{}
		for _, it := range append(res.Learnings, res.Stale...) {
			statuses[it.ID] = it.Status
		}
		return res, statuses
	}
	for range 3 {
		if _, got := ask(); len(got) != 1 || got[id] != "valid" {
			t.Fatalf("context of src/jwt.go: %v, want %s valid", got, id)
		}
	}
	// Verify goes away: the next answer says so, though the store and
	// the ranking were kept.
	testrepo.Write(t, dir, "src/jwt.go", "package src\n")
	if _, got := ask(); got[id] != "invalid" {
		t.Errorf("after Verify was removed: %v, want %s invalid", got, id)
	}
	testrepo.Write(t, dir, "src/jwt.go", "package src\n\n// Verify checks a token.\nfunc Verify(token string) bool {\n\treturn len(token) > 0\n}\n")
	// Another process adds a learning about the file.
	other, err := lore.Open(dir, lore.Options{LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	l, err := other.Add(context.Background(), lore.AddOptions{Title: "tokens are opaque", Anchors: []string{"src/jwt.go"}})
	if err != nil {
		t.Fatal(err)
	}
	ch.wait(t, "learnings", func(c Change) bool { return c.Learnings })
	warm, got := ask()
	if len(got) != 2 || got[id] != "valid" || got[l.ID] != "valid" {
		t.Errorf("after another process added %s: %v, want both valid", l.ID, got)
	}
	// A command's answer is the same.
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	cold, err := other.Context(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(warm, cold) {
		t.Errorf("warm view's answer %+v\ncommand's %+v", warm, cold)
	}
}

// A call that finds the store held by another writer past the lock
// timeout fails after one wait for it, not two.
func TestDoLockedWaitsOnce(t *testing.T) {
	dir, _ := repo(t)
	const timeout = 400 * time.Millisecond
	v, err := Open(context.Background(), Options{Dir: dir, Poll: -1, LockTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	v.mu.Lock()
	_ = v.ws.Release() // held read-only: nothing to lose
	v.mu.Unlock()
	st, err := graph.Open(filepath.Join(dir, ".lore", "db"), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	start := time.Now()
	err = v.Do(context.Background(), func(ws *lore.Workspace) error {
		_, err := ws.Index(context.Background(), lore.IndexOptions{})
		return err
	})
	if !errors.Is(err, graph.ErrLocked) {
		t.Fatalf("got %v, want the lock's error", err)
	}
	if d := time.Since(start); d > timeout*3/2 {
		t.Errorf("the call waited %v for a lock timeout of %v", d, timeout)
	}
}
