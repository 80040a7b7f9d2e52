package anchors_test

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/source"
)

// A scenario is a txtar archive under testdata/anchors:
//
//	-- anchors --        one spec per line; "!" prefix: Baseline must fail
//	-- want --           per anchor: spec status change [to]  (staged index)
//	-- want-nobase --    the same without history, when it differs (optional)
//	-- want-worktree --  the same against the working tree (optional)
//	-- why --            per anchor: "spec: text" that the staged verdict's
//	                     reason holds, with history (optional)
//	-- options --        "no-renames": verify without git's rename map, as
//	                     lore verify of the working tree does (optional)
//	-- before/PATH --    the committed repository
//	-- after/PATH --     the staged repository (files not listed are deleted)
//	-- worktree/PATH --  working-tree files changed after staging (optional)
//
// Each scenario runs in a real git repository: before/ is committed and
// baselined, after/ is staged (git rename detection gives the rename map;
// every file listed is tracked, whatever a .gitignore among them says),
// then the anchors are verified in one run against the git index (and the
// working tree) twice: with HEAD as the Base source and without any
// history. A target is written with its selector when its name is
// shared (path::C::m(int)).
func TestScenarios(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	paths, err := filepath.Glob("../testdata/anchors/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runScenario(t, p)
		})
	}
}

type scenario struct {
	anchors      []string
	want         string
	wantNoBase   string
	wantWorktree string
	why          map[string]string
	noRenames    bool
	before       map[string][]byte
	after        map[string][]byte
	worktree     map[string][]byte
}

func loadScenario(t *testing.T, path string) scenario {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := scenario{before: map[string][]byte{}, after: map[string][]byte{}, worktree: map[string][]byte{}, why: map[string]string{}}
	for _, f := range ar.Files {
		switch {
		case f.Name == "anchors":
			for _, l := range strings.Split(string(f.Data), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					sc.anchors = append(sc.anchors, l)
				}
			}
		case f.Name == "want":
			sc.want = normWant(string(f.Data))
		case f.Name == "want-worktree":
			sc.wantWorktree = normWant(string(f.Data))
		case f.Name == "want-nobase":
			sc.wantNoBase = normWant(string(f.Data))
		case f.Name == "why":
			for _, l := range strings.Split(normWant(string(f.Data)), "\n") {
				spec, text, ok := strings.Cut(l, ": ")
				if !ok {
					t.Fatalf("%s: why line %q is not \"spec: text\"", path, l)
				}
				sc.why[spec] = text
			}
		case f.Name == "options":
			for _, o := range strings.Fields(string(f.Data)) {
				if o != "no-renames" {
					t.Fatalf("%s: unknown option %q", path, o)
				}
				sc.noRenames = true
			}
		case strings.HasPrefix(f.Name, "before/"):
			sc.before[strings.TrimPrefix(f.Name, "before/")] = f.Data
		case strings.HasPrefix(f.Name, "after/"):
			sc.after[strings.TrimPrefix(f.Name, "after/")] = f.Data
		case strings.HasPrefix(f.Name, "worktree/"):
			sc.worktree[strings.TrimPrefix(f.Name, "worktree/")] = f.Data
		default:
			t.Fatalf("%s: unknown section %q", path, f.Name)
		}
	}
	return sc
}

func normWant(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(out, "\n")
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// stageRenames returns git's rename detection between HEAD and the index.
func stageRenames(t *testing.T, dir string) (map[string]string, []string) {
	out := git(t, dir, "diff", "--cached", "-M", "--name-status", "HEAD")
	m := map[string]string{}
	var changed []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		changed = append(changed, f[1:]...)
		if len(f) == 3 && strings.HasPrefix(f[0], "R") {
			m[f[1]] = f[2]
		}
	}
	sort.Strings(changed)
	return m, changed
}

func runScenario(t *testing.T, path string) {
	ctx := context.Background()
	sc := loadScenario(t, path)
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, sc.before)
	git(t, dir, "add", "-A", "-f")
	git(t, dir, "commit", "-q", "-m", "before")

	// Baseline against the committed state.
	head, err := source.GitTree(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	before := newSource(t, head, nil)
	var as []anchors.Anchor
	var specs []string
	for _, spec := range sc.anchors {
		mustFail := strings.HasPrefix(spec, "!")
		spec = strings.TrimPrefix(spec, "!")
		a, err := anchors.ParseSpec(spec)
		if err == nil {
			a, err = anchors.Baseline(ctx, before, a)
		}
		if mustFail {
			if err == nil {
				t.Errorf("Baseline(%s) succeeded, want an error", spec)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Baseline(%s): %v", spec, err)
		}
		as = append(as, a)
		specs = append(specs, spec)
	}

	// Move to the after state and stage it.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != ".git" {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
	writeFiles(t, dir, sc.after)
	git(t, dir, "add", "-A", "-f")
	// The staged changes, as lore verify --staged reads them from git.
	renames, changed := stageRenames(t, dir)
	if sc.noRenames {
		renames, changed = nil, nil
	}
	writeFiles(t, dir, sc.worktree)

	staged, err := source.GitIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, withBase := range []bool{true, false} {
		mode := "nobase"
		var base anchors.Files
		if withBase {
			mode = "base"
			base = before
		}
		want := sc.want
		if !withBase && sc.wantNoBase != "" {
			want = sc.wantNoBase
		}
		got, reasons := verifyAll(t, newSource(t, staged, renames), anchors.Options{Base: base, Changed: listed(changed)}, as, specs)
		if d := diffLines(want, got); d != "" {
			t.Errorf("%s staged (%s) (-want +got):\n%s", filepath.Base(path), mode, d)
		}
		for spec, text := range sc.why {
			switch i := slices.Index(specs, spec); {
			case i < 0:
				t.Errorf("%s: why names %s, which is not among the anchors", filepath.Base(path), spec)
			case withBase && !strings.Contains(reasons[i], text):
				t.Errorf("%s staged (%s): %s: reason does not say %q: %s", filepath.Base(path), mode, spec, text, reasons[i])
			}
		}
		if sc.wantWorktree != "" {
			got, _ := verifyAll(t, newSource(t, source.Dir(dir), renames), anchors.Options{Base: base}, as, specs)
			if d := diffLines(sc.wantWorktree, got); d != "" {
				t.Errorf("%s worktree (%s) (-want +got):\n%s", filepath.Base(path), mode, d)
			}
		}
	}
}

func newSource(t *testing.T, fsys fs.FS, renames map[string]string) *anchors.Source {
	t.Helper()
	s, err := anchors.NewSource(fsys, anchors.SourceOptions{Renames: renames})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// verifyAll returns a line per anchor (spec status change [to]) and the
// verdicts' reasons.
func verifyAll(t *testing.T, files anchors.Files, opts anchors.Options, as []anchors.Anchor, specs []string) (string, []string) {
	t.Helper()
	v, err := anchors.NewVerifier(files, opts)
	if err != nil {
		t.Fatal(err)
	}
	var lines, reasons []string
	rs := v.VerifyAll(context.Background(), as)
	for i := range as {
		r := rs[i]
		l := fmt.Sprintf("%s %s %s", specs[i], r.Status, r.Change)
		if r.To != nil && (r.Change != anchors.ChangeNone || r.Status != anchors.Valid) {
			l += " " + anchors.LocationSpec(*r.To)
		}
		lines = append(lines, l)
		reasons = append(reasons, r.Reason)
		if testing.Verbose() {
			t.Logf("%s: %s (%.2f) %s", specs[i], r.Status, r.Confidence, r.Reason)
		}
		// A fix must verify as valid and unchanged against the same source.
		if fixed, ok := anchors.Fix(r); ok {
			if r2 := v.Verify(context.Background(), fixed); r2.Status != anchors.Valid || r2.Change != anchors.ChangeNone {
				t.Errorf("%s: fixed anchor %s verifies as %s/%s: %s", specs[i], fixed.Spec(), r2.Status, r2.Change, r2.Reason)
			}
		}
	}
	return strings.Join(lines, "\n"), reasons
}

func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "-%s\n+%s\n", wl, gl)
		}
	}
	return b.String()
}

// listed is a change's file list as Options.Changed gives it (nil for
// none known).
func listed(files []string) func(context.Context) []string {
	if files == nil {
		return nil
	}
	return func(context.Context) []string { return files }
}
