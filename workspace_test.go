package lore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/learnfile"
)

// TestMain lets tests re-execute this binary as a child process that
// writes learnings, so that concurrency and kill -9 are tested with real
// processes.
func TestMain(m *testing.M) {
	if dir := os.Getenv("LORE_TEST_CHILD_ADD"); dir != "" {
		childAdd(dir, os.Getenv("LORE_TEST_CHILD_LOOP") != "")
		return
	}
	os.Exit(m.Run())
}

func childAdd(dir string, loop bool) {
	ctx := context.Background()
	for i := 0; ; i++ {
		ws, err := Open(dir, Options{LockTimeout: 30 * time.Second})
		if err == nil {
			_, err = ws.Add(ctx, AddOptions{Title: fmt.Sprintf("from pid %d #%d", os.Getpid(), i), Body: strings.Repeat("body text\n", 50), Tags: []string{"child"}})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if !loop {
			os.Exit(0)
		}
	}
}

func newWorkspace(t *testing.T) *Workspace {
	t.Helper()
	dir := t.TempDir()
	if _, err := Init(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// newNotingWorkspace is newWorkspace that records the notices it gives.
func newNotingWorkspace(t *testing.T) (*Workspace, *[]string) {
	t.Helper()
	notes := new([]string)
	dir := t.TempDir()
	if _, err := Init(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(dir, Options{Notify: func(m string) { *notes = append(*notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	return ws, notes
}

func ids(ls []*learnfile.Learning) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.ID)
	}
	return out
}

func TestInitIdempotent(t *testing.T) {
	dir := t.TempDir()
	r1, err := Init(dir)
	if err != nil || len(r1.Created) != 5 {
		t.Fatalf("first init: %v %v", r1, err)
	}
	os.WriteFile(filepath.Join(dir, Dir, "config.yaml"), []byte("lock_timeout: 3s\n"), 0o644)
	r2, err := Init(dir)
	if err != nil || len(r2.Created) != 0 {
		t.Fatalf("second init: %v %v", r2, err)
	}
	ws, err := Open(filepath.Join(dir), Options{})
	if err != nil || ws.Config().LockTimeout.Duration != 3*time.Second {
		t.Fatalf("config not kept: %v %v", ws, err)
	}
}

func TestOpenFindsWorkspaceFromSubdir(t *testing.T) {
	ws := newWorkspace(t)
	sub := filepath.Join(ws.Root(), "a", "b")
	os.MkdirAll(sub, 0o755)
	got, err := Open(sub, Options{})
	if err != nil || got.Root() != ws.Root() {
		t.Fatalf("Open(sub) = %v, %v", got, err)
	}
	if _, err := Open(t.TempDir(), Options{}); err != ErrNoWorkspace {
		t.Fatalf("outside: %v", err)
	}
}

func TestBadConfig(t *testing.T) {
	dir := t.TempDir()
	Init(dir)
	os.WriteFile(filepath.Join(dir, Dir, "config.yaml"), []byte("lock_timeout: soon\n"), 0o644)
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "not a duration") {
		t.Fatalf("bad duration: %v", err)
	}
	os.WriteFile(filepath.Join(dir, Dir, "config.yaml"), []byte("colour: blue\n"), 0o644)
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("unknown key: %v", err)
	}
}

func TestAddListGetRemove(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	a, err := ws.Add(ctx, AddOptions{Title: "first", Tags: []string{"x, y", "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(a.Tags, ",") != "x,y" {
		t.Errorf("tags = %v", a.Tags)
	}
	b, err := ws.Add(ctx, AddOptions{Title: "second", Body: "no newline", Links: []learnfile.Link{{To: a.ID, Type: "caused_by", Weight: 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Add(ctx, AddOptions{Title: "dangling", Links: []learnfile.Link{{To: "zzzzzzzzzz", Type: "x", Weight: 1}}}); err == nil {
		t.Error("link to a missing learning accepted")
	}
	ls, err := ws.List(ctx, ListOptions{})
	if err != nil || len(ls) != 2 {
		t.Fatalf("list: %v %v", ids(ls), err)
	}
	got, err := ws.Get(ctx, b.ID[:6])
	if err != nil || got.Body != "no newline\n" || got.Links[0].To != a.ID {
		t.Fatalf("get by prefix: %+v %v", got, err)
	}
	if ls, _ := ws.List(ctx, ListOptions{Tag: "y"}); len(ls) != 1 || ls[0].ID != a.ID {
		t.Errorf("tag filter: %v", ids(ls))
	}
	// Removing a drops the link b had to it, in b's file.
	if _, err := ws.Remove(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	got, _ = ws.Get(ctx, b.ID)
	if len(got.Links) != 0 {
		t.Errorf("link to removed learning kept: %+v", got.Links)
	}
	if _, err := ws.Get(ctx, a.ID); err == nil {
		t.Error("removed learning still found")
	}
}

// ListSummaries shows what List shows, in the same order, whether the
// learnings were just parsed or are read back from the store's records.
func TestListSummariesMatchesList(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	os.WriteFile(filepath.Join(ws.Root(), "a.go"), []byte("package a\n"), 0o644)
	for i, tags := range [][]string{{"auth"}, nil, {"auth", "db"}, {"db"}} {
		_, err := ws.Add(ctx, AddOptions{Title: fmt.Sprintf("learning %d", i), Tags: tags, Body: "body",
			Anchors: []string{"a.go", "glob:**/*.go"}})
		if err != nil {
			t.Fatal(err)
		}
	}
	fresh, err := Open(ws.Root(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []*Workspace{ws, fresh} {
		for _, tag := range []string{"", "auth", "db", "none"} {
			ls, err1 := w.List(ctx, ListOptions{Tag: tag})
			sms, err2 := w.ListSummaries(ctx, ListOptions{Tag: tag})
			if err1 != nil || err2 != nil || len(ls) != len(sms) {
				t.Fatalf("tag %q: %d learnings (%v), %d summaries (%v)", tag, len(ls), err1, len(sms), err2)
			}
			for i, l := range ls {
				sm := sms[i]
				if sm.ID != l.ID || sm.Title != l.Title || !slices.Equal(sm.Tags, l.Tags) || !sm.Created.Equal(l.Created) {
					t.Errorf("tag %q, #%d: summary %+v, learning %s %q %v %v", tag, i, sm, l.ID, l.Title, l.Tags, l.Created)
				}
			}
		}
	}
}

func TestAmbiguousPrefix(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	for _, id := range []string{"ab12cd34ef", "ab12zz34ef"} {
		os.WriteFile(filepath.Join(ws.learningsDir(), id+".md"), []byte("---\nid: "+id+"\ntitle: t\n---\n"), 0o644)
	}
	_, err := ws.Get(ctx, "ab12")
	ae, ok := err.(*AmbiguousError)
	if !ok || len(ae.Candidates) != 2 || !strings.Contains(err.Error(), "ab12cd34ef, ab12zz34ef") {
		t.Fatalf("ambiguous: %v", err)
	}
	if l, err := ws.Get(ctx, "ab12c"); err != nil || l.ID != "ab12cd34ef" {
		t.Fatalf("unique prefix: %v %v", l, err)
	}
}

func TestSyncSeesExternalEdits(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	l, _ := ws.Add(ctx, AddOptions{Title: "before"})
	p := filepath.Join(ws.Root(), l.Path)
	data, _ := os.ReadFile(p)
	// Same size, new content, and an mtime in the past: the hash decides.
	edited := strings.Replace(string(data), "title: before", "title: BEFORE", 1)
	os.WriteFile(p, []byte(edited), 0o644)
	if got, _ := ws.Get(ctx, l.ID); got.Title != "BEFORE" {
		t.Errorf("edit not seen: %q", got.Title)
	}
	// A file arriving with git pull.
	os.WriteFile(filepath.Join(ws.learningsDir(), "pulled0001.md"), []byte("---\nid: pulled0001\ntitle: pulled\n---\n"), 0o644)
	if ls, _ := ws.List(ctx, ListOptions{}); len(ls) != 2 {
		t.Errorf("pulled file not seen: %v", ids(ls))
	}
	os.Remove(p)
	if ls, _ := ws.List(ctx, ListOptions{}); len(ls) != 1 || ls[0].ID != "pulled0001" {
		t.Errorf("deletion not seen: %v", ids(ls))
	}
	// The graph follows: the removed learning's node is gone.
	err := ws.withStore(ctx, func(st *graphStore) error {
		if _, err := st.Node(learningNode(l.ID)); err == nil {
			t.Error("node of deleted learning still in the graph")
		}
		if _, err := st.Node(learningNode("pulled0001")); err != nil {
			t.Errorf("node of pulled learning: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Relate's sync after its write records the files it wrote and drops
// nothing; a file edited by someone else before it is seen too.
func TestRelateSyncsWhatItWrote(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	a, _ := ws.Add(ctx, AddOptions{Title: "a"})
	b, _ := ws.Add(ctx, AddOptions{Title: "b"})
	c, _ := ws.Add(ctx, AddOptions{Title: "c"})
	if _, err := ws.Relate(ctx, RelateOptions{From: a.ID, To: b.ID, Type: "caused_by"}); err != nil {
		t.Fatal(err)
	}
	// c changes behind lore's back, then a relate of a and b again.
	pc := filepath.Join(ws.Root(), c.Path)
	data, _ := os.ReadFile(pc)
	os.WriteFile(pc, []byte(strings.Replace(string(data), "title: c", "title: c, edited", 1)), 0o644)
	if _, err := ws.Relate(ctx, RelateOptions{From: b.ID, To: a.ID, Type: "implements", Bidirectional: true}); err != nil {
		t.Fatal(err)
	}
	// The sync after the write changed the two files and dropped nothing.
	want := []string{filepath.Base(a.Path), filepath.Base(b.Path)}
	slices.Sort(want)
	if rep := ws.learnings.Report(); len(rep.Removed) != 0 || len(rep.Added) != 0 || !slices.Equal(rep.Changed, want) {
		t.Errorf("sync after relate: added %v, changed %v, removed %v; want changed %v", rep.Added, rep.Changed, rep.Removed, want)
	}
	ls, err := ws.List(ctx, ListOptions{})
	if err != nil || len(ls) != 3 {
		t.Fatalf("after relate: %v %v", ids(ls), err)
	}
	if got, _ := ws.Get(ctx, c.ID); got.Title != "c, edited" {
		t.Errorf("edit of an unrelated file: title %q", got.Title)
	}
	err = ws.withStore(ctx, func(st *graphStore) error {
		for _, k := range []graph.EdgeKey{
			{Type: graph.LinksTo, From: learningNode(a.ID), Relation: "caused_by", To: learningNode(b.ID)},
			{Type: graph.LinksTo, From: learningNode(b.ID), Relation: "implements", To: learningNode(a.ID)},
			{Type: graph.LinksTo, From: learningNode(a.ID), Relation: "implements", To: learningNode(b.ID)},
		} {
			if _, err := st.Edge(k); err != nil {
				t.Errorf("edge %v: %v", k, err)
			}
		}
		if _, err := st.Node(learningNode(c.ID)); err != nil {
			t.Errorf("node of the unrelated learning: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A file edited to carry another id takes its old learning out of the
// graph, unless another file still holds that id.
func TestSyncIDChangedInPlace(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	p := filepath.Join(ws.learningsDir(), "note.md")
	os.WriteFile(p, []byte("---\nid: first00001\ntitle: t\n---\n"), 0o644)
	if _, err := ws.Get(ctx, "first00001"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte("---\nid: second0001\ntitle: t\n---\n"), 0o644)
	err := ws.withStore(ctx, func(st *graphStore) error {
		if _, err := st.Node(learningNode("first00001")); err == nil {
			t.Error("node of the old id still in the graph")
		}
		if _, err := st.Node(learningNode("second0001")); err != nil {
			t.Errorf("node of the new id: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMalformedFileDoesNotHideOthers(t *testing.T) {
	ctx := context.Background()
	ws, notes := newNotingWorkspace(t)
	good, _ := ws.Add(ctx, AddOptions{Title: "good"})
	os.WriteFile(filepath.Join(ws.learningsDir(), "broken0001.md"), []byte("---\nid: broken0001\ntitle: t\n  bad: indent\n---\n"), 0o644)
	ls, err := ws.List(ctx, ListOptions{})
	if err != nil || len(ls) != 1 || ls[0].ID != good.ID {
		t.Fatalf("list with a broken file: %v %v", ids(ls), err)
	}
	if len(*notes) == 0 || !strings.HasPrefix((*notes)[len(*notes)-1], ".lore/learnings/broken0001.md:4: front matter: mapping values are not allowed") {
		t.Errorf("notice = %q", *notes)
	}
	rep, err := ws.Sync(ctx)
	if err != nil || len(rep.Problems) != 1 {
		t.Errorf("sync problems = %v, %v", rep, err)
	}
}

func TestDuplicateIDs(t *testing.T) {
	ctx := context.Background()
	ws, notes := newNotingWorkspace(t)
	l, _ := ws.Add(ctx, AddOptions{Title: "original"})
	data, _ := os.ReadFile(filepath.Join(ws.Root(), l.Path))
	os.WriteFile(filepath.Join(ws.learningsDir(), "copy.md"), data, 0o644)
	ls, _ := ws.List(ctx, ListOptions{})
	if len(ls) != 1 || ls[0].Path != l.Path {
		t.Fatalf("duplicate: %+v", ls)
	}
	want := "duplicate learning id " + l.ID + " in .lore/learnings/" + l.ID + ".md and .lore/learnings/copy.md"
	if len(*notes) == 0 || !strings.Contains(strings.Join(*notes, "\n"), "duplicate learning id "+l.ID) {
		t.Errorf("notes = %q, want %q", *notes, want)
	}
}

func TestDBDeletedIsRebuilt(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	for i := range 5 {
		ws.Add(ctx, AddOptions{Title: fmt.Sprint("n", i)})
	}
	if err := os.RemoveAll(ws.dbDir()); err != nil {
		t.Fatal(err)
	}
	ls, err := ws.List(ctx, ListOptions{})
	if err != nil || len(ls) != 5 {
		t.Fatalf("after deleting db: %d %v", len(ls), err)
	}
}

func TestCorruptDBIsSetAside(t *testing.T) {
	ctx := context.Background()
	ws, notes := newNotingWorkspace(t)
	ws.Add(ctx, AddOptions{Title: "kept"})
	os.WriteFile(filepath.Join(ws.dbDir(), "MANIFEST"), []byte("garbage"), 0o644)
	ls, err := ws.List(ctx, ListOptions{})
	if err != nil || len(ls) != 1 {
		t.Fatalf("list over a corrupt db: %v %v", ls, err)
	}
	if len(*notes) == 0 || !strings.Contains((*notes)[0], "moved it to db.broken-") {
		t.Errorf("notes = %q", *notes)
	}
}

func TestSchemaChangeRebuilds(t *testing.T) {
	ctx := context.Background()
	ws, notes := newNotingWorkspace(t)
	ws.Add(ctx, AddOptions{Title: "kept"})
	st, err := openGraph(ws.dbDir(), storeSchema+1)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	ls, err := ws.List(ctx, ListOptions{})
	if err != nil || len(ls) != 1 {
		t.Fatalf("after schema change: %v %v", ls, err)
	}
	if len(*notes) == 0 || !strings.Contains((*notes)[0], "rebuilding") {
		t.Errorf("notes = %q", *notes)
	}
}

func childCmd(t *testing.T, dir string, loop bool) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LORE_TEST_CHILD_ADD="+dir)
	if loop {
		cmd.Env = append(cmd.Env, "LORE_TEST_CHILD_LOOP=1")
	}
	return cmd
}

func TestConcurrentProcesses(t *testing.T) {
	ws := newWorkspace(t)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	out := make([][]byte, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = childCmd(t, ws.Root(), false).CombinedOutput()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("process %d: %v: %s", i, err, out[i])
		}
	}
	ls, err := ws.List(context.Background(), ListOptions{})
	if err != nil || len(ls) != 8 {
		t.Fatalf("want 8 learnings, got %d (%v)", len(ls), err)
	}
}

func TestKillDuringWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("kill -9 loop skipped in -short")
	}
	ws := newWorkspace(t)
	for round := range 6 {
		cmd := childCmd(t, ws.Root(), true)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(150+round*70) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
	// Every learning file on disk parses: nothing truncated.
	entries, _ := os.ReadDir(ws.learningsDir())
	files := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") || catalog.IsTemp(e.Name()) {
			continue
		}
		files++
		data, _ := os.ReadFile(filepath.Join(ws.learningsDir(), e.Name()))
		if _, err := learnfile.Parse(e.Name(), data); err != nil {
			t.Errorf("file damaged by kill -9: %v", err)
		}
	}
	// The next run recovers and sees every file.
	var notes []string
	ws2, _ := Open(ws.Root(), Options{Notify: func(m string) { notes = append(notes, m) }})
	ls, err := ws2.List(context.Background(), ListOptions{})
	if err != nil {
		t.Fatalf("after kill -9: %v", err)
	}
	if len(ls) != files || files == 0 {
		t.Errorf("listed %d learnings, %d files on disk", len(ls), files)
	}
	t.Logf("%d learnings written across 6 killed processes; notices: %q", files, notes)
}

type graphStore = graph.Store

func openGraph(dir string, schema int) (*graph.Store, error) {
	return graph.Open(dir, graph.Options{Schema: schema})
}

// A short-lived workspace closes stores it only read in the background:
// the next operation on it waits for that close, and another process's
// writer gets the store once the close is done.
func TestShortLivedClosesReadsInBackground(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Init(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(dir, Options{ShortLived: true, LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Add(ctx, AddOptions{Title: "first"}); err != nil {
		t.Fatal(err)
	}
	if ws.closing != nil {
		t.Fatal("a store that was written was left to close in the background")
	}
	for i := range 3 {
		if _, err := ws.List(ctx, ListOptions{}); err != nil {
			t.Fatal(err)
		}
		if ws.closing == nil {
			t.Fatal("a store that was only read was closed in the foreground")
		}
		// The next write on the same workspace waits for the close.
		if _, err := ws.Add(ctx, AddOptions{Title: fmt.Sprintf("after read %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ws.List(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}
	<-ws.closing
	other, err := Open(dir, Options{LockTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Add(ctx, AddOptions{Title: "from another workspace"}); err != nil {
		t.Fatalf("the store stayed locked after the background close: %v", err)
	}
	all, err := ws.List(ctx, ListOptions{})
	if err != nil || len(all) != 5 {
		t.Fatalf("List = %d learnings, %v; want 5", len(all), err)
	}
}
