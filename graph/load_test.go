package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"
)

// loadSample is a load with every kind of key: directed and symmetric
// edges, relations, invalidated ones, and keys given twice far apart (the
// later wins), with fixed times so that two loads export alike.
func loadSample(n int) ([]Node, []Edge) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var nodes []Node
	for i := range 50 {
		nodes = append(nodes, Node{ID: fileID(i), Attrs: map[string]string{"lang": "go", "n": itoa(i)}})
	}
	var edges []Edge
	for i := range n {
		e := Edge{From: fileID(i % 97), To: fileID(i*7%301 + 1), Weight: float64(i%10+1) / 10, CreatedAt: at, UpdatedAt: at, Version: 1, Mentions: 1}
		switch i % 5 {
		case 0, 1:
			e.Type = Imports
		case 2:
			e.Type = CoChangesWith
		case 3:
			e.Type = LinksTo
			e.From, e.To = "learning:l"+itoa(i%13), "learning:m"+itoa(i%17)
			e.Relation = []string{"caused_by", "see_also", "a"}[i%3]
		case 4:
			e.Type = InvalidatedBy
			inv := at.Add(time.Hour)
			e.From, e.To, e.InvalidatedAt, e.InvalidReason = "learning:l"+itoa(i%11), "commit:c"+itoa(i%29), &inv, "gone"
		}
		if e.From == e.To {
			continue
		}
		edges = append(edges, e)
	}
	return nodes, edges
}

func exportString(t *testing.T, s *Store) string {
	t.Helper()
	var b bytes.Buffer
	if err := s.Export(context.Background(), &b, JSON); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A load sorted in many runs spilled to files writes what one sorted in
// memory writes, through the stream writer and through a batch alike, the
// last of equal keys winning across runs.
func TestLoadInRuns(t *testing.T) {
	ctx := context.Background()
	nodes, edges := loadSample(4000)
	ref := openMem(t)
	if err := ref.Load(ctx, nodes, edges); err != nil {
		t.Fatal(err)
	}
	want := exportString(t, ref)
	// The last of each key wins: check one given many times.
	last := map[EdgeKey]float64{}
	for _, e := range edges {
		last[e.Key().canonical()] = e.Weight
	}
	for k, w := range last {
		got, err := ref.Edge(k)
		if err != nil || got.Weight != w {
			t.Fatalf("%s: %v weight %v, want the last given, %v", k, err, got.Weight, w)
		}
	}
	for _, name := range []string{"stream", "stream in parts", "batch"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{Schema: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			s.runBytes = 4 << 10
			parts := 0
			s.loading = func(n int) error { parts = n; return nil }
			switch name {
			case "stream":
				s.streamMin = 0
			case "stream in parts":
				s.streamMin, s.partBytes = 0, 4<<10
			default:
				s.streamMin = 1 << 30
			}
			hidden := false
			err = s.LoadFrom(ctx, reading(nodes, edges, len(edges)/2, func() {
				// Spilled runs are removed while open.
				hidden = len(leftovers(t, dir)) == 0
			}))
			if err != nil {
				t.Fatal(err)
			}
			if !hidden {
				t.Fatal("spilled runs visible in the store's directory")
			}
			if got := exportString(t, s); got != want {
				t.Fatalf("load in runs differs from one in memory:\n%.2000s\n---\n%.2000s", got, want)
			}
			checkAdjacency(t, s)
			if left := leftovers(t, dir); len(left) > 0 {
				t.Fatalf("left behind: %v", left)
			}
			switch name {
			case "stream":
				wantParts(t, s, parts, "one")
			case "stream in parts":
				wantParts(t, s, parts, "all")
			}
		})
	}
}

// leftovers lists the files of loads in dir: spilled runs and markers.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	for _, p := range []string{runFilePattern, loadMarkPrefix + "*", markingPrefix + "*"} {
		m, err := filepath.Glob(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		found = append(found, m...)
	}
	return found
}

// A load that fails while it reads, or is cancelled while the stream
// writer replaces the tables, leaves the store as it was and no files.
func TestLoadFailureWritesNothing(t *testing.T) {
	ctx := context.Background()
	nodes, edges := loadSample(3000)
	for _, stage := range []string{"reading into an empty store", "reading into a graph", "streaming"} {
		t.Run(stage, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{Schema: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			s.runBytes, s.streamMin = 4<<10, 0
			if stage == "reading into a graph" {
				mustUpsert(t, s, Edge{Type: Imports, From: "file:x", To: "file:y", Weight: 1})
			}
			before := exportString(t, s)
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			bad := errors.New("bad input")
			if stage == "streaming" {
				s.loading = func(int) error { cancel(); return nil }
			}
			err = s.LoadFrom(ctx, func(node func(Node) error, edge func(Edge) error) error {
				err := reading(nodes, edges, -1, nil)(node, edge)
				if err != nil || stage == "streaming" {
					return err
				}
				return bad
			})
			if stage == "streaming" && !errors.Is(err, context.Canceled) || stage != "streaming" && err != bad {
				t.Fatalf("got %v", err)
			}
			if got := exportString(t, s); got != before {
				t.Fatalf("the failed load changed the store:\n%.1000s", got)
			}
			if left := leftovers(t, dir); len(left) > 0 {
				t.Fatalf("left behind: %v", left)
			}
			s.Close()
			s, err = Open(dir, Options{Schema: 1})
			if err != nil || s.Rebuilt() {
				t.Fatalf("reopen: %v, rebuilt %v", err, err == nil && s.Rebuilt())
			}
			if got := exportString(t, s); got != before {
				t.Fatalf("after reopening:\n%.1000s", got)
			}
		})
	}
}

// loadChild is the child "load DIR STAGE": it loads a sample into the
// store with runs spilled to files, prints STAGE when it gets there
// ("reading": halfway through its input; "streaming": the stream writer
// has begun to replace the tables) and waits to be killed.
func loadChild(s *Store, stage string) int {
	nodes, edges := loadSample(3000)
	s.runBytes, s.streamMin = 4<<10, 0
	hold := func() {
		fmt.Println(stage)
		time.Sleep(time.Hour)
	}
	if stage == "streaming" {
		s.loading = func(int) error { hold(); return nil }
	}
	at := -1
	if stage == "reading" {
		at = len(edges) / 2
	}
	err := s.LoadFrom(context.Background(), reading(nodes, edges, at, hold))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 5
	}
	return 0
}

// A load killed while it reads leaves the store as it was; one killed
// while the stream writer replaces the tables leaves a marker that makes
// the next Open report damage, so that the caller rebuilds the store.
// Neither leaves a spilled run behind.
func TestLoadKilled(t *testing.T) {
	for _, stage := range []string{"reading", "streaming"} {
		t.Run(stage, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{Schema: 1})
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			s, err = killChild(t, dir, "load "+dir+" "+stage, stage)
			if stage == "reading" {
				if err != nil || s.Rebuilt() {
					t.Fatalf("reopen after a kill while reading: %v", err)
				}
				defer s.Close()
				if g := exported(t, s); len(g.Nodes)+len(g.Edges) > 0 {
					t.Fatalf("a load killed while reading wrote %d nodes, %d edges", len(g.Nodes), len(g.Edges))
				}
				return
			}
			wantMarked(t, s, err)
		})
	}
}

// killChild starts the child spec, kills it once it has printed stage
// and opens dir again, after checking that no spilled run is left there.
func killChild(t *testing.T, dir, spec, stage string) (*Store, error) {
	t.Helper()
	cmd, out := startChild(t, spec)
	if !out.Scan() || out.Text() != stage {
		t.Fatalf("child did not get to %s: %q", stage, out.Text())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if names, _ := filepath.Glob(filepath.Join(dir, runFilePattern)); len(names) > 0 {
		t.Fatalf("spilled runs left behind: %v", names)
	}
	return Open(dir, Options{Schema: 1, LockTimeout: 5 * time.Second})
}

// wantMarked checks what opening a store whose writer was killed while
// the stream writer replaced its tables gave: ErrCorrupt, naming the
// marker the writer left.
func wantMarked(t *testing.T, s *Store, err error) {
	t.Helper()
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		if err == nil {
			s.Close()
		}
		t.Skip("no load markers here (openmark_other.go): a writer killed while streaming is not detected")
	}
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), loadMarkPrefix) {
		t.Fatalf("reopen after a kill while streaming: %v, want ErrCorrupt naming the marker", err)
	}
}

// appendKV writes what badger.KVToBuffer writes for the same key and value.
func TestAppendKV(t *testing.T) {
	long := bytes.Repeat([]byte("v"), 300) // a length of two varint bytes
	for _, kv := range [][2][]byte{{[]byte("k"), []byte("v")}, {[]byte("key"), nil}, {[]byte("o\x00\x01"), long}} {
		want := z.NewBuffer(1<<10, "test")
		got := z.NewBuffer(1<<10, "test")
		badger.KVToBuffer(&pb.KV{Key: kv[0], Value: kv[1], Version: 1}, want)
		appendKV(got, kv[0], kv[1])
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%q: got %x, want %x", kv[0], got.Bytes(), want.Bytes())
		}
		want.Release()
		got.Release()
	}
}

// An edge the loader refuses ends the load with its error even though read
// goes on and fails otherwise: read's callbacks return the refusal (read
// runs in a goroutine of its own, which must end too), and nothing is
// written.
func TestLoadRefusalStopsRead(t *testing.T) {
	s := openMem(t)
	before := exportString(t, s)
	nodes, edges := loadSample(8000) // many more edges than batches in flight
	bad := Edge{Type: Imports, From: "file:a", To: "file:a", Weight: 1}
	var afterRefusal error
	gave := 0
	err := s.LoadFrom(context.Background(), func(node func(Node) error, edge func(Edge) error) error {
		for _, n := range nodes {
			if err := node(n); err != nil {
				return err
			}
		}
		all := append(append(slices.Clone(edges[:10]), bad), edges[10:]...)
		for _, e := range all {
			gave++
			if err := edge(e); err != nil {
				afterRefusal = err
				return err
			}
		}
		return errors.New("read failed after the refused edge")
	})
	if !errors.Is(err, ErrSelfLink) {
		t.Fatalf("got %v, want the refused edge's error", err)
	}
	if afterRefusal == nil || gave == len(edges)+1 {
		t.Fatalf("read was not stopped: it gave all %d edges", gave)
	}
	if got := exportString(t, s); got != before {
		t.Fatalf("the refused load wrote:\n%.500s", got)
	}
}
