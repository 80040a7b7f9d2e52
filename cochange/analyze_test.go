package cochange

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lorehq/lore/graph"
)

func TestCounting(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.repeat(6, "a.go", "b.go")
	r.repeat(2, "a.go")         // a: 8 revs, b: 6, shared 6: 6/7
	r.repeat(5, "c.go", "d.go") // c-d: 5 shared, 5 revs each
	r.repeat(4, "e.go", "f.go") // below MinShared
	r.repeat(5, "g.go", "h.go") // g-h coupled ...
	r.repeat(20, "g.go")        // ... but g has 25 revs: 5/15 = 0.333
	r.repeat(30, "i.go")        // i-j: 5 shared, degree 5/17.5 < 0.3
	r.repeat(5, "i.go", "j.go") //
	res := analyze(t, nil, r.dir, Options{FullHistory: true})
	wantPairs(t, res.Pairs, ""+
		"a.go b.go shared=6 revs=8/6 score=0.857\n"+
		"c.go d.go shared=5 revs=5/5 score=1.000\n"+
		"g.go h.go shared=5 revs=25/5 score=0.333\n")
	if res.Commits != 77 || res.Skipped != 0 || res.Walked != 77 || !res.Full {
		t.Errorf("commits=%d skipped=%d walked=%d full=%v", res.Commits, res.Skipped, res.Walked, res.Full)
	}
	// Thresholds are options.
	res = analyze(t, nil, r.dir, Options{FullHistory: true, MinRevs: 4, MinShared: 4, MinCoupling: 0.9})
	wantPairs(t, res.Pairs, ""+
		"c.go d.go shared=5 revs=5/5 score=1.000\n"+
		"e.go f.go shared=4 revs=4/4 score=1.000\n")
	res = analyze(t, nil, r.dir, Options{FullHistory: true, MinRevs: 7})
	wantPairs(t, res.Pairs, "")
}

func TestLargeChangesetsSkipped(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	many := func(n int) []string {
		var fs []string
		for i := range n {
			fs = append(fs, fmt.Sprintf("gen/f%02d.go", i))
		}
		return fs
	}
	r.repeat(5, many(30)...) // exactly MaxChangeset: counted
	r.repeat(5, many(31)...) // one more: skipped
	res := analyze(t, nil, r.dir, Options{FullHistory: true})
	if res.Skipped != 5 || res.Commits != 10 {
		t.Fatalf("skipped=%d commits=%d, want 5 of 10", res.Skipped, res.Commits)
	}
	if len(res.Pairs) != 30*29/2 {
		t.Fatalf("%d pairs, want %d", len(res.Pairs), 30*29/2)
	}
	for _, p := range res.Pairs {
		if p.Shared != 5 || p.RevsA != 5 || p.RevsB != 5 {
			t.Fatalf("pair %+v: the 31-file commits were counted", p)
		}
	}
	res = analyze(t, nil, r.dir, Options{FullHistory: true, MaxChangeset: 31})
	if res.Skipped != 0 || res.Pairs[0].Shared != 10 {
		t.Fatalf("MaxChangeset 31: skipped=%d first=%+v", res.Skipped, res.Pairs[0])
	}
}

func TestMergesAndDeletes(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.repeat(5, "a.go", "b.go")
	r.git("checkout", "-q", "-b", "side")
	r.repeat(5, "side1.go", "side2.go")
	r.git("checkout", "-q", "main")
	r.repeat(1, "a.go", "b.go")
	r.clock = r.clock.Add(time.Hour)
	r.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	// The merge commit is not counted; the side branch's commits are.
	res := analyze(t, nil, r.dir, Options{FullHistory: true})
	wantPairs(t, res.Pairs, ""+
		"a.go b.go shared=6 revs=6/6 score=1.000\n"+
		"side1.go side2.go shared=5 revs=5/5 score=1.000\n")
	if res.Commits != 11 || res.Mode != ModeNoMerges {
		t.Errorf("commits = %d, mode %q, want 11, %q", res.Commits, res.Mode, ModeNoMerges)
	}
	// Counting merges: the merge is one change-set of what the branch
	// brought in.
	res = analyze(t, nil, r.dir, Options{FullHistory: true, Merges: true, MinRevs: 1, MinShared: 1})
	wantPairs(t, res.Pairs, ""+
		"a.go b.go shared=6 revs=6/6 score=1.000\n"+
		"side1.go side2.go shared=1 revs=1/1 score=1.000\n")
	if res.Commits != 7 || len(res.Notes) != 0 || res.Mode != ModeFirstParent {
		t.Errorf("merges counted: commits=%d notes=%q", res.Commits, res.Notes)
	}
	// A deletion is a change of the deleted file, as in git log.
	r.rm("b.go")
	r.write("a.go")
	r.commitStaged()
	res = analyze(t, nil, r.dir, Options{FullHistory: true})
	wantPairs(t, res.Pairs, ""+
		"a.go b.go shared=7 revs=7/7 score=1.000\n"+
		"side1.go side2.go shared=5 revs=5/5 score=1.000\n")
}

func TestRenames(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.repeat(5, "old/a.go", "b.go")
	// Exact rename: same content, new path.
	r.mv("old/a.go", "new/a.go")
	r.commitStaged()
	r.repeat(3, "new/a.go", "b.go")
	// Similar rename in a commit that also adds and deletes other files: the
	// content changes a little on the way.
	r.repeat(5, "c.go", "d.go")
	r.mv("c.go", "moved/c2.go")
	p := filepath.Join(r.dir, "moved", "c2.go")
	body, _ := os.ReadFile(p)
	os.WriteFile(p, append(body, "// and one more line\n"...), 0o644)
	r.write("d.go", "unrelated-new.go")
	r.rm("b.go")
	r.commitStaged()

	res := analyze(t, nil, r.dir, Options{FullHistory: true})
	wantPairs(t, res.Pairs, ""+
		"b.go new/a.go shared=8 revs=9/9 score=0.889\n"+
		"d.go moved/c2.go shared=6 revs=6/6 score=1.000\n")

	// Without propagation each name keeps its own history, and a rename is a
	// deletion plus an addition.
	res = analyze(t, nil, r.dir, Options{FullHistory: true, NoRenames: true})
	wantPairs(t, res.Pairs, ""+
		"b.go old/a.go shared=5 revs=9/6 score=0.667\n"+
		"c.go d.go shared=6 revs=6/6 score=1.000\n")
}

func TestRenameChainAndReuse(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.repeat(3, "x.go", "y.go")
	r.mv("x.go", "x2.go")
	r.commitStaged()
	r.repeat(2, "x2.go", "y.go")
	r.mv("x2.go", "x3.go")
	r.commitStaged()
	// A new, different file takes the first name; its history is its own.
	r.repeat(5, "x.go", "z.go")
	r.repeat(1, "x3.go", "y.go")
	res := analyze(t, nil, r.dir, Options{FullHistory: true})
	wantPairs(t, res.Pairs, ""+
		"x.go z.go shared=5 revs=5/5 score=1.000\n"+
		"x3.go y.go shared=6 revs=8/6 score=0.857\n")
}

func TestWindow(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.repeat(5, "old1.go", "old2.go") // hours 1-5
	r.repeat(5, "a.go", "b.go")       // hours 6-10
	sixth := epoch.Add(6 * time.Hour)

	res := analyze(t, nil, r.dir, Options{Since: sixth})
	wantPairs(t, res.Pairs, "a.go b.go shared=5 revs=5/5 score=1.000\n")
	if res.Commits != 5 || !res.Since.Equal(sixth) {
		t.Errorf("commits=%d since=%v", res.Commits, res.Since)
	}
	// One second later the sixth commit is out.
	res = analyze(t, nil, r.dir, Options{Since: sixth.Add(time.Second)})
	if res.Commits != 4 || len(res.Pairs) != 0 {
		t.Errorf("commits=%d pairs=%d", res.Commits, len(res.Pairs))
	}
	res = analyze(t, nil, r.dir, Options{MaxCommits: 6})
	if res.Commits != 6 {
		t.Errorf("MaxCommits 6: commits=%d", res.Commits)
	}
	// The default window is the year before HEAD: 400 days later only the
	// new commits count.
	r.clock = r.clock.Add(400 * 24 * time.Hour)
	r.repeat(5, "c.go", "d.go")
	res = analyze(t, nil, r.dir, Options{})
	wantPairs(t, res.Pairs, "c.go d.go shared=5 revs=5/5 score=1.000\n")
	res = analyze(t, nil, r.dir, Options{FullHistory: true})
	if res.Commits != 15 || len(res.Pairs) != 3 {
		t.Errorf("full history: commits=%d pairs=%d", res.Commits, len(res.Pairs))
	}
}

func TestByDay(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	for day := range 5 {
		r.clock = epoch.Add(time.Duration(day) * 24 * time.Hour)
		r.commit("a.go")
		r.commit("b.go")
	}
	res := analyze(t, nil, r.dir, Options{FullHistory: true})
	wantPairs(t, res.Pairs, "")
	res = analyze(t, nil, r.dir, Options{FullHistory: true, ByDay: true})
	wantPairs(t, res.Pairs, "a.go b.go shared=5 revs=5/5 score=1.000\n")
}

func TestEmptyRepository(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	s := openStore(t)
	res := analyze(t, s, r.dir, Options{})
	if res.Head != "" || len(res.Pairs) != 0 || res.Commits != 0 {
		t.Fatalf("empty repo: %+v", res)
	}
	ps, err := Pairs(context.Background(), s)
	if err != nil || len(ps) != 0 {
		t.Fatalf("Pairs = %v, %v", ps, err)
	}
	// The first commits after that are analysed in full.
	r.repeat(5, "a.go", "b.go")
	res = analyze(t, s, r.dir, Options{})
	if len(res.Pairs) != 1 || !res.Full {
		t.Fatalf("after commits: %+v", res)
	}
}

func TestNotARepository(t *testing.T) {
	t.Parallel()
	needGit(t)
	_, err := Analyze(context.Background(), nil, t.TempDir(), Options{})
	if !errors.Is(err, ErrNotRepository) {
		t.Fatalf("err = %v, want ErrNotRepository", err)
	}
}

func TestBadOptions(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{
		{MaxCommits: -1},
		{MaxChangeset: 1},
		{MaxChangeset: -5},
		{MinRevs: -1},
		{MinShared: -2},
		{MinCoupling: 1.5},
		{MinCoupling: -0.1},
		{FullHistory: true, Since: epoch},
	} {
		_, err := Analyze(context.Background(), nil, ".", o)
		if err == nil || !strings.HasPrefix(err.Error(), "cochange: ") {
			t.Errorf("%+v: err = %v, want a cochange validation error", o, err)
		}
	}
}

func TestParseSince(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 31, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"2025-01-02":           time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC),
		"2025-01-02T03:04:05Z": time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		"90d":                  now.AddDate(0, 0, -90),
		"2w":                   now.AddDate(0, 0, -14),
		"6m":                   now.AddDate(0, -6, 0),
		"1y":                   now.AddDate(-1, 0, 0),
		"36h":                  now.Add(-36 * time.Hour),
	} {
		got, err := ParseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "yesterday", "-3d", "12x"} {
		if _, err := ParseSince(in, now); err == nil {
			t.Errorf("ParseSince(%q): no error", in)
		}
	}
}

func TestIncrementalEqualsFull(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	s := openStore(t)
	var progress []Progress
	o := Options{FullHistory: true, MinRevs: 2, MinShared: 2, Progress: func(p Progress) { progress = append(progress, p) }}
	var bulk [][]string
	for i := range 300 {
		bulk = append(bulk, []string{fmt.Sprintf("f%d.go", i%7), fmt.Sprintf("f%d.go", (i*3)%11)})
	}
	r.bulk(bulk)
	first := analyze(t, s, r.dir, o)
	if !first.Full || first.Walked != 300 || len(progress) == 0 || progress[0].Commits != 256 || progress[len(progress)-1].Commits != 300 {
		t.Fatalf("first: full=%v walked=%d progress=%v", first.Full, first.Walked, progress)
	}
	r.mv("f1.go", "g1.go")
	r.commitStaged()
	r.repeat(3, "g1.go", "f2.go", "new.go")
	r.rm("f3.go")
	r.commit("f4.go")
	inc := analyze(t, s, r.dir, o)
	if inc.Full || inc.Walked != 5 {
		t.Fatalf("update: full=%v walked=%d reason=%q", inc.Full, inc.Walked, inc.Reason)
	}
	full := analyze(t, openStore(t), r.dir, o)
	wantPairs(t, inc.Pairs, pairsText(full.Pairs))
	if inc.Commits != full.Commits {
		t.Errorf("commits %d != %d", inc.Commits, full.Commits)
	}
	stored, err := Pairs(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	wantPairs(t, stored, pairsText(full.Pairs))

	// Nothing new: nothing walked, same result.
	again := analyze(t, s, r.dir, o)
	if again.Walked != 0 || again.Full {
		t.Errorf("no-op update walked %d, full=%v", again.Walked, again.Full)
	}
	wantPairs(t, again.Pairs, pairsText(full.Pairs))

	// A window that moves: commits that leave it are dropped, and growing
	// it again walks further back.
	w := Options{MaxCommits: 50, MinRevs: 2, MinShared: 2}
	analyze(t, s, r.dir, w)
	r.repeat(4, "f5.go", "f6.go")
	inc = analyze(t, s, r.dir, w)
	full = analyze(t, nil, r.dir, w)
	if inc.Full || inc.Walked != 4 || inc.Commits != 50 {
		t.Errorf("window update: full=%v walked=%d commits=%d", inc.Full, inc.Walked, inc.Commits)
	}
	wantPairs(t, inc.Pairs, pairsText(full.Pairs))
	var st *state
	s.View(func(tx *graph.Tx) error { st, _ = loadState(tx); return nil })
	if n := st.Count; n != 50 {
		t.Errorf("stored %d change-sets for a 50-commit window", n)
	}
	w.MaxCommits = 120
	inc = analyze(t, s, r.dir, w)
	full = analyze(t, nil, r.dir, w)
	if inc.Full || inc.Walked != 70 || inc.Commits != 120 {
		t.Errorf("grown window: full=%v walked=%d commits=%d", inc.Full, inc.Walked, inc.Commits)
	}
	wantPairs(t, inc.Pairs, pairsText(full.Pairs))

	// The graph holds one edge per pair.
	checkEdges(t, s, full.Pairs)
}

func checkEdges(t *testing.T, s *graph.Store, pairs []Pair) {
	t.Helper()
	var got []string
	err := s.View(func(tx *graph.Tx) error {
		for _, p := range pairs {
			e, err := tx.Edge(graph.EdgeKey{Type: graph.CoChangesWith, From: FileNode(p.A), To: FileNode(p.B)})
			if err != nil {
				return fmt.Errorf("%s %s: %w", p.A, p.B, err)
			}
			md, _ := json.Marshal(e.Metadata)
			got = append(got, fmt.Sprintf("%.3f %s", e.Weight, md))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pairs {
		want := fmt.Sprintf(`%.3f {"last_commit_time":%q,"revs_a":%d,"revs_b":%d,"shared":%d}`,
			p.Score, time.Unix(p.Last, 0).UTC().Format(time.RFC3339), p.RevsA, p.RevsB, p.Shared)
		if got[i] != want {
			t.Errorf("edge %s-%s: %s, want %s", p.A, p.B, got[i], want)
		}
	}
}

func TestForcePush(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	s := openStore(t)
	r.repeat(6, "a.go", "b.go")
	r.repeat(5, "c.go", "d.go")
	analyze(t, s, r.dir, Options{})
	// Rewrite the last three commits.
	r.git("reset", "-q", "--hard", "HEAD~3")
	r.clock = r.clock.Add(24 * time.Hour)
	r.repeat(4, "c.go", "e.go")
	res := analyze(t, s, r.dir, Options{})
	// The commits both histories share are not walked again.
	if res.Full || res.Walked != 4 || !strings.Contains(res.Reason, "rewritten") {
		t.Fatalf("full=%v walked=%d reason=%q", res.Full, res.Walked, res.Reason)
	}
	full := analyze(t, nil, r.dir, Options{})
	wantPairs(t, res.Pairs, pairsText(full.Pairs))
	checkEdges(t, s, full.Pairs)
	// The old c-d edge is gone.
	err := s.View(func(tx *graph.Tx) error {
		_, err := tx.Edge(graph.EdgeKey{Type: graph.CoChangesWith, From: FileNode("c.go"), To: FileNode("d.go")})
		return err
	})
	if len(full.Pairs) != 1 || !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("pairs %v; old edge: %v", full.Pairs, err)
	}
}

func TestShallowClone(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.repeat(10, "a.go", "b.go")
	dst := filepath.Join(t.TempDir(), "shallow")
	runGit(t, r.dir, r.clock, "clone", "-q", "--depth", "6", "file://"+r.dir, dst)
	s := openStore(t)
	res := analyze(t, s, dst, Options{FullHistory: true})
	if res.Commits != 5 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "shallow") {
		t.Fatalf("commits=%d notes=%q", res.Commits, res.Notes)
	}
	wantPairs(t, res.Pairs, "a.go b.go shared=5 revs=5/5 score=1.000\n")
	st, err := CheckStatus(context.Background(), s, dst)
	if err != nil || !st.Shallow {
		t.Errorf("status: %+v, %v", st, err)
	}
	// Deepening the clone walks the new part of history only.
	runGit(t, dst, r.clock, "fetch", "-q", "--deepen", "3")
	res = analyze(t, s, dst, Options{FullHistory: true})
	if res.Full || res.Walked != 3 || res.Commits != 8 || len(res.Notes) != 1 {
		t.Errorf("deepened: full=%v walked=%d commits=%d notes=%q", res.Full, res.Walked, res.Commits, res.Notes)
	}
	wantPairs(t, res.Pairs, "a.go b.go shared=8 revs=8/8 score=1.000\n")
	runGit(t, dst, r.clock, "fetch", "-q", "--unshallow")
	res = analyze(t, s, dst, Options{FullHistory: true})
	if res.Commits != 10 || len(res.Notes) != 0 {
		t.Errorf("unshallowed: commits=%d notes=%q", res.Commits, res.Notes)
	}
}

func TestLinkedWorktree(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.repeat(5, "a.go", "b.go")
	r.git("branch", "other")
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", wt, "other")
	runGit(t, wt, r.clock, "rm", "-q", "b.go")
	runGit(t, wt, r.clock, "commit", "-q", "-m", "drop b")
	r.repeat(5, "c.go", "d.go") // on main only
	res := analyze(t, nil, filepath.Join(wt), Options{FullHistory: true})
	wantPairs(t, res.Pairs, "a.go b.go shared=5 revs=5/6 score=0.909\n")
	main := analyze(t, nil, r.dir, Options{FullHistory: true})
	if len(main.Pairs) != 2 {
		t.Errorf("main worktree: %v", main.Pairs)
	}
}

func TestPartnersAndStatus(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	s := openStore(t)
	ctx := context.Background()
	if _, err := Pairs(ctx, s); !errors.Is(err, ErrNoAnalysis) {
		t.Fatalf("Pairs before Analyze: %v", err)
	}
	st, err := CheckStatus(ctx, s, r.dir)
	if err != nil || !st.Stale || st.Analyzed {
		t.Fatalf("status before analysis: %+v, %v", st, err)
	}
	r.repeat(6, "a.go", "b.go", "c.go")
	r.repeat(3, "a.go")
	analyze(t, s, r.dir, Options{})
	ps, err := Partners(ctx, s, "a.go")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(ps)
	want := `[{"path":"b.go","shared":6,"revs":9,"partner_revs":6,"score":0.8,"last_commit_time":"2024-01-01T15:00:00Z"},` +
		`{"path":"c.go","shared":6,"revs":9,"partner_revs":6,"score":0.8,"last_commit_time":"2024-01-01T15:00:00Z"}]`
	if string(got) != want {
		t.Errorf("partners:\n got %s\nwant %s", got, want)
	}
	pairs, _ := Pairs(ctx, s)
	line, _ := json.Marshal(pairs[0])
	if string(line) != `{"a":"a.go","b":"b.go","shared":6,"revs_a":9,"revs_b":6,"score":0.8}` {
		t.Errorf("pair JSON: %s", line)
	}

	st, err = CheckStatus(ctx, s, r.dir)
	if err != nil || st.Stale || st.Behind != 0 || st.Head != st.CurrentHead {
		t.Fatalf("fresh status: %+v, %v", st, err)
	}
	r.repeat(3, "z.go")
	st, _ = CheckStatus(ctx, s, r.dir)
	if st.Stale || st.Behind != 3 {
		t.Errorf("3 behind: %+v", st)
	}
	// Many commits at once, through fast-import.
	var fi strings.Builder
	for i := range StaleCommits + 1 {
		fmt.Fprintf(&fi, "commit refs/heads/main\ncommitter Ada <ada@example.com> %d +0000\ndata 2\nx\n", epoch.Unix()+int64(100000+i))
		if i == 0 {
			fmt.Fprintf(&fi, "from refs/heads/main^0\n")
		}
		fmt.Fprintf(&fi, "M 100644 inline z.go\ndata 3\n%02d\n\n", i%100)
	}
	cmd := gitCmd(r.dir, "fast-import", "--quiet")
	cmd.Stdin = strings.NewReader(fi.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	st, _ = CheckStatus(ctx, s, r.dir)
	if !st.Stale || st.Behind != StaleCommits+1 || !strings.Contains(st.Reason, "commits behind") {
		t.Errorf("far behind: %+v", st)
	}
	// Old analyses are stale too.
	analyze(t, s, r.dir, Options{})
	s.Update(func(tx *graph.Tx) error {
		old, _ := loadState(tx)
		old.RanAt = old.RanAt.Add(-8 * 24 * time.Hour)
		b, _ := json.Marshal(old)
		return tx.Set(ns, keyMeta, b)
	})
	st, _ = CheckStatus(ctx, s, r.dir)
	if !st.Stale || !strings.Contains(st.Reason, "8 days old") {
		t.Errorf("old: %+v", st)
	}
}

func TestStoredRecordsRoundTrip(t *testing.T) {
	t.Parallel()
	cs := changeSet{time: 1700000000, merge: false, author: 7, day: 19000,
		files: []uint32{0, 3, 8, 9}, renames: [][2]uint32{{1, 4}}}
	cs.hash[0] = 0xab
	got, err := decodeChangeSet(encodeChangeSet(nil, &cs), 5)
	if err != nil || !reflect.DeepEqual(got, cs) {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	if _, err := decodeChangeSet(encodeChangeSet(nil, &cs), 4); err == nil {
		t.Error("path id beyond the table: no error")
	}
	if _, err := decodeChangeSet([]byte{1, 2, 3}, 5); err == nil {
		t.Error("truncated: no error")
	}
}

func TestStoredOptionChanges(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	s := openStore(t)
	r.repeat(5, "a.go", "b.go")
	r.mv("a.go", "c.go")
	r.commitStaged()
	r.repeat(5, "c.go", "d.go")
	analyze(t, s, r.dir, Options{NoRenames: true})
	// Rename propagation needs renames the stored change-sets lack.
	res := analyze(t, s, r.dir, Options{})
	if !res.Full || res.Reason != "rename detection turned on" {
		t.Errorf("renames on: full=%v reason=%q", res.Full, res.Reason)
	}
	wantPairs(t, res.Pairs, pairsText(analyze(t, nil, r.dir, Options{}).Pairs))
	// Turning it off again needs nothing new.
	res = analyze(t, s, r.dir, Options{NoRenames: true})
	if res.Full {
		t.Errorf("renames off: full, %q", res.Reason)
	}
	wantPairs(t, res.Pairs, pairsText(analyze(t, nil, r.dir, Options{NoRenames: true}).Pairs))
	res = analyze(t, s, r.dir, Options{ByDay: true})
	if !res.Full || res.Reason != "grouping by day turned on" {
		t.Errorf("by day: full=%v reason=%q", res.Full, res.Reason)
	}
	wantPairs(t, res.Pairs, pairsText(analyze(t, nil, r.dir, Options{ByDay: true}).Pairs))
}

func TestDefaultWindowMoves(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	s := openStore(t)
	r.repeat(6, "a.go", "b.go")
	r.clock = r.clock.Add(200 * 24 * time.Hour)
	r.repeat(6, "c.go", "d.go")
	res := analyze(t, s, r.dir, Options{})
	if res.Commits != 12 || len(res.Pairs) != 2 {
		t.Fatalf("first: commits=%d pairs=%d", res.Commits, len(res.Pairs))
	}
	// 200 days later the first six commits are more than a year before HEAD.
	r.clock = r.clock.Add(200 * 24 * time.Hour)
	r.repeat(1, "e.go")
	res = analyze(t, s, r.dir, Options{})
	if res.Full || res.Walked != 1 || res.Commits != 7 {
		t.Errorf("update: full=%v walked=%d commits=%d", res.Full, res.Walked, res.Commits)
	}
	wantPairs(t, res.Pairs, "c.go d.go shared=6 revs=6/6 score=1.000\n")
	// Asking for all of history again walks the dropped commits back in.
	res = analyze(t, s, r.dir, Options{FullHistory: true})
	if res.Full || res.Walked != 6 || res.Commits != 13 || len(res.Pairs) != 2 {
		t.Errorf("full history: full=%v walked=%d commits=%d pairs=%d", res.Full, res.Walked, res.Commits, len(res.Pairs))
	}
	checkEdges(t, s, res.Pairs)
}

func TestLargeValues(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	long := []byte(strings.Repeat("0123456789", 1000))
	short := []byte(strings.Repeat("abc", 1500))
	for _, val := range [][]byte{long, short} {
		if err := s.Batch(func(bt *graph.Batch) error { return setLarge(bt, "x/k", val) }); err != nil {
			t.Fatal(err)
		}
		var got []byte
		err := s.View(func(tx *graph.Tx) error {
			var err error
			got, err = getLarge(tx, "x/k")
			return err
		})
		if err != nil || string(got) != string(val) {
			t.Fatalf("read back %d bytes (%v), want %d", len(got), err, len(val))
		}
	}
	if err := deleteLarge(s, "x/k"); err != nil {
		t.Fatal(err)
	}
	err := s.View(func(tx *graph.Tx) error { _, err := getLarge(tx, "x/k"); return err })
	if !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	// A history with a change-set far above the store's value limit.
	r := newTestRepo(t)
	var many []string
	for i := range 250 {
		many = append(many, fmt.Sprintf("vendor/some/long/path/component%03d/file.go", i))
	}
	r.repeat(1, many...)
	r.repeat(5, "a.go", "b.go")
	res := analyze(t, s, r.dir, Options{})
	if res.Skipped != 1 || len(res.Pairs) != 1 {
		t.Fatalf("skipped=%d pairs=%d", res.Skipped, len(res.Pairs))
	}
	r.repeat(1, "a.go")
	if res = analyze(t, s, r.dir, Options{}); res.Full || res.Walked != 1 {
		t.Fatalf("update: full=%v walked=%d %s", res.Full, res.Walked, res.Reason)
	}
}

func TestCancelAndDamage(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.repeat(300, "a.go", "b.go")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, nil, r.dir, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// A damaged stored record costs a recomputation, not a failure.
	s := openStore(t)
	want := analyze(t, s, r.dir, Options{})
	err := s.Update(func(tx *graph.Tx) error {
		return tx.Scan(ns, prefixBlock, func(k string, _ []byte) error {
			return tx.Set(ns, k, []byte{1, 2, 3})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	res := analyze(t, s, r.dir, Options{})
	if !res.Full || res.Reason != "stored analysis unreadable" {
		t.Errorf("damaged: full=%v reason=%q", res.Full, res.Reason)
	}
	wantPairs(t, res.Pairs, pairsText(want.Pairs))
	if res = analyze(t, s, r.dir, Options{}); res.Full {
		t.Errorf("after repair: full, %q", res.Reason)
	}
}
