package graph

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Child processes: the test binary re-executed with LORE_GRAPH_CHILD set.
//
//	hold DIR MS   open DIR, print "ready", hold it MS milliseconds, close
//	write DIR     open DIR and commit edges and KV pairs forever, printing
//	              the number of each committed transaction
//	fill DIR      create DIR, commit 200 values of 4 KiB, print "filled"
//	              and wait to be killed before Badger closes
//	read DIR      open DIR, read every edge and KV pair, print "read"
//	load DIR STAGE  open DIR and load in bulk, stopping at STAGE (loadChild)
//	fill-stage DIR STAGE  open DIR and fill it, stopping at STAGE (fillChild)
func TestMain(m *testing.M) {
	if spec := os.Getenv("LORE_GRAPH_CHILD"); spec != "" {
		os.Exit(child(strings.Fields(spec)))
	}
	os.Exit(m.Run())
}

func child(args []string) int {
	s, err := Open(args[1], Options{Schema: 1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	switch args[0] {
	case "hold":
		ms, _ := strconv.Atoi(args[2])
		fmt.Println("ready")
		time.Sleep(time.Duration(ms) * time.Millisecond)
		if err := s.Close(); err != nil {
			return 4
		}
	case "load":
		return loadChild(s, args[2])
	case "fill-stage":
		return fillChild(s, args[2])
	case "read":
		if err := readStore(s); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 5
		}
		fmt.Println("read")
	case "fill":
		if err := setBig(s, 200, func(k int) []byte { return bytes.Repeat([]byte{byte(k)}, 4<<10) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 5
		}
		fmt.Println("filled")
		time.Sleep(time.Hour)
	case "write":
		for i := 0; ; i++ {
			err := s.Update(func(tx *Tx) error {
				for j := range 20 {
					e := Edge{Type: Imports, From: fileID(i), To: fileID(i*20 + j + 1_000_000), Weight: 0.5}
					if _, err := tx.UpsertEdge(e); err != nil {
						return err
					}
				}
				return tx.Set("kv", fmt.Sprintf("%08d", i), bytes.Repeat([]byte{'x'}, 100))
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 5
			}
			fmt.Println(i)
		}
	}
	return 0
}

func startChild(t *testing.T, spec string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LORE_GRAPH_CHILD="+spec)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(out)
}

func TestLockWaitAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	cmd, out := startChild(t, "hold "+dir+" 700")
	if !out.Scan() || out.Text() != "ready" {
		t.Fatalf("child did not start: %q", out.Text())
	}
	// Too short a wait fails with ErrLocked naming the holder.
	start := time.Now()
	_, err := Open(dir, Options{Schema: 1, LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("got %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("error does not name the holder: %v", err)
	}
	if d := time.Since(start); d < 80*time.Millisecond || d > 2*time.Second {
		t.Fatalf("waited %s for a 100ms timeout", d)
	}
	// A long enough wait gets the store once the child closes it.
	s, err := Open(dir, Options{Schema: 1, LockTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if d := time.Since(start); d < 500*time.Millisecond {
		t.Fatalf("opened after %s while the child held the lock for 700ms", d)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
}

func TestCrashRecovery(t *testing.T) {
	dir := t.TempDir()
	cmd, out := startChild(t, "write "+dir)
	last := -1
	for out.Scan() {
		last, _ = strconv.Atoi(out.Text())
		if last >= 150 {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if last < 150 {
		t.Fatalf("child wrote only %d transactions", last)
	}
	s, err := Open(dir, Options{Schema: 1, LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("reopen after kill -9: %v", err)
	}
	defer s.Close()
	if s.Rebuilt() {
		t.Fatal("crash must not trigger a rebuild")
	}
	// Every transaction the child reported is there, whole.
	for i := 0; i <= last; i++ {
		es, err := s.Edges(fileID(i), Out, Filter{})
		if err != nil || len(es) != 20 {
			t.Fatalf("transaction %d: %v, %d edges", i, err, len(es))
		}
		err = s.View(func(tx *Tx) error {
			_, err := tx.Get("kv", fmt.Sprintf("%08d", i))
			return err
		})
		if err != nil {
			t.Fatalf("kv %d: %v", i, err)
		}
	}
	checkAdjacency(t, s)
	// And the store takes writes again.
	mustUpsert(t, s, Edge{Type: Imports, From: "file:after", To: "file:crash", Weight: 1})
}

// A writer killed between creating a log file and sizing it leaves an
// empty .mem or .vlog file, on which Badger's Open fails
// (dgraph-io/badger#2207). The next open removes it and keeps every value.
func TestEmptyLogFilesAfterCrash(t *testing.T) {
	for _, name := range []string{"00009.mem", "000009.vlog"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{Schema: 1})
			if err != nil {
				t.Fatal(err)
			}
			mustUpsert(t, s, Edge{Type: Imports, From: "file:a", To: "file:b", Weight: 1})
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, rw := range []bool{false, true} {
				s, err := Open(dir, Options{Schema: 1, ReadWrite: rw})
				if err != nil {
					t.Fatalf("open (read-write %v) with an empty %s: %v", rw, name, err)
				}
				es, err := s.Edges("file:a", Out, Filter{})
				if err != nil || len(es) != 1 {
					t.Errorf("edges after recovery: %v, %v", es, err)
				}
				s.Close()
			}
		})
	}
}

// checkAdjacency verifies that every edge is visible from both ends.
func checkAdjacency(t *testing.T, s *Store) {
	t.Helper()
	g := exported(t, s)
	for _, e := range g.Edges {
		for _, end := range []struct {
			id  string
			dir Direction
		}{{e.From, Out}, {e.To, In}} {
			es, err := s.Edges(end.id, end.dir, Filter{Types: []EdgeType{e.Type}, IncludeInvalidated: true})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, x := range es {
				found = found || x.Key() == e.Key()
			}
			if !found {
				t.Fatalf("%s not visible from %s", e.Key(), end.id)
			}
		}
	}
}

func TestSchemaRebuild(t *testing.T) {
	dir := t.TempDir()
	open := func(schema int) *Store {
		t.Helper()
		s, err := Open(dir, Options{Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open(1)
	if s.Rebuilt() {
		t.Fatal("fresh store reported rebuilt")
	}
	mustUpsert(t, s, Edge{Type: Imports, From: "file:a", To: "file:b", Weight: 1})
	s.Close()
	s = open(1)
	if s.Rebuilt() {
		t.Fatal("same schema rebuilt")
	}
	if _, err := s.Node("file:a"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(2)
	if !s.Rebuilt() {
		t.Fatal("schema change did not rebuild")
	}
	if _, err := s.Node("file:a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("data survived a rebuild: %v", err)
	}
	// Uids restart cleanly after a rebuild and survive a reopen.
	mustUpsert(t, s, Edge{Type: Imports, From: "file:c", To: "file:d", Weight: 1})
	s.Close()
	s = open(2)
	defer s.Close()
	mustUpsert(t, s, Edge{Type: Imports, From: "file:e", To: "file:f", Weight: 1})
	for _, id := range []string{"file:c", "file:d", "file:e", "file:f"} {
		es, err := s.Edges(id, Both, Filter{})
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v %+v", id, err, es)
		}
	}
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
}

func TestKV(t *testing.T) {
	s := openMem(t)
	err := s.Update(func(tx *Tx) error {
		val := []byte("v1")
		if err := tx.Set("ns", "a/1", val); err != nil {
			return err
		}
		val[0] = 'X' // Set must have copied
		for _, k := range []string{"a/2", "a/3", "b/1"} {
			if err := tx.Set("ns", k, []byte(k)); err != nil {
				return err
			}
		}
		return tx.Set("other", "a/1", []byte("other"))
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(func(tx *Tx) error {
		v, err := tx.Get("ns", "a/1")
		if err != nil || string(v) != "v1" {
			return fmt.Errorf("get: %q %v", v, err)
		}
		v[0] = 'Z'
		if v, _ := tx.Get("ns", "a/1"); string(v) != "v1" {
			return fmt.Errorf("Get returned shared bytes")
		}
		if _, err := tx.Get("ns", "zz"); !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("missing: %v", err)
		}
		var keys []string
		if err := tx.Scan("ns", "a/", func(k string, v []byte) error {
			keys = append(keys, k+"="+string(v))
			return nil
		}); err != nil {
			return err
		}
		if strings.Join(keys, " ") != "a/1=v1 a/2=a/2 a/3=a/3" {
			return fmt.Errorf("scan: %v", keys)
		}
		keys = nil
		if err := tx.Keys("ns", "", func(k string) error { keys = append(keys, k); return nil }); err != nil {
			return err
		}
		if strings.Join(keys, " ") != "a/1 a/2 a/3 b/1" {
			return fmt.Errorf("keys: %v", keys)
		}
		stop := errors.New("stop")
		n := 0
		if err := tx.Keys("ns", "", func(string) error { n++; return stop }); err != stop || n != 1 {
			return fmt.Errorf("stop: %v %d", err, n)
		}
		if err := tx.Set("ns", "x", nil); err == nil {
			return fmt.Errorf("Set in View succeeded")
		}
		if _, err := tx.Get("", "x"); err == nil {
			return fmt.Errorf("empty namespace accepted")
		}
		if _, err := tx.Get("a\x00b", "x"); err == nil {
			return fmt.Errorf("NUL in namespace accepted")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(func(tx *Tx) error { return tx.Delete("ns", "a/2") }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(func(tx *Tx) error { return tx.Delete("ns", "never") }); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
	s.View(func(tx *Tx) error {
		if _, err := tx.Get("ns", "a/2"); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted key: %v", err)
		}
		if v, _ := tx.Get("other", "a/1"); string(v) != "other" {
			t.Errorf("namespaces leak: %q", v)
		}
		return nil
	})
	// A failing Update commits nothing.
	boom := errors.New("boom")
	err = s.Update(func(tx *Tx) error {
		tx.Set("ns", "ghost", []byte("x"))
		mustNot(tx.UpsertEdge(Edge{Type: Imports, From: "file:g1", To: "file:g2", Weight: 1}))
		return boom
	})
	if err != boom {
		t.Fatalf("got %v", err)
	}
	if _, err := s.Node("file:g1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("aborted transaction left a node: %v", err)
	}
}

func mustNot(_ Edge, _ error) {}

func TestBatch(t *testing.T) {
	s := openMem(t)
	const n = 200_000
	err := s.Batch(func(b *Batch) error {
		for i := range n {
			if err := b.Set("bulk", fmt.Sprintf("%07d", i), []byte{byte(i)}); err != nil {
				return err
			}
		}
		for i := range 20_000 {
			if err := b.UpsertEdge(Edge{Type: Imports, From: fileID(i), To: fileID(i + 1), Weight: 1}); err != nil {
				return err
			}
		}
		// Later operations see earlier ones, across internal commits.
		if err := b.RemoveNode(fileID(10)); err != nil {
			return err
		}
		if err := b.InvalidateEdge(EdgeKey{Type: Imports, From: fileID(100), To: fileID(101)}, "test"); err != nil {
			return err
		}
		if err := b.UpsertEdge(Edge{Type: Imports, From: fileID(0), To: fileID(1), Weight: 0.5}); err != nil {
			return err
		}
		if err := b.RemoveEdge(EdgeKey{Type: Imports, From: "file:none", To: fileID(1)}); !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("remove missing: %v", err)
		}
		return b.Delete("bulk", "0000000")
	})
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	s.View(func(tx *Tx) error {
		return tx.Keys("bulk", "", func(string) error { count++; return nil })
	})
	if count != n-1 {
		t.Fatalf("%d keys", count)
	}
	st, _ := s.Stats()
	if st.Edges != 20_000-2 || st.Invalidated != 1 {
		t.Fatalf("stats %+v", st)
	}
	if e, _ := s.Edge(EdgeKey{Type: Imports, From: fileID(0), To: fileID(1)}); e.Version != 2 || e.Weight != 0.5 {
		t.Fatalf("edge %+v", e)
	}
	// Set copies its value, SetOwned keeps it; both store it; a bad
	// namespace is refused by both.
	val, owned := []byte("copied"), []byte("kept")
	err = s.Batch(func(b *Batch) error {
		if err := b.Set("bulk", "set", val); err != nil {
			return err
		}
		val[0] = 'X' // the caller may reuse a value given to Set
		if err := b.SetOwned("bulk", "owned", owned); err != nil {
			return err
		}
		if err := b.SetOwned("", "k", nil); err == nil {
			return errors.New("SetOwned took an empty namespace")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *Tx) error {
		for k, want := range map[string]string{"set": "copied", "owned": "kept"} {
			if v, err := tx.Get("bulk", k); err != nil || string(v) != want {
				t.Errorf("%s: %q, %v; want %q", k, v, err, want)
			}
		}
		return nil
	})
	// A failing batch function stops the batch.
	boom := errors.New("boom")
	if err := s.Batch(func(b *Batch) error { return boom }); err != boom {
		t.Fatal(err)
	}
}

// TestShortWriterRuns opens the store, writes a little and closes it many
// times, as hooks and editors do, and checks that tables do not pile up.
func TestShortWriterRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	for i := range 60 {
		s, err := Open(dir, Options{Schema: 1})
		if err != nil {
			t.Fatal(err)
		}
		mustUpsert(t, s, Edge{Type: Imports, From: fileID(i), To: fileID(i + 1), Weight: 1})
		if err := s.Update(func(tx *Tx) error { return tx.Set("runs", fmt.Sprint(i), []byte("x")) }); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tables := 0
	for _, n := range s.Tables() {
		tables += n
	}
	if tables > 12 {
		t.Fatalf("%d tables after 60 short runs: %v", tables, s.Tables())
	}
	rs, err := s.Traverse(context.Background(), TraverseOptions{Seeds: []string{fileID(0)}, Direction: Out, Depth: 5})
	if err != nil || len(rs) != 5 {
		t.Fatalf("%v %d", err, len(rs))
	}
	t.Logf("tables per level after 60 runs: %v", s.Tables())
}

// TestShortWritersKeepValueLogSmall rewrites the same large values in one
// short writer after another, as a hook re-indexing on every commit does:
// the first writer of the new store sends them to the value log, later
// ones keep them in the tree (see valueThreshold), and the value-log files
// left behind do not pile up.
func TestShortWritersKeepValueLogSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	big := bytes.Repeat([]byte("v"), 64<<10)
	const runs = 40
	for i := range runs {
		big[0] = byte(i)
		writeRun(t, dir, func(tx *Tx) error {
			for k := range 4 {
				if err := tx.Set("big", fmt.Sprint(k), big); err != nil {
					return err
				}
			}
			return nil
		})
	}
	logs := valueLogs(t, dir)
	t.Logf("%d value-log files after %d writers", logs, runs)
	if logs > 2*compactL0At {
		t.Fatalf("%d value-log files after %d writers that each rewrote the same values", logs, runs)
	}
	checkBig(t, dir, 4, func(int) []byte { return big })
}

// TestShortWritersAfterBulkFill fills a new store in bulk with values the
// first writer sends to the value log, then has short writers rewrite one
// of them each, as a hook re-indexing one file per commit does: the
// rewritten values must not leave a value-log file per run behind
// (Badger's collection only rewrites the file with the most stale bytes,
// one of the bulk writer's, and only once half of it is stale).
func TestShortWritersAfterBulkFill(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	val := func(k, run int) []byte {
		v := bytes.Repeat([]byte{byte(k)}, 10<<10)
		v[0] = byte(run)
		return v
	}
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !s.created {
		t.Fatal("a new store is not marked created")
	}
	if got := s.valueLogFileSize(); got != bulkLogFileSize {
		t.Errorf("the creating writer's value-log files: %d bytes, want %d", got, bulkLogFileSize)
	}
	if err := setBig(s, 400, func(k int) []byte { return val(k, 0) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	bulk := valueLogs(t, dir)
	later, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := later.valueLogFileSize(); got != shortLogFileSize {
		t.Errorf("a later writer's value-log files: %d bytes, want %d", got, shortLogFileSize)
	}
	later.Close()
	const runs = 30
	for run := 1; run <= runs; run++ {
		if writeRun(t, dir, func(tx *Tx) error { return tx.Set("big", "7", val(7, run)) }) {
			t.Fatal("an existing store is marked created")
		}
	}
	after := valueLogs(t, dir)
	t.Logf("value-log files: %d after the bulk fill, %d after %d short writers", bulk, after, runs)
	if after > bulk+2 { // the last writer's log, and an empty one the next open removes
		t.Fatalf("%d value-log files after %d short writers (%d after the bulk fill)", after, runs, bulk)
	}
	checkBig(t, dir, 400, func(k int) []byte {
		if k == 7 {
			return val(7, runs)
		}
		return val(k, 0)
	})
}

// writeRun opens the store in dir, runs fn in one transaction and closes
// the store, as one short lore process does. It reports whether the store
// was marked created (see Store.created).
func writeRun(t *testing.T, dir string, fn func(*Tx) error) (created bool) {
	t.Helper()
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	created = s.created
	if err := s.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return created
}

// checkBig reopens the store in dir and checks that keys 0..n-1 of the
// namespace "big" hold want(k).
func checkBig(t *testing.T, dir string, n int, want func(k int) []byte) {
	t.Helper()
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(func(tx *Tx) error {
		for k := range n {
			v, err := tx.Get("big", fmt.Sprint(k))
			if err != nil {
				return err
			}
			if !bytes.Equal(v, want(k)) {
				return fmt.Errorf("value %d differs", k)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// setBig commits values val(0) … val(n-1) under keys "big" 0 … n-1 in one
// batch.
func setBig(s *Store, n int, val func(k int) []byte) error {
	return s.Batch(func(b *Batch) error {
		for k := range n {
			if err := b.SetOwned("big", fmt.Sprint(k), val(k)); err != nil {
				return err
			}
		}
		return nil
	})
}

// upsertEdge writes one IMPORTS edge from one node to another.
func upsertEdge(s *Store, from, to string) error {
	return s.Update(func(tx *Tx) error {
		_, err := tx.UpsertEdge(Edge{Type: Imports, From: from, To: to, Weight: 1})
		return err
	})
}

// valueLogs counts the value-log files in dir.
func valueLogs(t *testing.T, dir string) int {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "*.vlog"))
	if err != nil {
		t.Fatal(err)
	}
	return len(logs)
}

// TestBatchReplaysAfterConflict makes a transaction commit a change to an
// edge the batch has read but not committed: the batch's commit conflicts,
// and the batch replays its operations on the new state instead of losing
// either write.
func TestBatchReplaysAfterConflict(t *testing.T) {
	s := openMem(t)
	e := Edge{Type: Imports, From: "file:a", To: "file:b", Weight: 0.5}
	err := s.Batch(func(b *Batch) error {
		if err := b.UpsertEdge(e); err != nil {
			return err
		}
		_, err := s.UpsertEdge(Edge{Type: Imports, From: "file:a", To: "file:b", Weight: 1})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Edge(e.Key())
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || got.Mentions != 2 || got.Weight != 0.5 {
		t.Fatalf("after replay: %+v", got)
	}
}

func TestCancel(t *testing.T) {
	s := openMem(t)
	var es []Edge
	for i := range 5000 {
		es = append(es, Edge{Type: Imports, From: fileID(i), To: fileID(i + 1), Weight: 1})
	}
	if err := s.Load(context.Background(), nil, es); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Export(ctx, io.Discard, JSON); !errors.Is(err, context.Canceled) {
		t.Fatalf("export: %v", err)
	}
	if err := s.Load(ctx, nil, es); !errors.Is(err, context.Canceled) {
		t.Fatalf("load: %v", err)
	}
	if err := s.ReplaceEdges(ctx, Imports, es); !errors.Is(err, context.Canceled) {
		t.Fatalf("replace: %v", err)
	}
}

// A Store opened on an existing database starts read-only: several may be
// open at once, and the first write reopens the database for writing.
func TestReadOnlyUntilFirstWrite(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, s, Edge{Type: Imports, From: "file:a.go", To: "file:b.go", Weight: 1})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := Open(dir, Options{Schema: 1, LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	// a never closes before b is open: b would time out if a held the
	// database exclusively.
	b, err := Open(dir, Options{Schema: 1, LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	if !a.readOnly.Load() || !b.readOnly.Load() {
		t.Fatal("readers did not open read-only")
	}
	// Both upgrade; whichever writes second waits for the first to close
	// and must see its node (no uid handed out twice).
	done := make(chan error, 1)
	go func() {
		_, err := a.UpsertEdge(Edge{Type: Imports, From: "file:a.go", To: "file:from-a.go", Weight: 1})
		if err == nil {
			err = a.Close()
		}
		done <- err
	}()
	if _, err := b.UpsertEdge(Edge{Type: Imports, From: "file:b.go", To: "file:from-b.go", Weight: 1}); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	c, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, id := range []string{"file:from-a.go", "file:from-b.go", "file:a.go", "file:b.go"} {
		if _, err := c.Node(id); err != nil {
			t.Errorf("node %s: %v", id, err)
		}
	}
	es, err := c.Edges("file:a.go", Out, Filter{})
	if err != nil || len(es) != 2 {
		t.Fatalf("out-edges of a: %v %v", es, err)
	}
	if es, err = c.Edges("file:from-b.go", In, Filter{}); err != nil || len(es) != 1 || es[0].From != "file:b.go" {
		t.Fatalf("in-edges of from-b: %v %v", es, err)
	}
	checkAdjacency(t, c)
}

// A Store downgraded after a write reads what it wrote, lets another
// process open the database beside it, and writes again.
func TestDowngrade(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	a, err := Open(dir, Options{Schema: 1, LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	mustUpsert(t, a, Edge{Type: Imports, From: "file:a.go", To: "file:b.go", Weight: 1})
	if a.ReadOnly() {
		t.Fatal("read-only after a write")
	}
	if err := a.Downgrade(); err != nil {
		t.Fatal(err)
	}
	if !a.ReadOnly() {
		t.Fatal("not read-only after Downgrade")
	}
	if _, err := a.Node("file:b.go"); err != nil {
		t.Fatalf("own write after Downgrade: %v", err)
	}
	// Another process opens the database beside it at once.
	b, err := Open(dir, Options{Schema: 1, LockTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("open beside a downgraded store: %v", err)
	}
	if _, err := b.Node("file:b.go"); err != nil {
		t.Errorf("the other process does not see the write: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, a, Edge{Type: Imports, From: "file:a.go", To: "file:c.go", Weight: 1})
	if err := a.Downgrade(); err != nil {
		t.Fatal(err)
	}
	if err := a.Downgrade(); err != nil { // read-only: nothing to do
		t.Fatal(err)
	}
	es, err := a.Edges("file:a.go", Out, Filter{})
	if err != nil || len(es) != 2 {
		t.Fatalf("out-edges of a: %v %v", es, err)
	}
	checkAdjacency(t, a)
}

// A write from inside a read transaction of a read-only Store cannot
// reopen the database under it: it fails after the lock timeout.
func TestWriteInsideReadOnlyView(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(dir, Options{Schema: 1, LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(func(*Tx) error {
		return s.Update(func(tx *Tx) error { return tx.Set("kv", "k", nil) })
	})
	if err == nil || !strings.Contains(err.Error(), "read transaction") {
		t.Fatalf("got %v", err)
	}
	// Outside the read transaction the write goes through.
	if err := s.Update(func(tx *Tx) error { return tx.Set("kv", "k", []byte("v")) }); err != nil {
		t.Fatal(err)
	}
}

// Short writer runs leave one level-0 table each; a writer that finds
// compactL0At-1 of them compacts level 0 when it closes, so they never pile
// up, and reads see every write.
func TestShortWritersKeepLevelZeroSmall(t *testing.T) {
	dir := t.TempDir()
	for i := range 2 * compactL0At {
		s, err := Open(dir, Options{Schema: 1})
		if err != nil {
			t.Fatal(err)
		}
		mustUpsert(t, s, Edge{Type: Imports, From: fileID(i), To: fileID(i + 1), Weight: 1})
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if l0 := s.Tables()[0]; l0 >= compactL0At {
		t.Fatalf("%d level-0 tables after %d short writers (levels %v)", l0, 2*compactL0At, s.Tables())
	}
	for i := range 2 * compactL0At {
		if es, err := s.Edges(fileID(i), Out, Filter{}); err != nil || len(es) != 1 {
			t.Fatalf("edges of %s: %v %v", fileID(i), es, err)
		}
	}
}

// Options.ReadWrite skips the read-only start; short writers opened that way
// still keep level 0 small.
func TestReadWriteOption(t *testing.T) {
	dir := t.TempDir()
	for i := range compactL0At + 2 {
		s, err := Open(dir, Options{Schema: 1, ReadWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		if s.readOnly.Load() {
			t.Fatal("ReadWrite store opened read-only")
		}
		mustUpsert(t, s, Edge{Type: Imports, From: fileID(i), To: fileID(i + 1), Weight: 1})
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.readOnly.Load() {
		t.Fatal("default store did not open read-only")
	}
	if l0 := s.Tables()[0]; l0 >= compactL0At {
		t.Fatalf("%d level-0 tables (levels %v)", l0, s.Tables())
	}
}

// A creating writer killed after it committed and before Badger closed:
// every value it committed is there, then and after another writer.
func TestKilledCreatingWriter(t *testing.T) {
	dir := t.TempDir()
	cmd, out := startChild(t, "fill "+dir)
	if !out.Scan() || out.Text() != "filled" {
		t.Fatalf("child did not commit its values: %q", out.Text())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	want := func(k int) []byte { return bytes.Repeat([]byte{byte(k)}, 4<<10) }
	checkBig(t, dir, 200, want)
	if writeRun(t, dir, func(tx *Tx) error { return tx.Set("kv", "after", []byte("crash")) }) {
		t.Fatal("an existing store is marked created")
	}
	checkBig(t, dir, 200, want)
}

// Reopen closes and reopens a writer's handle: what was written before
// stays readable, the writer goes on writing as the store's creator (the
// bulk thresholds stay), a read-only store is left as it is, and a reopen
// from inside a transaction fails instead of waiting for itself.
func TestReopen(t *testing.T) {
	dir := t.TempDir()
	val := func(k int) []byte { return bytes.Repeat([]byte{byte(k)}, 4<<10) }
	s, err := Open(dir, Options{Schema: 1, LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := setBig(s, 200, val); err != nil {
		t.Fatal(err)
	}
	if err := upsertEdge(s, "file:a", "file:b"); err != nil {
		t.Fatal(err)
	}
	if err := s.Reopen(); err != nil {
		t.Fatal(err)
	}
	if !s.created || s.valueThreshold() != bulkValueThreshold {
		t.Errorf("reopened creator: created %v, value threshold %d", s.created, s.valueThreshold())
	}
	err = s.Batch(func(b *Batch) error {
		for k := 200; k < 300; k++ {
			if err := b.SetOwned("big", fmt.Sprint(k), val(k)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := upsertEdge(s, "file:b", "file:c"); err != nil {
		t.Fatal(err)
	}
	err = s.View(func(*Tx) error { return s.Reopen() })
	if err == nil || !strings.Contains(err.Error(), "transaction") {
		t.Errorf("reopen inside a transaction: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Reopen(); err != nil || !s.ReadOnly() {
		t.Errorf("reopen of a read-only store: %v, read-only %v", err, s.ReadOnly())
	}
	err = s.View(func(tx *Tx) error {
		for k := range 300 {
			v, err := tx.Get("big", fmt.Sprint(k))
			if err != nil {
				return fmt.Errorf("%d: %w", k, err)
			}
			if !bytes.Equal(v, val(k)) {
				return fmt.Errorf("%d: value differs", k)
			}
		}
		for _, from := range []string{"file:a", "file:b"} {
			out, err := tx.Edges(from, Out, Filter{Types: []EdgeType{Imports}})
			if err != nil {
				return err
			}
			if len(out) != 1 {
				return fmt.Errorf("%s: %d out-edges, want 1", from, len(out))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReopenReleasesWrittenPages: after Reopen, the pages a writer wrote
// to the store's files are no longer the process's memory (Badger reads
// its last value-log file back at every open for writing, which Reopen
// must not leave mapped), and reopening again and again, with and
// without writes between, leaves a bounded number of value-log files.
func TestReopenReleasesWrittenPages(t *testing.T) {
	if _, err := os.Stat("/proc/self/smaps"); err != nil {
		t.Skip("no /proc/self/smaps to read the resident pages from")
	}
	dir := t.TempDir()
	val := func(k int) []byte { return bytes.Repeat([]byte{byte(k)}, 32<<10) }
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := setBig(s, 256, val); err != nil { // 8 MiB, to the value log
		t.Fatal(err)
	}
	if err := s.Reopen(); err != nil {
		t.Fatal(err)
	}
	if rss := residentUnder(t, dir); rss > 2<<20 {
		t.Errorf("%d KiB of the store's files resident after Reopen, want little of the 8 MiB written", rss>>10)
	}
	logs := valueLogs(t, dir)
	for i := range 6 {
		if i%2 == 0 {
			if err := setBig(s, 4, val); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Reopen(); err != nil {
			t.Fatal(err)
		}
	}
	if n := valueLogs(t, dir); n > logs+4 {
		t.Errorf("%d value-log files after six more reopenings, %d before", n, logs)
	}
	err = s.View(func(tx *Tx) error {
		for k := range 256 {
			if v, err := tx.Get("big", fmt.Sprint(k)); err != nil || !bytes.Equal(v, val(k)) {
				return fmt.Errorf("%d: %v", k, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// residentUnder sums the resident bytes of this process's mappings of
// files under dir.
func residentUnder(t *testing.T, dir string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	total, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":"):
			in = len(fields) >= 6 && strings.HasPrefix(fields[5], dir+string(filepath.Separator))
		case in && len(fields) == 3 && fields[0] == "Rss:":
			kb, _ := strconv.Atoi(fields[1])
			total += kb << 10
		}
	}
	return total
}
