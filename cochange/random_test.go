package cochange

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/lorehq/lore/graph"
)

// TestIncrementalRandomHistories grows random histories (edits, renames,
// deletions, days passing, several authors) and checks after every few
// commits that updating a stored analysis gives what a fresh one gives,
// under several windows and option sets.
func TestIncrementalRandomHistories(t *testing.T) {
	t.Parallel()
	forSeeds(t, 2, randomHistory)
}

// forSeeds runs fn as parallel subtests, one per seed: n of them, or
// LORE_COCHANGE_SEEDS for a longer hunt.
func forSeeds(t *testing.T, n uint64, fn func(*testing.T, uint64)) {
	if v, err := strconv.ParseUint(os.Getenv("LORE_COCHANGE_SEEDS"), 10, 64); err == nil {
		n = v
	}
	for seed := range n {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			fn(t, seed)
		})
	}
}

func randomHistory(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 42))
	r := newTestRepo(t)
	variants := []Options{
		{},
		{FullHistory: true},
		{MaxCommits: 15},
		{FullHistory: true, NoRenames: true},
		{ByDay: true, FullHistory: true},
		{ByDay: true, MaxCommits: 12},
		{Merges: true, MaxCommits: 20},
	}
	for i := range variants {
		variants[i].MinRevs, variants[i].MinShared, variants[i].MinCoupling = 2, 2, 0.2
	}
	stores := make([]*graph.Store, len(variants))
	for i := range stores {
		stores[i] = openStore(t)
	}
	files := []string{"a.go", "b.go", "c.go", "d/e.go", "d/f.go", "g.go"}
	live := slices.Clone(files)
	r.commit(files...)
	authors := []string{"ada@example.com", "bob@example.com"}
	for step := range 40 {
		author := authors[rng.IntN(len(authors))]
		if rng.IntN(6) == 0 { // a branch with two commits, merged with a merge commit
			git := func(args ...string) {
				cmd := gitCmd(r.dir, args...)
				cmd.Env = gitEnv(r.clock)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			br := fmt.Sprintf("topic%d", step)
			git("checkout", "-q", "-b", br)
			for range 2 {
				r.write(live[rng.IntN(len(live))], live[rng.IntN(len(live))])
				r.clock = r.clock.Add(time.Hour)
				git("commit", "-qam", br)
			}
			git("checkout", "-q", "main")
			r.clock = r.clock.Add(time.Hour)
			git("merge", "-q", "--no-ff", "-m", "merge "+br, br)
		}
		switch op := rng.IntN(10); {
		case op < 6 || len(live) < 3: // edit two or three files
			n := 2 + rng.IntN(2)
			rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
			r.write(live[:min(n, len(live))]...)
		case op < 8: // rename one, edit another
			from := live[rng.IntN(len(live))]
			to := fmt.Sprintf("r%d/%s", step, filepath.Base(from))
			r.mv(from, to)
			live = slices.DeleteFunc(live, func(s string) bool { return s == from })
			live = append(live, to)
			r.write(live[0])
		default: // delete one, add one
			gone := live[rng.IntN(len(live))]
			r.rm(gone)
			live = slices.DeleteFunc(live, func(s string) bool { return s == gone })
			added := fmt.Sprintf("n%d.go", step)
			r.write(added)
			live = append(live, added)
		}
		if rng.IntN(4) == 0 {
			r.clock = r.clock.Add(time.Duration(1+rng.IntN(120)) * 24 * time.Hour)
		}
		r.clock = r.clock.Add(time.Hour)
		cmd := gitCmd(r.dir, "add", "-A")
		cmd.Env = gitEnv(r.clock)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git add: %v\n%s", err, out)
		}
		cmd = gitCmd(r.dir, "commit", "-q", "-m", fmt.Sprint(step))
		cmd.Env = append(gitEnv(r.clock), "GIT_AUTHOR_EMAIL="+author)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git commit: %v\n%s", err, out)
		}
		if step%5 != 4 {
			continue
		}
		for i, o := range variants {
			got := analyze(t, stores[i], r.dir, o)
			want := analyze(t, nil, r.dir, o)
			if got.Commits != want.Commits || pairsText(got.Pairs) != pairsText(want.Pairs) {
				t.Fatalf("seed %d step %d options %+v: stored (full=%v %q) has %d commits, fresh %d; pairs (-fresh +stored):\n%s",
					seed, step, o, got.Full, got.Reason, got.Commits, want.Commits, lineDiff(pairsText(want.Pairs), pairsText(got.Pairs)))
			}
			if step > 4 && got.Full && o.MaxCommits == 0 && o.FullHistory {
				t.Errorf("seed %d step %d options %+v: recomputed: %s", seed, step, o, got.Reason)
			}
		}
	}
}
