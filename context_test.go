package lore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/rank"
)

// contextFixture is the repository of testdata/context/repo.txtar, built
// in a temporary directory: files, a git history with fixed dates, the
// index, co-change analysis and one verification.
type contextFixture struct {
	ws      *Workspace
	queries []string
}

func newContextFixture(t testing.TB) *contextFixture {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/context/repo.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fx := &contextFixture{}
	var history []string
	for _, f := range ar.Files {
		switch f.Name {
		case "history":
			history = strings.Split(strings.TrimSpace(string(f.Data)), "\n")
			continue
		case "queries":
			for _, l := range strings.Split(string(f.Data), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					fx.queries = append(fx.queries, l)
				}
			}
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Init(dir); err != nil {
		t.Fatal(err)
	}
	git := func(date string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
			"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.invalid",
			"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.invalid",
			"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("2026-01-15T10:00:00Z", "init", "-q", "-b", "main")
	git("2026-01-15T10:00:00Z", "add", "-A")
	git("2026-01-15T10:00:00Z", "commit", "-qm", "initial")
	for i, h := range history {
		fs := strings.Fields(h)
		for _, f := range fs[1:] {
			p := filepath.Join(dir, filepath.FromSlash(f))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, fmt.Appendf(data, "// change %d\n", i), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git(fs[0], append([]string{"add"}, fs[1:]...)...)
		git(fs[0], "commit", "-qm", "change "+fs[0])
	}
	ws, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ws.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.AnalyzeCochange(ctx, cochange.Options{FullHistory: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Verify(ctx, VerifyOptions{}); err != nil {
		t.Logf("verify: %v (statuses stay unverified)", err)
	}
	fx.ws = ws
	return fx
}

// TestContextRanking runs the ranking queries of the fixture: the first
// relevant learning must rank first, and the test reports precision@5 and
// the mean reciprocal rank of the first relevant result.
func TestContextRanking(t *testing.T) {
	fx := newContextFixture(t)
	if len(fx.queries) < 20 {
		t.Fatalf("only %d queries; want at least 20", len(fx.queries))
	}
	ctx := context.Background()
	var sumP5, sumRR float64
	for _, q := range fx.queries {
		lhs, rhs, ok := strings.Cut(q, "->")
		if !ok {
			t.Fatalf("query %q: want TARGET... -> ID...", q)
		}
		targets, want := strings.Fields(lhs), strings.Fields(rhs)
		res, err := fx.ws.Context(ctx, ContextOptions{Targets: targets, Limit: 10})
		if err != nil {
			t.Errorf("%s: %v", lhs, err)
			continue
		}
		var got []string
		for _, it := range res.Learnings {
			got = append(got, it.ID)
			if it.Reason == "" {
				t.Errorf("%s: %s has no reason", lhs, it.ID)
			}
		}
		hits := 0
		for _, id := range got[:min(5, len(got))] {
			if slices.Contains(want, id) {
				hits++
			}
		}
		p5 := float64(hits) / float64(min(5, len(want)))
		rr := 0.0
		if i := slices.Index(got, want[0]); i >= 0 {
			rr = 1 / float64(i+1)
		}
		sumP5 += p5
		sumRR += rr
		if len(got) == 0 || got[0] != want[0] {
			t.Errorf("%s: top result %v, want %s first", strings.TrimSpace(lhs), got, want[0])
		}
		t.Logf("%-45s P@5 %.2f  RR %.2f  %v", strings.TrimSpace(lhs), p5, rr, got)
	}
	n := float64(len(fx.queries))
	t.Logf("context ranking over %d queries: precision@5 %.3f, MRR %.3f", len(fx.queries), sumP5/n, sumRR/n)
	if sumP5/n < 0.8 {
		t.Errorf("precision@5 %.3f below 0.8", sumP5/n)
	}
}

func TestContextDetails(t *testing.T) {
	fx := newContextFixture(t)
	ctx := context.Background()
	get := func(t *testing.T, targets ...string) *rank.Result {
		t.Helper()
		res, err := fx.ws.Context(ctx, ContextOptions{Targets: targets, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	item := func(res *rank.Result, id string) *rank.Item {
		for i := range res.Learnings {
			if res.Learnings[i].ID == id {
				return &res.Learnings[i]
			}
		}
		return nil
	}

	t.Run("reasons", func(t *testing.T) {
		res := get(t, "src/auth.ts:10")
		if tg := res.Targets[0]; tg.File != "src/auth.ts" || tg.Line != 10 || tg.Symbol != "src/auth.ts::AuthService::validateToken" {
			t.Errorf("target resolved to %+v", tg)
		}
		want := map[string]string{
			"tokexpiry":  "anchored to src/auth.ts::AuthService::validateToken, the target symbol",
			"authfile":   "anchored to src/auth.ts",
			"jwtalg":     "anchored to src/jwt.ts::sign in src/jwt.ts, which src/auth.ts imports",
			"expiryrace": "linked from #tokexpiry (caused_by), which is anchored to src/auth.ts::AuthService::validateToken, the target symbol",
		}
		for id, reason := range want {
			it := item(res, id)
			if it == nil {
				t.Errorf("%s missing from %v", id, res.Learnings)
				continue
			}
			if it.Reason != reason {
				t.Errorf("%s: reason %q, want %q", id, it.Reason, reason)
			}
		}
		// One line, several declarations: the fields of a one-line class
		// are on the target line, whichever is the target.
		res = get(t, "src/billing.ts:11")
		if it := item(res, "chargecents"); it == nil || it.Reason != "anchored to src/billing.ts::Charge::cents, on the target line 11" {
			t.Errorf("chargecents at its line, the target %s: %+v", res.Targets[0].Symbol, it)
		}
		res = get(t, "src/cache.ts")
		if it := item(res, "poolleak"); it == nil || it.Reason != "anchored to src/db.ts::Pool::query in src/db.ts, which changes together with src/cache.ts (coupling 1.00)" {
			t.Errorf("poolleak through co-change: %+v", it)
		}
		res = get(t, "src/session.ts")
		if it := item(res, "authfile"); it == nil || !strings.HasPrefix(it.Reason, "anchored to src/auth.ts, which") {
			t.Errorf("authfile from session.ts: %+v", it)
		}
	})

	t.Run("stale apart", func(t *testing.T) {
		res := get(t, "src/auth.ts")
		if item(res, "oldlogin") != nil {
			t.Error("invalid learning oldlogin listed as current")
		}
		if len(res.Stale) != 1 || res.Stale[0].ID != "oldlogin" || res.Stale[0].Status != rank.StatusInvalid {
			t.Errorf("stale = %+v, want oldlogin (invalid)", res.Stale)
		}
		if it := item(res, "authfile"); it == nil || it.Status != rank.StatusValid {
			t.Errorf("authfile status: %+v", it)
		}
		if it := item(res, "expiryrace"); it == nil || it.Status != rank.StatusUnverified {
			t.Errorf("a learning without anchors is unverified: %+v", it)
		}
	})

	t.Run("deterministic", func(t *testing.T) {
		a, _ := json.Marshal(get(t, "src/db.ts", "src/jwt.ts"))
		b, _ := json.Marshal(get(t, "src/db.ts", "src/jwt.ts"))
		if !bytes.Equal(a, b) {
			t.Errorf("two runs differ:\n%s\n%s", a, b)
		}
	})

	t.Run("json fields", func(t *testing.T) {
		b, err := json.Marshal(get(t, "src/jwt.ts"))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Targets   []map[string]any `json:"targets"`
			Learnings []map[string]any `json:"learnings"`
			Stale     []map[string]any `json:"stale"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"id", "title", "tags", "status", "score", "reason", "hops", "anchors", "body", "path"} {
			if _, ok := m.Learnings[0][k]; !ok {
				t.Errorf("learning JSON lacks %q: %s", k, b)
			}
		}
		if m.Stale == nil {
			t.Error("stale must be an array, not null")
		}
	})

	t.Run("markdown", func(t *testing.T) {
		var buf bytes.Buffer
		if err := get(t, "src/auth.ts").WriteMarkdown(&buf); err != nil {
			t.Fatal(err)
		}
		md := buf.String()
		for _, s := range []string{
			"# What we know about `src/auth.ts`",
			"## AuthService is the only place that reads password hashes",
			"- anchor: src/auth.ts::AuthService::validateToken",
			"- why: anchored to src/auth.ts",
			"Keep hash reads here",
			"## Stale (invalid",
			"#oldlogin loginLegacy accepts md5 hashes",
		} {
			if !strings.Contains(md, s) {
				t.Errorf("markdown lacks %q:\n%s", s, md)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			opts ContextOptions
			want string
		}{
			{ContextOptions{}, "at least one target"},
			{ContextOptions{Targets: []string{"nope.ts"}}, "neither a file"},
			{ContextOptions{Targets: []string{"src/auth.ts:0"}}, "lines start at 1"},
			{ContextOptions{Targets: []string{"../x"}}, "outside the repository"},
			{ContextOptions{Targets: []string{"src/auth.ts"}, Depth: 9}, "depth 9"},
			{ContextOptions{Targets: []string{"src/auth.ts"}, Limit: -1}, "limit -1"},
		} {
			_, err := fx.ws.Context(ctx, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: err %v, want %q", tc.opts, err, tc.want)
			}
		}
	})

	t.Run("depth and limit", func(t *testing.T) {
		res, err := fx.ws.Context(ctx, ContextOptions{Targets: []string{"src/auth.ts"}, Depth: 1, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Learnings) != 3 {
			t.Errorf("limit 3: got %d", len(res.Learnings))
		}
		for _, it := range res.Learnings {
			if it.Hops > 1 {
				t.Errorf("depth 1: %s at %d hops", it.ID, it.Hops)
			}
		}
	})

	t.Run("drifted marked", func(t *testing.T) {
		l, err := fx.ws.Add(ctx, AddOptions{Title: "validateToken compares exp in milliseconds", Anchors: []string{"src/auth.ts::AuthService::validateToken"}})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(fx.ws.Root(), "src", "auth.ts")
		data, _ := os.ReadFile(p)
		data = bytes.Replace(data, []byte("return claims.exp > Date.now();"), []byte("return claims.exp > Date.now() - 30;"), 1)
		os.WriteFile(p, data, 0o644)
		if _, err := fx.ws.Index(ctx, IndexOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := fx.ws.Verify(ctx, VerifyOptions{}); err != nil {
			t.Fatal(err)
		}
		res := get(t, "src/auth.ts:10")
		if it := item(res, l.ID); it == nil || it.Status != rank.StatusDrifted {
			t.Fatalf("%s after its body changed: %+v", l.ID, it)
		}
		var buf bytes.Buffer
		res.WriteMarkdown(&buf)
		if !strings.Contains(buf.String(), "status: drifted") {
			t.Errorf("markdown does not mark drift:\n%s", buf.String())
		}
	})
}

func TestContextWithoutIndex(t *testing.T) {
	ws := newWorkspace(t)
	ctx := context.Background()
	os.WriteFile(filepath.Join(ws.Root(), "a.go"), []byte("package a\n\nfunc F() {}\n"), 0o644)
	l, err := ws.Add(ctx, AddOptions{Title: "F is pure", Anchors: []string{"a.go#L3-L3"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ws.Context(ctx, ContextOptions{Targets: []string{"a.go:3"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Learnings) != 1 || res.Learnings[0].ID != l.ID || res.Learnings[0].Score != 0.95 { // a line anchor containing the target line
		t.Errorf("learnings = %+v", res.Learnings)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "run lore index") {
		t.Errorf("notes = %q", res.Notes)
	}
}

// TestContextGoPackage: the files of a Go package are one unit, so a
// question about one reaches what is known about the others; symbols are
// linked to their files in the graph and leave it with their anchors.
func TestContextGoPackage(t *testing.T) {
	ws := newWorkspace(t)
	ctx := context.Background()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(ws.Root(), filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pkg/a.go", "package pkg\n\n// A is the entry.\nfunc A() int { return B() + 1 }\n")
	write("pkg/b.go", "package pkg\n\nfunc B() int { return 2 }\n")
	write("pkg/sub/c.go", "package sub\n\nfunc C() {}\n")
	write("other/d.go", "package other\n\nfunc D() {}\n")
	if _, err := ws.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	l, err := ws.Add(ctx, AddOptions{Title: "A adds one to B", Anchors: []string{"pkg/a.go::A"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ws.Context(ctx, ContextOptions{Targets: []string{"pkg/b.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Learnings) != 1 || res.Learnings[0].ID != l.ID || !strings.Contains(res.Learnings[0].Reason, "in the Go package of pkg/b.go") {
		t.Fatalf("context of a sibling file: %+v", res.Learnings)
	}
	for _, target := range []string{"pkg/sub/c.go", "other/d.go"} {
		res, err := ws.Context(ctx, ContextOptions{Targets: []string{target}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Learnings) != 0 {
			t.Errorf("context of %s, another package: %+v", target, res.Learnings)
		}
	}

	// symbol:pkg/a.go::A DEFINED_IN file:pkg/a.go: a path from the
	// learning to its file and on to the package's other files.
	if _, err := ws.Path(ctx, "learning:"+l.ID, "file:pkg/a.go", graph.TraverseOptions{Depth: 2}); err != nil {
		t.Errorf("no path from the learning to its file: %v", err)
	}
	// Re-anchored elsewhere, the old symbol's node leaves the graph.
	if _, err := ws.AddAnchor(ctx, l.ID, "pkg/b.go::B"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.RemoveAnchor(ctx, l.ID, "1"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Node(ctx, "symbol:pkg/a.go::A", false); !errors.Is(err, graph.ErrNotFound) && !errors.Is(err, ErrNotFound) {
		t.Errorf("symbol no learning is anchored to: %v, want not found", err)
	}
	if _, err := ws.Node(ctx, "symbol:pkg/b.go::B", false); err != nil {
		t.Errorf("anchored symbol: %v", err)
	}
}

// TestContextCurrent: a context answer says where the code is now and
// whether it holds now, whatever the last verification of any source
// recorded, and with no store at all.
func TestContextCurrent(t *testing.T) {
	ws := newWorkspace(t)
	ctx := context.Background()
	p := filepath.Join(ws.Root(), "a.go")
	os.WriteFile(p, []byte("package a\n\nfunc F() int { return 1 }\n\nfunc G() int { return 2 }\n"), 0o644)
	if _, err := ws.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	l, err := ws.Add(ctx, AddOptions{Title: "G returns two", Anchors: []string{"a.go::G"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Verify(ctx, VerifyOptions{}); err != nil {
		t.Fatal(err)
	}
	// Code moves down (not verified since): the answer has G's new lines.
	os.WriteFile(p, []byte("package a\n\n// H comes first.\nfunc H() {}\n\nfunc F() int { return 1 }\n\nfunc G() int { return 2 }\n"), 0o644)
	lines := func() (string, string, string) {
		t.Helper()
		res, err := ws.Context(ctx, ContextOptions{Targets: []string{"a.go"}})
		if err != nil {
			t.Fatal(err)
		}
		all := append(res.Learnings, res.Stale...)
		if len(all) != 1 || all[0].ID != l.ID {
			t.Fatalf("context: %+v", res)
		}
		return all[0].Anchors[0].Lines, all[0].Status, all[0].Checked
	}
	var symLines string
	if err := ws.Symbols(ctx, []string{"a.go"}, func(s analyzer.Symbol) error {
		if s.FQName == "a.go::G" {
			symLines = anchors.FormatRange(s.StartLine, s.EndLine)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got, st, ck := lines(); got != symLines || got != "8-8" || st != "valid" || ck != rank.CheckedNow {
		t.Errorf("after a move: lines %q status %q checked %q, want %q (lore symbols), valid, now", got, st, ck, symLines)
	}
	// The body changes: drifted now, though no verification ran.
	os.WriteFile(p, []byte("package a\n\nfunc F() int { return 1 }\n\nfunc G() int { return 3 }\n"), 0o644)
	if _, st, _ := lines(); st != "drifted" {
		t.Errorf("after an edit: status %q, want drifted", st)
	}
	// Without a store, statuses are checked, not "not verified yet".

	if err := os.RemoveAll(filepath.Join(ws.Root(), ".lore", "db")); err != nil {
		t.Fatal(err)
	}
	ws, err = Open(ws.Root(), Options{})
	if err != nil {
		t.Fatal(err)
	}

	if _, st, ck := lines(); st != "drifted" || ck != rank.CheckedNow {
		t.Errorf("without a store: status %q checked %q", st, ck)
	}
}

// TestNeighborsOfImportedLearning: a learning node that lore graph import
// brought, with no learning file, can be asked about.
func TestNeighborsOfImportedLearning(t *testing.T) {
	ws := newWorkspace(t)
	ctx := context.Background()
	in := `{"edges":[{"type":"USED_IN_RUN","from":"learning:zz9imported","to":"run:r1"}]}`
	if err := ws.ImportGraph(ctx, strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	sub, _, err := ws.Neighbors(ctx, NeighborsOptions{Seeds: []string{"learning:zz9imported"}, TraverseOptions: graph.TraverseOptions{Depth: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Edges) != 1 || sub.Edges[0].To != "run:r1" {
		t.Errorf("neighbours: %+v", sub)
	}
	if _, _, err := ws.Neighbors(ctx, NeighborsOptions{Seeds: []string{"learning:zz9nothing"}}); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown learning: %v, want not found", err)
	}
}

// TestGraphConnected renders the graph of this repository (a clone of it,
// indexed, with its own learnings) as DOT and counts the components that
// hold learnings: learnings, their symbols, files, packages and imports
// make one picture. A learning anchored only to globs has no code node.
func TestGraphConnected(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a clone of the repository")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	if out, err := exec.Command("git", "clone", "-q", ".", dir).CombinedOutput(); err != nil {
		t.Skipf("no git clone of the repository here (%v): %s", err, out)
	}
	ws, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ws.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	var dot bytes.Buffer
	if err := ws.ExportGraph(ctx, &dot, graph.DOT); err != nil {
		t.Fatal(err)
	}
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if p, ok := parent[x]; !ok {
			parent[x] = x
		} else if p != x {
			parent[x] = find(p)
		}
		return parent[x]
	}
	for _, line := range strings.Split(dot.String(), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, `"`) {
			continue
		}
		fields := strings.Split(line, `"`) // "a" -> "b" [...]: a at 1, b at 3
		if len(fields) > 3 && (strings.TrimSpace(fields[2]) == "->" || strings.TrimSpace(fields[2]) == "--") {
			a, b := find(fields[1]), find(fields[3])
			parent[a] = b
		} else {
			find(fields[1])
		}
	}
	globOnly := map[string]bool{}
	ls, err := ws.List(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		code := false
		for _, a := range l.Anchors {
			code = code || a.Type() != anchors.TypeGlob
		}
		globOnly["learning:"+l.ID] = !code
	}
	comps := map[string]int{}
	for n := range parent {
		if strings.HasPrefix(n, "learning:") && !globOnly[n] {
			comps[find(n)]++
		}
	}
	held := 0
	for _, n := range comps {
		held += n
	}
	t.Logf("graph of this repository: %d nodes; %d learnings with code anchors, in %d component(s)", len(parent), held, len(comps))
	if len(comps) != 1 {
		t.Errorf("learnings fall in %d components, want 1: %v", len(comps), comps)
	}
}
