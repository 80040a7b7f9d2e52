package cochange

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The exactness tests compare Analyze (renames off) with pair counts made
// independently from `git log --no-merges --no-renames --name-only`.
//
//	LORE_COCHANGE_REPO=/tmp/terraform go test ./cochange -run Exact -v
//
// checks a repository replayed in full with
// ../shared/tools/replay-history; without it a 2000-commit replay of the
// same history is built (once, kept in the system's temporary directory)
// and checked, when the tool and data are present.

const (
	replayTool = "../../shared/tools/replay-history"
	replayData = "../../shared/data/terraform-history.jsonl.gz"
)

func TestExactAgainstGitLogSmallReplay(t *testing.T) {
	t.Parallel()
	needGit(t)
	if testing.Short() {
		t.Skip("-short")
	}
	for _, p := range []string{replayTool, replayData} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%s not found; the replayed-history check needs it", p)
		}
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("replay-history needs python3")
	}
	dir := smallReplay(t)
	checkExact(t, dir, Options{FullHistory: true, NoRenames: true})
	checkExact(t, dir, Options{FullHistory: true, NoRenames: true, MaxChangeset: 10, MinRevs: 3, MinShared: 3, MinCoupling: 0.5})
}

func TestExactAgainstGitLogFullReplay(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("LORE_COCHANGE_REPO")
	if dir == "" {
		t.Skip("set LORE_COCHANGE_REPO to a repository replayed with replay-history to run this check")
	}
	needGit(t)
	checkExact(t, dir, Options{FullHistory: true, NoRenames: true})
	// The last 12 months, as git log --since sees them.
	head := strings.TrimSpace(runGit(t, dir, epoch, "log", "-1", "--format=%ct"))
	ht, _ := strconv.ParseInt(head, 10, 64)
	checkExact(t, dir, Options{Since: time.Unix(ht, 0).AddDate(-1, 0, 0), NoRenames: true})
}

func checkExact(t *testing.T, dir string, o Options) {
	t.Helper()
	start := time.Now()
	res := analyze(t, nil, dir, o)
	ours := time.Since(start)
	o, _ = o.withDefaults()
	start = time.Now()
	log := gitLog(t, dir, o)
	gitTime := time.Since(start)
	want, commits := countGitLog(log, o)
	// Both sides sorted as lines, so that the comparison does not depend
	// on how names with spaces sort.
	got := sortedLines(pairsText(res.Pairs))
	t.Logf("%s: %d commits, git log %v, Analyze %v; %d pairs from git log, %d from Analyze",
		dir, commits, gitTime.Round(time.Millisecond), ours.Round(time.Millisecond), strings.Count(want, "\n"), len(res.Pairs))
	if commits != res.Commits {
		t.Errorf("git log has %d commits, Analyze %d", commits, res.Commits)
	}
	if got != want {
		t.Errorf("pairs differ (-git log +Analyze):\n%s", lineDiff(want, got))
	}
}

// countGitLog is an independent, deliberately plain implementation of the
// counting rules over git log output.
func countGitLog(log string, o Options) (string, int) {
	revs := map[string]int{}
	type key struct{ a, b string }
	shared := map[key]int{}
	commits := 0
	for _, block := range strings.Split(log, "\x01")[1:] {
		lines := strings.Split(block, "\n")[1:]
		files := map[string]bool{}
		for _, l := range lines {
			if l != "" {
				files[l] = true
			}
		}
		commits++
		if len(files) > o.MaxChangeset {
			continue
		}
		var fs []string
		for f := range files {
			fs = append(fs, f)
			revs[f]++
		}
		slices.Sort(fs)
		for i := range fs {
			for j := i + 1; j < len(fs); j++ {
				shared[key{fs[i], fs[j]}]++
			}
		}
	}
	var out []string
	for k, n := range shared {
		ra, rb := revs[k.a], revs[k.b]
		score := float64(n) / (float64(ra+rb) / 2)
		if n >= o.MinShared && ra >= o.MinRevs && rb >= o.MinRevs && score >= o.MinCoupling {
			out = append(out, fmt.Sprintf("%s %s shared=%d revs=%d/%d score=%.3f\n", k.a, k.b, n, ra, rb, score))
		}
	}
	slices.Sort(out)
	return strings.Join(out, ""), commits
}

func sortedLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// smallReplay returns a 2000-commit replay of the shared history, building
// it on first use.
func smallReplay(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "lore-cochange-replay-2000")
	done := filepath.Join(dir, ".git", "lore-replay-complete")
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "lore-cochange-replay-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	out, err := exec.Command(replayTool, replayData, filepath.Join(tmp, "r"), "--limit", "2000").CombinedOutput()
	if err != nil {
		t.Fatalf("replay-history: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, "r", ".git", "lore-replay-complete"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(dir)
	if err := os.Rename(filepath.Join(tmp, "r"), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}
