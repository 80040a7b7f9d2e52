package verify

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/source"
)

// --fix writes baselines into a file it reads again after verifying. When
// the file changed in between (a person removed anchor 1), the anchor to
// rewrite is found by what it is (spec and baseline), never by its old
// position: position 1 now holds another anchor (issue 27).
func TestFixMatchesAnchorsByIdentity(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc One(x int) int {\n\treturn x + 1\n}\n\nfunc Two(x int) int {\n\treturn x * 2\n}\n")
	l := &learnfile.Learning{ID: "ab12", Title: "One and Two stay apart", Path: learnfile.Dir + "/ab12.md",
		Updated: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
	files, err := anchors.NewSource(source.Dir(root), anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"a.go::One", "a.go::Two"} {
		a, err := anchors.ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		if a, err = anchors.Baseline(ctx, files, a); err != nil {
			t.Fatal(err)
		}
		l.Anchors = append(l.Anchors, a)
	}
	files.Close()
	read := func() *learnfile.Learning {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(l.Path)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := learnfile.Parse(l.Path, data)
		if err != nil {
			t.Fatal(err)
		}
		got.Path = l.Path
		return got
	}
	save := func(l *learnfile.Learning) {
		t.Helper()
		data, err := l.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		write(l.Path, string(data))
	}
	save(l)
	// Both move to b.go: --fix would rewrite both.
	write("a.go", "package a\n")
	write("b.go", "package a\n\nfunc One(x int) int {\n\treturn x + 1\n}\n\nfunc Two(x int) int {\n\treturn x * 2\n}\n")
	st, err := graph.Open("", graph.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ls := catalog.Open(root, st, nil)
	if err := ls.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	src, err := Read(ctx, root, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Check(ctx, ls, ls.IDs(), src, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var fixed []anchors.Anchor
	for i, r := range run.Anchors {
		a, ok := anchors.Fix(r)
		if !ok {
			t.Fatalf("result %d not fixable: %+v", i, r)
		}
		fixed = append(fixed, a)
	}
	// Meanwhile the person removes anchor 1.
	fresh := read()
	fresh.Anchors = fresh.Anchors[1:]
	save(fresh)
	if _, err := Fix(ctx, run, FixOptions{}); err != nil {
		t.Fatal(err)
	}
	got := read()
	if len(got.Anchors) != 1 || got.Anchors[0].Symbol != "b.go::Two" {
		t.Fatalf("anchors after --fix = %+v, want only b.go::Two", got.Anchors)
	}
	if got.Anchors[0] != fixed[1] {
		t.Errorf("anchor = %+v, want the fix of Two %+v", got.Anchors[0], fixed[1])
	}
	if got.Updated.Year() == 2020 {
		t.Errorf("updated %v not bumped by --fix", got.Updated)
	}
	// An anchor the person changed is left as they wrote it.
	fresh = read()
	fresh.Anchors[0].Symbol = "b.go::One"
	fresh.Anchors[0].Hash = ""
	save(fresh)
	if _, err := Fix(ctx, run, FixOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := read(); got.Anchors[0].Symbol != "b.go::One" || got.Anchors[0].Hash != "" {
		t.Errorf("a person's anchor was overwritten: %+v", got.Anchors[0])
	}
}

// validResults returns an in-memory store and n results of valid anchors,
// one per learning.
func validResults(t *testing.T, n int) (*graph.Store, []anchors.Result) {
	t.Helper()
	st, err := graph.Open("", graph.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	rs := make([]anchors.Result, n)
	for i := range rs {
		rs[i] = anchors.Result{Learning: fmt.Sprintf("l%05d", i), Anchor: 1, Spec: "a.go", Status: anchors.Valid, Change: anchors.ChangeNone}
	}
	return st, rs
}

// Record reads stored states by lookup for a few results and in
// one scan for many; both record exactly the anchors whose state changed.
func TestRecordTransitionsFewAndMany(t *testing.T) {
	for _, n := range []int{5, 700} {
		st, rs := validResults(t, n)
		history := func() int {
			count := 0
			err := st.View(func(tx *graph.Tx) error {
				return tx.Keys(nsHistory, "", func(string) error { count++; return nil })
			})
			if err != nil {
				t.Fatal(err)
			}
			return count
		}
		record := func() {
			if _, err := Record(st, "c1", rs); err != nil {
				t.Fatal(err)
			}
		}
		record()
		if got := history(); got != n {
			t.Fatalf("%d results: %d transitions recorded first, want %d", n, got, n)
		}
		record()
		if got := history(); got != n {
			t.Errorf("%d results: the same states again recorded %d transitions", n, got-n)
		}
		for _, i := range []int{0, n / 2, n - 1} {
			rs[i].Status, rs[i].Change = anchors.Drifted, anchors.ChangeBodyChanged
		}
		record()
		if got := history(); got != n+3 {
			t.Errorf("%d results: three drifts recorded %d transitions", n, got-n)
		}
	}
}

// A stored state that does not decode is not taken for a state: Record
// names it, writes the current one over it and records the transition
// from no status, for a few results (lookups) and for many (one scan).
func TestRecordReplacesDamagedState(t *testing.T) {
	for _, n := range []int{5, 700} {
		st, rs := validResults(t, n)
		if _, err := Record(st, "c1", rs); err != nil {
			t.Fatal(err)
		}
		// A state cut short, and one whose status is of the wrong type
		// (which json.Unmarshal reports after decoding the other fields).
		bad := map[string]string{stateKey(rs[1].Learning, 1): `{"s":"valid","c":`, stateKey(rs[3].Learning, 1): `{"s":7,"c":"none","p":"a.go"}`}
		if err := st.Update(func(tx *graph.Tx) error {
			for k, v := range bad {
				if err := tx.Set(nsAnchorState, k, []byte(v)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		damaged, err := Record(st, "c2", rs)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{stateKey(rs[1].Learning, 1), stateKey(rs[3].Learning, 1)}; !slices.Equal(damaged, want) {
			t.Errorf("%d results: damaged = %v, want %v", n, damaged, want)
		}
		for _, i := range []int{1, 3} {
			h, err := History(st, rs[i].Learning)
			if err != nil {
				t.Fatal(err)
			}
			if len(h) != 2 || h[1].OldStatus != "" || h[1].NewStatus != anchors.Valid {
				t.Errorf("%d results: history of %s = %+v, want a second transition from no status to valid", n, rs[i].Learning, h)
			}
		}
		if damaged, err := Record(st, "c3", rs); err != nil || len(damaged) > 0 {
			t.Errorf("%d results: after the repair, Record = %v, %v; want no damage", n, damaged, err)
		}
	}
}

// Every mode lists the files that differ from its base, so that a plain
// verify follows what the pre-commit hook follows from the change's calls;
// only a staged run (without Everything) is limited to them.
func TestReadListsTheDiffInEveryMode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+root, "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.invalid",
			"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc A() {}\n")
	write("b.go", "package a\n\nfunc B() {}\n")
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-qm", "initial")
	write("a.go", "package a\n\nfunc A2() {}\n")
	for _, tc := range []struct {
		name    string
		opts    ReadOptions
		stage   bool
		limited bool
	}{
		{"worktree", ReadOptions{}, false, false},
		{"staged", ReadOptions{Staged: true}, true, true},
		{"staged, everything", ReadOptions{Staged: true, Everything: true}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.stage {
				git("add", "a.go")
			}
			vs, err := Read(ctx, root, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer vs.Close()
			if vs.Diffed == nil {
				t.Fatal("no Diffed")
			}
			if got := vs.Diffed(ctx); !slices.Equal(got, []string{"a.go"}) {
				t.Errorf("Diffed = %v, want [a.go]", got)
			}
			if got := vs.Changed != nil; got != tc.limited {
				t.Errorf("limited to the diff: %v, want %v (Changed %v)", got, tc.limited, vs.Changed)
			}
			if vs.Base == nil {
				t.Error("no Base")
			}
		})
	}
}
