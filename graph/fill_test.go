package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fillSample is what the fill tests write: loadSample's nodes and edges,
// and entries of the key-value space in two namespaces, some large enough
// for the value log, some given twice (the later wins) and some deleted
// after they were given.
type fillSample struct {
	nodes []Node
	edges []Edge
	kv    []fillEntry
}

type fillEntry struct {
	ns, key string
	val     []byte
	del     bool
}

func newFillSample() fillSample {
	nodes, edges := loadSample(3000)
	var kv []fillEntry
	for i := range 2000 {
		val := []byte("v" + itoa(i))
		if i%7 == 0 {
			val = bytes.Repeat([]byte{byte(i)}, 2000)
		}
		kv = append(kv, fillEntry{ns: []string{"axs", "axf"}[i%2], key: fmt.Sprintf("p/%04d", i*13%2000), val: val})
	}
	for i := 0; i < 2000; i += 9 {
		kv = append(kv, fillEntry{ns: "axs", key: fmt.Sprintf("p/%04d", i), val: []byte("again")})
	}
	for i := 0; i < 2000; i += 11 {
		kv = append(kv, fillEntry{ns: "axf", key: fmt.Sprintf("p/%04d", i), del: true})
	}
	return fillSample{nodes, edges, kv}
}

// give gives the sample to f, the entries among the nodes and edges.
func (x fillSample) give(f *Filler) error {
	for i, n := range x.nodes {
		if err := f.Node(n); err != nil {
			return err
		}
		if err := x.entry(f, i); err != nil {
			return err
		}
	}
	for i, e := range x.edges {
		if err := f.Edge(e); err != nil {
			return err
		}
		if err := x.entry(f, len(x.nodes)+i); err != nil {
			return err
		}
	}
	for i := len(x.nodes) + len(x.edges); i < len(x.kv); i++ {
		if err := x.entry(f, i); err != nil {
			return err
		}
	}
	return nil
}

func (x fillSample) entry(f *Filler, i int) error {
	if i >= len(x.kv) {
		return nil
	}
	e := x.kv[i]
	if e.del {
		return f.Delete(e.ns, e.key)
	}
	return f.SetOwned(e.ns, e.key, e.val)
}

// write writes the sample into s the ordinary way: a batch, then a load.
func (x fillSample) write(t *testing.T, s *Store) {
	t.Helper()
	err := s.Batch(func(b *Batch) error {
		for _, e := range x.kv {
			var err error
			if e.del {
				err = b.Delete(e.ns, e.key)
			} else {
				err = b.Set(e.ns, e.key, e.val)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(context.Background(), x.nodes, x.edges); err != nil {
		t.Fatal(err)
	}
}

// contents is the store's graph and its entries in the namespaces of the
// sample and of learnings.
func contents(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(exportString(t, s))
	err := s.View(func(tx *Tx) error {
		for _, ns := range []string{"axs", "axf", "lrn"} {
			err := tx.Scan(ns, "", func(k string, v []byte) error {
				fmt.Fprintf(&b, "%s/%s=%q\n", ns, k, v)
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// holdLearnings writes what a store holds before a first index: a few
// learnings of the graph, with an edge to a file the fill also names.
func holdLearnings(t *testing.T, s *Store) {
	t.Helper()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var edges []Edge
	for i := range 5 {
		edges = append(edges, Edge{Type: AnchoredTo, From: "learning:k" + itoa(i), To: fileID(i), Weight: 1, CreatedAt: at, UpdatedAt: at})
		if err := s.Update(func(tx *Tx) error { return tx.Set("lrn", "k"+itoa(i), []byte("title")) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Load(context.Background(), nil, edges); err != nil {
		t.Fatal(err)
	}
}

// A fill writes what a batch and a load write, in one pass of the stream
// writer, with its entries and edges sorted in runs spilled to files, into
// an empty store or one holding learnings, which it keeps.
//
// It writes in parts (see parts): one, a few, or more than there are
// levels for, when the last part takes what is left.
func TestFillWritesWhatBatchAndLoadWrite(t *testing.T) {
	x := newFillSample()
	for _, c := range []struct {
		held      bool
		partBytes int
		parts     string // how many parts the fill writes
	}{
		{false, 0, "one"},
		{true, 0, "one"},
		{false, 256 << 10, "few"},
		{true, 256 << 10, "few"},
		{false, 4 << 10, "all"},
		{true, 4 << 10, "all"},
	} {
		held := c.held
		t.Run(fmt.Sprintf("held=%v/parts=%s", held, c.parts), func(t *testing.T) {
			ref := openMem(t)
			if held {
				holdLearnings(t, ref)
			}
			x.write(t, ref)
			want := contents(t, ref)

			dir := t.TempDir()
			s, err := Open(dir, Options{Schema: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if held {
				holdLearnings(t, s)
			}
			s.runBytes = 16 << 10
			s.partBytes = c.partBytes
			parts := 0
			s.loading = func(n int) error { parts = n; return nil }
			if err := s.Fill(context.Background(), x.give); err != nil {
				t.Fatal(err)
			}
			if parts == 0 {
				t.Fatal("the fill did not go through the stream writer")
			}
			wantParts(t, s, parts, c.parts)
			if got := contents(t, s); got != want {
				t.Fatalf("fill differs from batch and load:\n%.2000s\n---\n%.2000s", got, want)
			}
			checkAdjacency(t, s)
			if left := leftovers(t, dir); len(left) > 0 {
				t.Fatalf("left behind: %v", left)
			}
			// Written for good: the same after reopening, and the
			// store takes ordinary writes after it.
			s.Close()
			if s, err = Open(dir, Options{Schema: 1}); err != nil {
				t.Fatal(err)
			}
			if got := contents(t, s); got != want {
				t.Fatal("fill differs after reopening")
			}
			mustUpsert(t, s, Edge{Type: Imports, From: "file:new", To: fileID(1), Weight: 1})
			mustUpsert(t, ref, Edge{Type: Imports, From: "file:new", To: fileID(1), Weight: 1})
			if got, want := exported(t, s), exported(t, ref); len(got.Nodes) != len(want.Nodes) || len(got.Edges) != len(want.Edges) {
				t.Fatalf("after an upsert: %d nodes, %d edges, want %d, %d", len(got.Nodes), len(got.Edges), len(want.Nodes), len(want.Edges))
			}
		})
	}
}

// wantParts checks that a stream load wrote parts parts, as many as want
// says ("one", "few": more than one and fewer than there are levels for,
// "all": as many as there are levels for), each into a level of its own,
// and none into level 0.
func wantParts(t *testing.T, s *Store, parts int, want string) {
	t.Helper()
	most := s.db.Opts().MaxLevels - 1
	switch {
	case want == "one" && parts != 1,
		want == "few" && (parts < 2 || parts >= most),
		want == "all" && parts != most:
		t.Fatalf("%d parts written, want %s (room for %d)", parts, want, most)
	}
	filled := 0
	for _, l := range s.db.Levels() {
		if l.NumTables == 0 {
			continue
		}
		if l.Level == 0 {
			t.Fatalf("a part went into level 0: %+v", s.db.Levels())
		}
		filled++
	}
	if filled != parts {
		t.Fatalf("%d parts in %d levels: %+v", parts, filled, s.db.Levels())
	}
	t.Logf("%d parts", parts)
}

// A store in memory, or one holding more than Fill takes along, is not
// filled: ErrNotEmpty, and fill is not called.
func TestFillRefuses(t *testing.T) {
	dir := t.TempDir()
	full, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	if err := setBig(full, fillBaseBytes/(4<<10)+10, func(k int) []byte { return bytes.Repeat([]byte{byte(k)}, 4<<10) }); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Store{"in memory": openMem(t), "full": full} {
		called := false
		err := s.Fill(context.Background(), func(*Filler) error { called = true; return nil })
		if !errors.Is(err, ErrNotEmpty) || called {
			t.Fatalf("%s: %v, fill called %v; want ErrNotEmpty and no call", name, err, called)
		}
	}
}

// A fill that fails, or is cancelled while it writes, leaves the store as
// it was (learnings included) and no files.
func TestFillFailureLeavesTheStore(t *testing.T) {
	x := newFillSample()
	bad := errors.New("bad input")
	for _, stage := range []string{"giving", "cancelled while giving", "cancelled while streaming", "refused",
		"failed as part 1 begins", "failed as part 3 begins", "failed as the last part begins", "cancelled in part 2"} {
		t.Run(stage, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{Schema: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			holdLearnings(t, s)
			before := contents(t, s)
			s.runBytes = 16 << 10
			s.partBytes = 8 << 10
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var want error = context.Canceled
			var at int // the part that fails
			fmt.Sscanf(stage, "failed as part %d begins", &at)
			if stage == "failed as the last part begins" {
				at = s.db.Opts().MaxLevels - 1
			}
			if at > 0 {
				want = bad
				s.loading = func(n int) error {
					if n == at {
						return bad
					}
					return nil
				}
			}
			if stage == "cancelled in part 2" {
				// Noticed further on, among the part's keys or a
				// later part's.
				s.loading = func(n int) error {
					if n == 2 {
						cancel()
					}
					return nil
				}
			}
			err = s.Fill(ctx, func(f *Filler) error {
				switch stage {
				case "giving":
					want = bad
					if err := x.give(f); err != nil {
						return err
					}
					return bad
				case "cancelled while giving":
					cancel()
				case "cancelled while streaming":
					s.loading = func(int) error { cancel(); return nil }
				case "refused":
					want = ErrTooBig
					if err := f.Set("axs", "big", make([]byte, maxValue+1)); err != nil {
						return err
					}
				}
				return x.give(f)
			})
			if !errors.Is(err, want) {
				t.Fatalf("got %v, want %v", err, want)
			}
			if got := contents(t, s); got != before {
				t.Fatalf("the failed fill changed the store:\n%.1000s", got)
			}
			if left := leftovers(t, dir); len(left) > 0 {
				t.Fatalf("left behind: %v", left)
			}
			s.Close()
			if s, err = Open(dir, Options{Schema: 1}); err != nil || s.Rebuilt() {
				t.Fatalf("reopen: %v", err)
			}
			if got := contents(t, s); got != before {
				t.Fatal("after reopening, the store is not as it was")
			}
		})
	}
}

// While a fill runs, readers of the same Store wait for it: each sees the
// store as it was or as it is after, never a part of the fill, nor the
// database reopened between its parts.
func TestFillReadersSeeAllOrNothing(t *testing.T) {
	x := newFillSample()
	s, err := Open(t.TempDir(), Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.runBytes, s.partBytes = 16<<10, 8<<10
	ref := openMem(t)
	x.write(t, ref)
	full := len(exported(t, ref).Edges)
	started := make(chan struct{})
	done := make(chan struct{})
	var wg sync.WaitGroup
	seen := map[int]bool{}
	var mu sync.Mutex
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-started
			for {
				n := 0
				err := s.View(func(tx *Tx) error {
					return tx.Scan("axs", "", func(string, []byte) error { n++; return nil })
				})
				if err != nil {
					t.Error(err)
					return
				}
				edges, err := s.Edges(fileID(1), Out, Filter{})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				seen[n] = true
				mu.Unlock()
				if n > 0 && len(edges) == 0 {
					t.Errorf("a reader saw %d entries and no edges", n)
				}
				select {
				case <-done:
					return
				default:
				}
			}
		}()
	}
	err = s.Fill(context.Background(), func(f *Filler) error {
		close(started)
		time.Sleep(20 * time.Millisecond) // the readers are waiting now
		return x.give(f)
	})
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(exported(t, s).Edges); got != full {
		t.Fatalf("%d edges, want %d", got, full)
	}
	if len(seen) > 2 {
		t.Fatalf("readers saw %d states of the store, want the one before and the one after", len(seen))
	}
}

// fillChild is the child "fill-stage DIR STAGE": it fills the store
// with the sample, prints STAGE when it gets there ("giving": halfway
// through; "streaming": the stream writer has begun to replace the
// tables) and waits to be killed.
func fillChild(s *Store, stage string) int {
	x := newFillSample()
	s.runBytes = 16 << 10
	hold := func() {
		fmt.Println(stage)
		time.Sleep(time.Hour)
	}
	switch stage {
	case "streaming":
		s.loading = func(int) error { hold(); return nil }
	case "parts":
		// Killed after two parts were written and the database was
		// reopened.
		s.partBytes = 8 << 10
		s.loading = func(n int) error {
			if n == 3 {
				hold()
			}
			return nil
		}
	}
	err := s.Fill(context.Background(), func(f *Filler) error {
		half := x
		half.edges = x.edges[:len(x.edges)/2]
		if err := half.give(f); err != nil {
			return err
		}
		if stage == "giving" {
			hold()
		}
		rest := fillSample{edges: x.edges[len(x.edges)/2:]}
		return rest.give(f)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 5
	}
	return 0
}

// A fill killed while it is given its keys leaves the store as it was;
// one killed while the stream writer replaces the tables leaves a marker
// that makes the next Open report damage, so that the caller rebuilds
// the store. Neither leaves a spilled run behind.
func TestFillKilled(t *testing.T) {
	for _, stage := range []string{"giving", "streaming", "parts"} {
		t.Run(stage, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{Schema: 1})
			if err != nil {
				t.Fatal(err)
			}
			holdLearnings(t, s)
			before := contents(t, s)
			s.Close()
			s, err = killChild(t, dir, "fill-stage "+dir+" "+stage, stage)
			if stage == "giving" {
				if err != nil || s.Rebuilt() {
					t.Fatalf("reopen after a kill while giving: %v", err)
				}
				defer s.Close()
				if got := contents(t, s); got != before {
					t.Fatalf("a fill killed while giving changed the store:\n%.1000s", got)
				}
				return
			}
			wantMarked(t, s, err)
		})
	}
}

// A fill's Delete removes a key the store held before it, as a batch's
// does, and its Set replaces one.
func TestFillDeletesWhatTheStoreHeld(t *testing.T) {
	ref := openMem(t)
	holdLearnings(t, ref)
	err := ref.Batch(func(b *Batch) error {
		if err := b.Delete("lrn", "k1"); err != nil {
			return err
		}
		return b.Set("lrn", "k2", []byte("retitled"))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := contents(t, ref)

	s, err := Open(t.TempDir(), Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	holdLearnings(t, s)
	err = s.Fill(context.Background(), func(f *Filler) error {
		if err := f.Delete("lrn", "k1"); err != nil {
			return err
		}
		return f.Set("lrn", "k2", []byte("retitled"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := contents(t, s); got != want {
		t.Fatalf("fill differs from a batch:\n%s\n---\n%s", got, want)
	}
}
