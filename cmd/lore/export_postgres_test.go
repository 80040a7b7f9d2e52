package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestExportCSVPostgres loads `lore graph export --format csv` of a real
// repository (lore's own source) into a real PostgreSQL with COPY, and
// checks that a recursive query's depth-2 neighbourhood of a sample of
// nodes equals `lore graph neighbors --depth 2`.
func TestExportCSVPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster")
	}
	pg := startPostgres(t)
	repo := t.TempDir()
	copySource(t, repo)
	lore := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(context.Background(), append([]string{"-C", repo}, args...), strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("lore %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return out.String()
	}
	lore("init")
	lore("index")
	// learnings anchored to files and symbols, a link between two, and
	// edges from elsewhere: symmetric co-change, a run (a node shared by
	// every repository), one soft-deleted edge
	a := learnID(t, lore("learn", "add", "--title", "Export's sinks stream", "--anchor", "graph/export.go", "--json"))
	b := learnID(t, lore("learn", "add", "--title", "Shared ids carry the repo", "--anchor", "graph/export.go::ParseFormat", "--anchor", "query.go", "--json"))
	lore("relate", a, b, "--type", "implements")
	imp := `{"nodes": [], "edges": [
	 {"type": "CO_CHANGES_WITH", "from": "file:graph/export.go", "to": "file:graph/edge.go", "weight": 0.6},
	 {"type": "CO_CHANGES_WITH", "from": "file:query.go", "to": "file:cmd/lore/graph.go", "weight": 0.4},
	 {"type": "USED_IN_RUN", "from": "file:query.go", "to": "run:R-1", "weight": 0.5},
	 {"type": "USED_IN_RUN", "from": "file:graph/graph_test.go", "to": "run:R-1", "weight": 0.5},
	 {"type": "CO_CHANGES_WITH", "from": "file:graph/store.go", "to": "file:query.go", "weight": 0.9,
	  "invalidated_at": "2026-01-02T03:04:05Z", "invalidated_reason": "stale"}]}`
	if err := os.WriteFile(filepath.Join(repo, "extra.json"), []byte(imp), 0o644); err != nil {
		t.Fatal(err)
	}
	lore("graph", "import", "extra.json")
	out := filepath.Join(t.TempDir(), "export")
	lore("graph", "export", "--format", "csv", "--output", out, "--repo", "example.org/lore")

	pg.sql(t, `CREATE TABLE lore_nodes (id text PRIMARY KEY, labels text NOT NULL, repo text, type text NOT NULL, name text NOT NULL, attrs jsonb NOT NULL);
CREATE TABLE lore_edges (src text NOT NULL REFERENCES lore_nodes, dst text NOT NULL REFERENCES lore_nodes, type text NOT NULL, relation text,
  weight float8 NOT NULL, metadata jsonb NOT NULL, created_at timestamptz, updated_at timestamptz, invalidated_at timestamptz,
  invalidated_reason text, version bigint NOT NULL, mentions bigint NOT NULL);`)
	pg.sql(t, fmt.Sprintf(`\copy lore_nodes FROM '%s' WITH (FORMAT csv, HEADER true)`, filepath.Join(out, "nodes.csv")))
	pg.sql(t, fmt.Sprintf(`\copy lore_edges FROM '%s' WITH (FORMAT csv, HEADER true)`, filepath.Join(out, "relationships.csv")))
	counts := pg.sql(t, `SELECT (SELECT count(*) FROM lore_nodes) || ' ' || (SELECT count(*) FROM lore_edges) || ' ' || (SELECT count(*) FROM lore_edges WHERE invalidated_at IS NOT NULL);`)
	t.Logf("PostgreSQL loaded nodes, edges, invalidated: %s", strings.TrimSpace(counts))

	ids := csvColumn(t, filepath.Join(out, "nodes.csv"), 0)
	// a sample across types: every k-th node, and every learning and run
	var sample []string
	for i, id := range ids {
		if i%(len(ids)/25+1) == 0 || strings.Contains(id, ":learning:") || strings.HasPrefix(id, "run:") {
			sample = append(sample, id)
		}
	}
	agree := 0
	for _, shared := range sample {
		local := strings.TrimPrefix(shared, "example.org/lore:")
		var res struct {
			Results []struct {
				Node string `json:"node"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(lore("graph", "neighbors", local, "--depth", "2", "--json")), &res); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range res.Results {
			if r.Node != local {
				want = append(want, sharedOf(r.Node))
			}
		}
		sort.Strings(want)
		got := pg.lines(t, fmt.Sprintf(`WITH RECURSIVE walk(node, depth) AS (
  SELECT %[1]s::text, 0
  UNION
  SELECT CASE WHEN e.src = w.node THEN e.dst ELSE e.src END, w.depth + 1
  FROM walk w JOIN lore_edges e ON e.src = w.node OR e.dst = w.node
  WHERE w.depth < 2 AND e.invalidated_at IS NULL)
SELECT DISTINCT node FROM walk WHERE node <> %[1]s ORDER BY 1;`, quoteSQL(shared)))
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: PostgreSQL's depth-2 neighbourhood has %d nodes, lore graph neighbors %d\nonly PostgreSQL: %v\nonly lore: %v",
				shared, len(got), len(want), minus(got, want), minus(want, got))
			continue
		}
		agree++
	}
	t.Logf("depth-2 neighbourhoods equal for %d of %d sampled nodes (of %d)", agree, len(sample), len(ids))
}

func sharedOf(id string) string {
	if strings.HasPrefix(id, "task:") || strings.HasPrefix(id, "run:") {
		return id
	}
	return "example.org/lore:" + id
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func learnID(t *testing.T, out string) string {
	t.Helper()
	var v struct{ ID string }
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.ID == "" {
		t.Fatalf("learn add: %q (%v)", out, err)
	}
	return v.ID
}

func csvColumn(t *testing.T, path string, col int) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, r[col])
	}
	return out
}

// copySource copies lore's own Go source (the files git tracks) into a
// new git repository at dir: a real repository for a real index.
func copySource(t *testing.T, dir string) {
	t.Helper()
	files, err := exec.Command("git", "-C", "../..", "ls-files", "*.go", "go.mod").Output()
	if err != nil {
		t.Skipf("lore's source is not a git checkout here (%v): skipped", err)
	}
	for _, f := range strings.Fields(string(files)) {
		if strings.HasPrefix(f, "testdata/") || strings.Contains(f, "/testdata/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join("../..", f))
		if err != nil {
			continue // deleted in the work tree
		}
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qm", "source"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
}

// postgres is a private PostgreSQL cluster in a temporary directory,
// reached through a Unix socket there.
type postgres struct {
	bin, sock string
	cred      *syscall.Credential
}

// startPostgres starts a cluster with Debian's PostgreSQL (initdb and
// pg_ctl from /usr/lib/postgresql/N/bin or PATH), as an unprivileged user
// when the test runs as root (PostgreSQL refuses to run as root); it skips
// when PostgreSQL is not installed.
func startPostgres(t *testing.T) *postgres {
	t.Helper()
	bin := ""
	if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb"); len(m) > 0 {
		sort.Slice(m, func(i, j int) bool { return pgVersion(m[i]) > pgVersion(m[j]) })
		bin = filepath.Dir(m[0])
	} else if p, err := exec.LookPath("initdb"); err == nil {
		bin = filepath.Dir(p)
	}
	if bin == "" {
		t.Skip("PostgreSQL is not installed (apt-get install postgresql; .ci/run does): the COPY check is skipped")
	}
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("psql is not installed: the COPY check is skipped")
	}
	// not t.TempDir: an unprivileged server must reach its directory
	dir, err := os.MkdirTemp("", "lore-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	pg := &postgres{bin: bin, sock: dir}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			t.Skip("running as root without a nobody user to run PostgreSQL as: skipped")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		pg.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(dir, "data")
	pg.server(t, "initdb", "-D", data, "-U", "lore", "--auth=trust", "--no-sync", "-E", "UTF8")
	pg.server(t, "pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-o", fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off", dir), "start")
	t.Cleanup(func() {
		cmd := exec.Command(filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: pg.cred}
		cmd.Run()
	})
	return pg
}

func pgVersion(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

func (pg *postgres) server(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(pg.bin, name), args...)
	cmd.Dir = pg.sock
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: pg.cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("%s failed, PostgreSQL cannot run here (%v): %s", name, err, bytes.TrimSpace(out))
	}
}

// sql runs psql with a script and returns its unaligned output.
func (pg *postgres) sql(t *testing.T, script string) string {
	t.Helper()
	cmd := exec.Command("psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", pg.sock, "-U", "lore", "-d", "postgres", "-f", "-")
	cmd.Stdin = strings.NewReader(script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("psql: %v: %s\n%s", err, stderr.String(), script)
	}
	return string(out)
}

func (pg *postgres) lines(t *testing.T, script string) []string {
	out := strings.TrimSpace(pg.sql(t, script))
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}
