package cochange

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/lorehq/lore/graph"
)

// TestMergeHistoriesAgainstGitLog grows random merge-based histories with
// real git — topic branches forked from anywhere, worked on in turns,
// merged into each other and into main with --no-ff, main merged back into
// topics, committer dates that go backwards (clock skew) — and checks,
// every few steps, Analyze against a count made from git log: every
// non-merge commit (git log --no-merges), with windows by date and by
// count, and the first-parent mode (git log --first-parent
// --diff-merges=first-parent). Each check also updates a stored analysis
// and compares it with a fresh one.
func TestMergeHistoriesAgainstGitLog(t *testing.T) {
	t.Parallel()
	needGit(t)
	forSeeds(t, 3, mergeHistory)
}

func mergeHistory(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := newTestRepo(t)
	git := func(when time.Time, args ...string) error {
		cmd := gitCmd(r.dir, args...)
		cmd.Env = gitEnv(when)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
		return nil
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	files := []string{"a.go", "b.go", "c.go", "d/e.go", "d/f.go", "g.go", "h.go"}
	r.commit(files...)
	branches := []string{"main"}
	cur := "main"
	checkout := func(b string) {
		if b != cur {
			must(git(r.clock, "checkout", "-q", b))
			cur = b
		}
	}
	type variant struct {
		o Options
		s *graph.Store
	}
	var variants []variant
	for _, o := range []Options{
		{FullHistory: true, NoRenames: true},
		{FullHistory: true},
		{MaxCommits: 17, NoRenames: true},
		{FullHistory: true, NoRenames: true, Merges: true},
		{MaxCommits: 9, NoRenames: true, Merges: true},
	} {
		o.MinRevs, o.MinShared, o.MinCoupling = 2, 2, 0.2
		variants = append(variants, variant{o, openStore(t)})
	}
	merges, skewed := 0, 0
	pairs := make([]int, len(variants))
	for step := range 60 {
		switch op := rng.IntN(10); {
		case op < 5: // a commit on some branch, now and then dated in the past
			checkout(branches[rng.IntN(len(branches))])
			n := 1 + rng.IntN(3)
			for range n {
				r.write(files[rng.IntN(len(files))])
			}
			if rng.IntN(8) == 0 {
				f := fmt.Sprintf("n%d.go", step)
				files = append(files, f)
				r.write(f)
			}
			when := r.clock.Add(time.Hour)
			if rng.IntN(6) == 0 {
				when = r.clock.Add(-time.Duration(1+rng.IntN(72)) * time.Hour)
				skewed++
			} else {
				r.clock = when
			}
			must(git(when, "add", "-A"))
			must(git(when, "commit", "-q", "--allow-empty", "-m", fmt.Sprint(step)))
		case op < 7: // a new branch from some branch
			from := branches[rng.IntN(len(branches))]
			b := fmt.Sprintf("topic%d", step)
			must(git(r.clock, "branch", b, from))
			branches = append(branches, b)
		default: // merge one branch into another (mostly into main)
			into := "main"
			if rng.IntN(3) == 0 {
				into = branches[rng.IntN(len(branches))]
			}
			from := branches[rng.IntN(len(branches))]
			if from == into {
				continue
			}
			checkout(into)
			r.clock = r.clock.Add(time.Hour)
			if err := git(r.clock, "merge", "-q", "--no-ff", "-X", "theirs", "-m", "merge "+from+" into "+into, from); err != nil {
				must(git(r.clock, "merge", "--abort"))
				continue
			}
			merges++
		}
		if step%6 != 5 {
			continue
		}
		checkout("main")
		head := r.clock
		for i, v := range variants {
			pairs[i] = checkGitLog(t, fmt.Sprintf("seed %d step %d %+v", seed, step, v.o), r.dir, v.o)
			got, want := analyze(t, v.s, r.dir, v.o), analyze(t, nil, r.dir, v.o)
			if got.Commits != want.Commits || pairsText(got.Pairs) != pairsText(want.Pairs) || got.Mode != want.Mode {
				t.Fatalf("seed %d step %d %+v: stored (full=%v %q) has %d commits, fresh %d; pairs (-fresh +stored):\n%s",
					seed, step, v.o, got.Full, got.Reason, got.Commits, want.Commits, lineDiff(pairsText(want.Pairs), pairsText(got.Pairs)))
			}
		}
		// A window by date, which skewed commits straddle.
		o := Options{Since: head.Add(-time.Duration(10+rng.IntN(30)) * time.Hour), NoRenames: true, MinRevs: 1, MinShared: 1, MinCoupling: 0.1}
		res := analyze(t, nil, r.dir, o)
		o, _ = o.withDefaults()
		want, commits := countGitLog(gitLog(t, r.dir, o), o)
		if commits != res.Commits || sortedLines(pairsText(res.Pairs)) != want {
			t.Errorf("seed %d step %d since %v: %d commits, git log %d; pairs (-git log +Analyze):\n%s",
				seed, step, o.Since, res.Commits, commits, lineDiff(want, sortedLines(pairsText(res.Pairs))))
		}
	}
	t.Logf("seed %d: %d branches, %d merges, %d commits dated before their predecessor; pairs at the end per variant %v", seed, len(branches), merges, skewed, pairs)
	if slices.Contains(pairs, 0) {
		t.Errorf("seed %d: a variant has no pairs: %v", seed, pairs)
	}
	if merges < 3 {
		t.Errorf("seed %d: only %d merges; the test needs more", seed, merges)
	}
}
