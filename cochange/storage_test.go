package cochange

import (
	"fmt"
	"path/filepath"
	"testing"
)

// Every way git stores objects must give the same result as git log
// (source's tests check the reader itself on the same variants).
func TestObjectStorageVariants(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	var commits [][]string
	for i := range 120 {
		commits = append(commits, []string{
			fmt.Sprintf("dir%d/sub/f%d.go", i%3, i%5),
			fmt.Sprintf("dir%d/g%d.go", i%4, i%7),
			"top.go",
		})
	}
	r.bulk(commits[:60])
	o := Options{FullHistory: true, NoRenames: true, MinRevs: 2, MinShared: 2, MinCoupling: 0.1}
	steps := []struct {
		name string
		prep func()
	}{
		{"fast-import pack", func() {}},
		{"gc ofs deltas", func() { r.git("gc", "-q") }},
		{"ref deltas", func() { r.git("-c", "repack.useDeltaBaseOffset=false", "repack", "-q", "-a", "-d", "-f") }},
		{"commit-graph", func() { r.git("commit-graph", "write", "--reachable") }},
		{"several packs and loose objects", func() {
			r.bulk(commits[60:90])
			r.git("repack", "-q", "-d")
			for _, c := range commits[90:] {
				r.commit(c...)
			}
		}},
	}
	for _, st := range steps {
		st.prep()
		checkExactQuiet(t, st.name, r.dir, o)
	}
	// A clone that borrows its objects through objects/info/alternates.
	shared := filepath.Join(t.TempDir(), "shared")
	runGit(t, r.dir, r.clock, "clone", "-q", "--shared", r.dir, shared)
	checkExactQuiet(t, "alternates", shared, o)
	packs, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) < 2 {
		t.Errorf("%d packs, wanted several", len(packs))
	}
}

func checkExactQuiet(t *testing.T, name, dir string, o Options) {
	t.Helper()
	if checkGitLog(t, name, dir, o) == 0 {
		t.Errorf("%s: no pairs at all; the test needs some", name)
	}
}

// checkGitLog compares Analyze with a count from git log and returns the
// number of pairs.
func checkGitLog(t *testing.T, name, dir string, o Options) int {
	t.Helper()
	res := analyze(t, nil, dir, o)
	o, _ = o.withDefaults()
	want, commits := countGitLog(gitLog(t, dir, o), o)
	got := sortedLines(pairsText(res.Pairs))
	if commits != res.Commits || got != want {
		t.Errorf("%s: %d commits, git log %d; pairs (-git log +Analyze):\n%s", name, res.Commits, commits, lineDiff(want, got))
	}
	return len(res.Pairs)
}

// gitLog runs the git log that lists the commits Analyze counts with o,
// each as \x01, its hash and the files it changed.
func gitLog(t testing.TB, dir string, o Options) string {
	t.Helper()
	args := []string{"-c", "core.quotePath=false", "log", "--no-renames", "--name-only", "--format=%x01%H"}
	if o.Merges {
		// The first-parent chain, a merge as its diff against its first parent.
		args = append(args, "--first-parent", "--diff-merges=first-parent")
	} else {
		args = append(args, "--no-merges")
	}
	if !o.Since.IsZero() {
		args = append(args, fmt.Sprintf("--since=%d", o.Since.Unix()))
	}
	if o.MaxCommits > 0 {
		args = append(args, fmt.Sprintf("--max-count=%d", o.MaxCommits))
	}
	return runGit(t, dir, epoch, args...)
}
