package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
)

// repo is a repository with a learnings directory and a store on disk,
// for the operations of these tests.
type repo struct {
	root string
	n    int
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	r := &repo{root: t.TempDir()}
	if err := os.MkdirAll(filepath.Join(r.root, filepath.FromSlash(learnfile.Dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

// add writes a new learning file for l, with a fresh id, and returns l.
func (r *repo) add(t *testing.T, l *learnfile.Learning) *learnfile.Learning {
	t.Helper()
	r.n++
	l.ID = fmt.Sprintf("id%04d", r.n)
	l.Created = time.Unix(1700000000+int64(r.n), 0).UTC()
	l.Path = learnfile.Dir + "/" + l.ID + ".md"
	data, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if taken, err := CreateFiles(filepath.Join(r.root, filepath.FromSlash(learnfile.Dir)), []NewFile{{l.ID + ".md", data}}); err != nil || taken[0] {
		t.Fatal(err, taken)
	}
	return l
}

// op is one operation: it opens the store (for writing when write is
// set), syncs, runs fn, and closes the learnings and the store.
func (r *repo) op(t *testing.T, write bool, fn func(c *Learnings, st *graph.Store)) {
	t.Helper()
	st, err := graph.Open(filepath.Join(r.root, ".lore", "db"), graph.Options{ReadWrite: write})
	if err != nil {
		t.Fatal(err)
	}
	c := Open(r.root, st, nil)
	if err := c.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	fn(c, st)
	c.Close()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// A learning the store does not have (the store closed before it was
// read, or its record torn by a crash) comes from its file.
func TestLearningsWithoutTheStore(t *testing.T) {
	r := newRepo(t)
	l := r.add(t, &learnfile.Learning{Title: "kept", Body: "the body\n", Tags: []string{"x"}})
	r.op(t, true, func(*Learnings, *graph.Store) {}) // the store learns it
	// A later operation reads only headers; the store is closed when the
	// learning is first used.
	var c *Learnings
	r.op(t, false, func(op *Learnings, _ *graph.Store) { c = op })
	if got := c.Learning(l.ID); got.Body != "the body\n" || got.Title != "kept" || got.Path != l.Path {
		t.Errorf("after the store closed: %+v", got)
	}
	// The stored learning goes missing: the file is parsed instead.
	r.op(t, true, func(_ *Learnings, st *graph.Store) {
		if err := st.Update(func(tx *graph.Tx) error { return tx.Delete(nsLearnings, l.ID+".md") }); err != nil {
			t.Fatal(err)
		}
	})
	r.op(t, false, func(c *Learnings, _ *graph.Store) {
		if got := c.Learning(l.ID); got.Body != "the body\n" || !reflect.DeepEqual(got.Tags, []string{"x"}) {
			t.Errorf("with no stored learning: %+v", got)
		}
	})
}

// The first learnings an operation uses are read one by one; past
// pointReads, the rest come in one scan. Either way they are the files'.
func TestLearningsReadByPointThenScan(t *testing.T) {
	r := newRepo(t)
	var ids []string
	for i := range pointReads + 4 {
		l := r.add(t, &learnfile.Learning{Title: fmt.Sprintf("learning %d", i), Body: fmt.Sprintf("body %d\n", i)})
		ids = append(ids, l.ID)
	}
	r.op(t, true, func(*Learnings, *graph.Store) {}) // the store learns them
	r.op(t, false, func(c *Learnings, _ *graph.Store) {
		var src *learningSource
		for i, id := range ids {
			z := c.byID[id]
			src = z.src
			if l := z.get(); l.Body != fmt.Sprintf("body %d\n", i) {
				t.Errorf("learning %d: %+v", i, l)
			}
			if wantScan := i >= pointReads; src.loaded != wantScan {
				t.Errorf("after %d learnings: scanned %v, want %v", i+1, src.loaded, wantScan)
			}
		}
		if src.gets != pointReads {
			t.Errorf("%d point reads, want %d", src.gets, pointReads)
		}
	})
}

// The renames of a bidirectional relate that a crash stopped halfway
// (their journal is written, one file renamed) are completed by the next
// operation: both links, not one.
func TestInterruptedRenamesComplete(t *testing.T) {
	r := newRepo(t)
	a := r.add(t, &learnfile.Learning{Title: "a"})
	b := r.add(t, &learnfile.Learning{Title: "b"})
	// What WriteLearnings does up to the crash: both new files written,
	// the journal written, the first rename done.
	var pairs [][2]string
	for _, p := range [][2]*learnfile.Learning{{a, b}, {b, a}} {
		fresh := *p[0]
		fresh.Links = append(fresh.Links, learnfile.Link{To: p[1].ID, Type: "both", Weight: 1})
		data, err := fresh.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(r.root, filepath.FromSlash(fresh.Path))
		tmp := tmpName(dst)
		if err := writeSynced(tmp, data); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, [2]string{tmp, dst})
	}
	var journal strings.Builder
	for _, p := range pairs {
		fmt.Fprintf(&journal, "%s\t%s\n", filepath.Base(p[0]), filepath.Base(p[1]))
	}
	dir := filepath.Join(r.root, filepath.FromSlash(learnfile.Dir))
	if err := WriteFile(filepath.Join(dir, journalPrefix+"crashed"), []byte(journal.String())); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(pairs[0][0], pairs[0][1]); err != nil {
		t.Fatal(err)
	}
	r.op(t, false, func(c *Learnings, st *graph.Store) {
		for _, l := range []*learnfile.Learning{a, b} {
			es, err := st.Edges(learningNode(l.ID), graph.Out, graph.Filter{Types: []graph.EdgeType{graph.LinksTo}})
			if err != nil || len(es) != 1 {
				t.Errorf("after the crash, links of %s in the graph: %v %v", l.ID, es, err)
			}
		}
	})
	if ms, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(ms) != 0 {
		t.Fatalf("left behind: %v", ms)
	}
}

// A second sync in an operation that holds the store for writing merges
// with the records the first left instead of reading them again; they are
// the records a fresh read finds. A read-only operation keeps none.
func TestSecondSyncReusesRecords(t *testing.T) {
	r := newRepo(t)
	r.add(t, &learnfile.Learning{Title: "a"})
	r.add(t, &learnfile.Learning{Title: "b"})
	r.op(t, true, func(c *Learnings, st *graph.Store) {
		if c.synced == nil || len(*c.synced) != 2 {
			t.Fatalf("after the first sync: records kept %v", c.synced)
		}
		if err := os.WriteFile(filepath.Join(r.root, ".lore", "learnings", "pulled0002.md"), []byte("---\nid: pulled0002\ntitle: pulled\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := c.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		if rep := c.Report(); !slices.Equal(rep.Added, []string{"pulled0002.md"}) || len(rep.Changed)+len(rep.Removed) != 0 {
			t.Errorf("second sync: added %v, changed %v, removed %v", rep.Added, rep.Changed, rep.Removed)
		}
		var fresh []string
		err := st.View(func(tx *graph.Tx) error {
			return tx.Scan(nsFiles, "", func(k string, v []byte) error {
				rec, err := decodeRecord(k, v, &learningSource{dir: r.root})
				if err != nil {
					return err
				}
				fresh = append(fresh, k+" "+rec.Sum)
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, rec := range *c.synced {
			kept = append(kept, rec.name+" "+rec.rec.Sum)
		}
		if !slices.Equal(kept, fresh) {
			t.Errorf("kept records %v, the store holds %v", kept, fresh)
		}
		c.Close()
		if c.synced != nil {
			t.Error("records kept after the operation")
		}
	})
	r.op(t, false, func(c *Learnings, st *graph.Store) {
		if st.ReadOnly() && c.synced != nil {
			t.Error("records kept for a read-only store")
		}
	})
}

// Term frequencies are stored per learning file while it parses, and go
// with the file or its parse.
func TestStoredTermsFollowTheFiles(t *testing.T) {
	r := newRepo(t)
	l := r.add(t, &learnfile.Learning{Title: "retry budget", Body: "scheduler"})
	name := filepath.Base(l.Path)
	stored := func() bool {
		found := false
		r.op(t, false, func(_ *Learnings, st *graph.Store) {
			err := st.View(func(tx *graph.Tx) error {
				v, err := tx.Get(nsTerms, name)
				if err == nil {
					found = eachTerm(string(v), func(string, float64) {})
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
		return found
	}
	if !stored() {
		t.Fatal("no terms stored for a new learning")
	}
	p := filepath.Join(r.root, l.Path)
	good, _ := os.ReadFile(p)
	os.WriteFile(p, []byte("---\nid: [broken\n---\n"), 0o644)
	if stored() {
		t.Error("terms kept for a file that no longer parses")
	}
	os.WriteFile(p, good, 0o644)
	if !stored() {
		t.Error("terms not stored again once the file parses")
	}
	os.Remove(p)
	if stored() {
		t.Error("terms kept for a removed file")
	}
}

// A record the store cannot read (damaged, or written by another record
// version) counts as missing: the file is parsed again and the record
// rewritten; nothing authored depends on it.
func TestUnreadableRecordIsRebuiltFromTheFile(t *testing.T) {
	r := newRepo(t)
	l := r.add(t, &learnfile.Learning{Title: "kept", Body: "body\n"})
	name := filepath.Base(l.Path)
	for _, bad := range [][]byte{{2, 1, 2, 3}, []byte("garbage"), {}} {
		r.op(t, true, func(_ *Learnings, st *graph.Store) {
			if err := st.Update(func(tx *graph.Tx) error { return tx.Set(nsFiles, name, bad) }); err != nil {
				t.Fatal(err)
			}
		})
		r.op(t, false, func(c *Learnings, st *graph.Store) {
			if got := c.Learning(l.ID); got == nil || got.Title != "kept" || got.Body != "body\n" {
				t.Fatalf("record % x: got %+v", bad, got)
			}
			err := st.View(func(tx *graph.Tx) error {
				v, err := tx.Get(nsFiles, name)
				if err != nil {
					return err
				}
				if _, err := decodeRecord(name, v, nil); err != nil {
					t.Errorf("record % x not rewritten: %v", bad, err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// AnchoredIn answers by file, globs under "", and follows a sync.
func TestAnchoredIn(t *testing.T) {
	r := newRepo(t)
	spec := func(s string) anchors.Anchor {
		a, err := anchors.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := r.add(t, &learnfile.Learning{Title: "a", Anchors: []anchors.Anchor{spec("x.go::F"), spec("x.go#L1-L2"), spec("y.go")}})
	b := r.add(t, &learnfile.Learning{Title: "b", Anchors: []anchors.Anchor{spec("glob:**/*.go"), spec("x.go::G")}})
	r.op(t, true, func(c *Learnings, _ *graph.Store) {
		for p, want := range map[string][]string{"x.go": {a.ID, b.ID}, "y.go": {a.ID}, "": {b.ID}, "z.go": nil} {
			if got := c.AnchoredIn(p); !slices.Equal(got, want) {
				t.Errorf("AnchoredIn(%q) = %v, want %v", p, got, want)
			}
		}
	})
	cc := r.add(t, &learnfile.Learning{Title: "c", Anchors: []anchors.Anchor{spec("z.go")}})
	r.op(t, false, func(c *Learnings, _ *graph.Store) {
		c.AnchoredIn("x.go") // made before the sync below
		if err := os.Remove(filepath.Join(r.root, filepath.FromSlash(a.Path))); err != nil {
			t.Fatal(err)
		}
		if err := c.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := c.AnchoredIn("x.go"); !slices.Equal(got, []string{b.ID}) {
			t.Errorf("after a sync: AnchoredIn(x.go) = %v, want [%s]", got, b.ID)
		}
		if got := c.AnchoredIn("z.go"); !slices.Equal(got, []string{cc.ID}) {
			t.Errorf("AnchoredIn(z.go) = %v, want [%s]", got, cc.ID)
		}
	})
}
