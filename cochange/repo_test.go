package cochange

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lorehq/lore/graph"
)

// testRepo builds a real git repository with the git command line, with
// fixed identities and dates, so that every run makes the same commits.
type testRepo struct {
	t     *testing.T
	dir   string
	clock time.Time
	n     int
}

var epoch = time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)

func gitEnv(when time.Time) []string {
	d := when.Format(time.RFC3339)
	return append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"GIT_AUTHOR_DATE="+d, "GIT_COMMITTER_DATE="+d,
	)
}

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("building test repositories needs the git command")
	}
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	needGit(t)
	r := &testRepo{t: t, dir: t.TempDir(), clock: epoch}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	return runGit(r.t, r.dir, r.clock, args...)
}

func runGit(t testing.TB, dir string, when time.Time, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(when)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// write gives each file new content, creating directories as needed.
func (r *testRepo) write(files ...string) {
	r.t.Helper()
	for _, f := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		r.n++
		body := fmt.Sprintf("package x\n\n// %s revision %d\nfunc f() {}\n", f, r.n)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// commit changes files and commits them an hour after the previous commit.
func (r *testRepo) commit(files ...string) string {
	r.t.Helper()
	r.write(files...)
	return r.commitStaged()
}

func (r *testRepo) commitStaged() string {
	r.t.Helper()
	r.clock = r.clock.Add(time.Hour)
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("c%d", r.n))
	return strings.TrimSpace(r.git("rev-parse", "HEAD"))
}

func (r *testRepo) rm(files ...string) {
	r.t.Helper()
	r.git(append([]string{"rm", "-q"}, files...)...)
}

func (r *testRepo) mv(from, to string) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(r.dir, to)), 0o755); err != nil {
		r.t.Fatal(err)
	}
	r.git("mv", from, to)
}

// repeat commits the same files n times.
func (r *testRepo) repeat(n int, files ...string) {
	r.t.Helper()
	cs := make([][]string, n)
	for i := range cs {
		cs[i] = files
	}
	r.bulk(cs)
}

func openStore(t *testing.T) *graph.Store {
	t.Helper()
	s, err := graph.Open("", graph.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func analyze(t *testing.T, s *graph.Store, dir string, o Options) *Result {
	t.Helper()
	res, err := Analyze(context.Background(), s, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// pairsText renders pairs one a line, for comparisons with readable diffs.
func pairsText(ps []Pair) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%s %s shared=%d revs=%d/%d score=%.3f\n", p.A, p.B, p.Shared, p.RevsA, p.RevsB, p.Score)
	}
	return b.String()
}

func wantPairs(t *testing.T, got []Pair, want string) {
	t.Helper()
	if g := pairsText(got); g != want {
		t.Errorf("pairs (-want +got):\n%s", lineDiff(want, g))
	}
}

// lineDiff is a small line diff: lines only in want with "-", only in got
// with "+".
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	inW, inG := map[string]int{}, map[string]int{}
	for _, l := range w {
		inW[l]++
	}
	for _, l := range g {
		inG[l]++
	}
	var b strings.Builder
	for _, l := range w {
		if inG[l] == 0 {
			fmt.Fprintf(&b, "-%s\n", l)
		} else {
			inG[l]--
		}
	}
	for _, l := range g {
		if inW[l] == 0 {
			fmt.Fprintf(&b, "+%s\n", l)
		} else {
			inW[l]--
		}
	}
	return b.String()
}

func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(epoch)
	return cmd
}

// bulk makes one commit per element quickly with git fast-import on the
// current branch, each changing the given files, an hour apart; the work
// tree follows.
func (r *testRepo) bulk(commits [][]string) {
	r.t.Helper()
	ref := strings.TrimSpace(r.git("symbolic-ref", "HEAD"))
	var b strings.Builder
	for i, files := range commits {
		r.clock = r.clock.Add(time.Hour)
		fmt.Fprintf(&b, "commit %s\ncommitter Ada <ada@example.com> %d +0000\ndata 2\nb\n", ref, r.clock.Unix())
		if i == 0 {
			if _, err := exec.Command("git", "-C", r.dir, "rev-parse", "-q", "--verify", "HEAD").Output(); err == nil {
				fmt.Fprintf(&b, "from %s^0\n", ref)
			}
		}
		for _, f := range files {
			r.n++
			body := fmt.Sprintf("package x\n\n// %s revision %d\nfunc f() {}\n", f, r.n)
			fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n%s\n", f, len(body), body)
		}
	}
	cmd := gitCmd(r.dir, "fast-import", "--quiet", "--force")
	cmd.Stdin = strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("fast-import: %v\n%s", err, out)
	}
	r.git("reset", "-q", "--hard", ref)
}
