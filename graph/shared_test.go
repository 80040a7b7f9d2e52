package graph

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestSharedIDs(t *testing.T) {
	for _, c := range []struct{ repo, id, want string }{
		{"github.com/o/r", "file:a.go", "github.com/o/r:file:a.go"},
		{"r", "symbol:a.go::T::m", "r:symbol:a.go::T::m"},
		{"r", "task:T-142", "task:T-142"},
		{"r", "run:R-7", "run:R-7"},
		{"r", "commit:abc", "r:commit:abc"},
	} {
		if got := SharedID(c.repo, c.id); got != c.want {
			t.Errorf("SharedID(%q, %q) = %q, want %q", c.repo, c.id, got, c.want)
		}
	}
	for _, bad := range []string{"", "a:b", "/a", "a/", "a b", "ä", strings.Repeat("a", MaxRepoName+1)} {
		if err := ValidRepoName(bad); !errors.Is(err, ErrRepoName) {
			t.Errorf("ValidRepoName(%q) = %v, want ErrRepoName", bad, err)
		}
	}
	for _, good := range []string{"lore", "github.com/lorehq/lore", "gitlab.example/a/b-c_d.e", "~u@h"} {
		if err := ValidRepoName(good); err != nil {
			t.Errorf("ValidRepoName(%q) = %v", good, err)
		}
	}
}

// trickySample adds nodes and edges whose text needs escaping in every
// format: quotes, backslashes, line breaks, control characters, non-ASCII.
func trickySample(t *testing.T, s *Store) {
	t.Helper()
	sample(t, s)
	if err := s.UpsertNode(Node{ID: "learning:q1", Attrs: map[string]string{"title": "it's a \\ \"test\"\nline two\ttab \x01 ünïcode ✓ 'x'"}}); err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, s, Edge{Type: AnchoredTo, From: "learning:q1", To: "symbol:dir with space/a'b.go::T\\x", Weight: 0.5,
		Metadata: map[string]any{"spec": "a'b\nc", "n": 1.5}})
	mustUpsert(t, s, Edge{Type: LinksTo, From: "learning:q1", To: "learning:k3v9", Relation: "see_also", Weight: 0})
	mustUpsert(t, s, Edge{Type: DerivedFrom, From: "learning:q1", To: "task:T-142", Weight: 1})
}

func TestExportCSV(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	trickySample(t, s)
	var nodes, rels bytes.Buffer
	if err := s.ExportWith(ctx, &nodes, ExportOptions{Format: CSV, Repo: "github.com/o/r", Relationships: &rels}); err != nil {
		t.Fatal(err)
	}
	nrows := readCSV(t, nodes.Bytes())
	erows := readCSV(t, rels.Bytes())
	if !reflect.DeepEqual(nrows[0], csvNodeHeader) || !reflect.DeepEqual(erows[0], csvEdgeHeader) {
		t.Fatalf("headers: %q / %q", nrows[0], erows[0])
	}
	g := exported(t, s)
	if len(nrows)-1 != len(g.Nodes) || len(erows)-1 != len(g.Edges) {
		t.Fatalf("%d node rows, %d edge rows; want %d, %d", len(nrows)-1, len(erows)-1, len(g.Nodes), len(g.Edges))
	}
	byID := map[string][]string{}
	for _, r := range nrows[1:] {
		byID[r[0]] = r
	}
	for _, n := range g.Nodes {
		r, ok := byID[SharedID("github.com/o/r", n.ID)]
		if !ok {
			t.Fatalf("node %s missing from the CSV", n.ID)
		}
		typ, _ := NodeType(n.ID)
		wantRepo := "github.com/o/r"
		if typ == TypeTask || typ == TypeRun {
			wantRepo = ""
		}
		if r[1] != "Lore;"+typeLabel(typ) || r[2] != wantRepo || r[3] != typ || strings.ContainsAny(r[4], "\n\r") {
			t.Errorf("node row %q", r)
		}
		var attrs map[string]string
		if err := json.Unmarshal([]byte(r[5]), &attrs); err != nil || len(attrs) != len(n.Attrs) || (len(attrs) > 0 && !reflect.DeepEqual(attrs, n.Attrs)) {
			t.Errorf("node %s attrs %q, want %v (%v)", n.ID, r[5], n.Attrs, err)
		}
	}
	for i, e := range g.Edges {
		r := erows[i+1]
		if r[0] != SharedID("github.com/o/r", e.From) || r[1] != SharedID("github.com/o/r", e.To) || r[2] != string(e.Type) || r[3] != e.Relation {
			t.Errorf("edge row %q for %v", r, e.Key())
		}
		if w, err := strconv.ParseFloat(r[4], 64); err != nil || w != e.Weight || !strings.Contains(r[4], ".") {
			t.Errorf("edge %v weight %q", e.Key(), r[4])
		}
		if (r[8] != "") != e.Invalidated() {
			t.Errorf("edge %v invalidated_at %q", e.Key(), r[8])
		}
		if ts, err := time.Parse(time.RFC3339Nano, r[6]); err != nil || !ts.Equal(e.CreatedAt) {
			t.Errorf("edge %v created_at %q, want %v", e.Key(), r[6], e.CreatedAt)
		}
	}
	if err := s.ExportWith(ctx, &nodes, ExportOptions{Format: CSV, Repo: "r"}); err == nil {
		t.Error("csv without a relationships writer: no error")
	}
	if err := s.ExportWith(ctx, &nodes, ExportOptions{Format: Cypher, Repo: "a:b"}); !errors.Is(err, ErrRepoName) {
		t.Errorf("cypher with repo a:b: %v, want ErrRepoName", err)
	}
}

// exported is the store's graph, as its JSON export says.
func exported(t *testing.T, s *Store) *Subgraph {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Export(context.Background(), &buf, JSON); err != nil {
		t.Fatal(err)
	}
	g, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func readCSV(t *testing.T, b []byte) [][]string {
	t.Helper()
	if bytes.Contains(bytes.TrimSuffix(b, []byte("\n")), []byte("\"\n")) {
		// a quoted field ending a line is fine; one spanning lines is not
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Count(line, `"`)%2 != 0 {
				t.Fatalf("a field spans lines: %q", line)
			}
		}
	}
	r := csv.NewReader(bytes.NewReader(b))
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestExportCypher(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	trickySample(t, s)
	// more files than one statement carries
	var extra []Edge
	for i := range cypherBatch + 20 {
		extra = append(extra, Edge{Type: Imports, From: fmt.Sprintf("file:pkg/f%04d.go", i), To: "file:src/jwt.ts", Weight: 1})
	}
	if err := s.Load(ctx, nil, extra); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.ExportWith(ctx, &out, ExportOptions{Format: Cypher, Repo: "github.com/o/r"}); err != nil {
		t.Fatal(err)
	}
	stmts := cypherStatements(out.String())
	g := exported(t, s)

	// The strict check: every statement is one of the two shapes the
	// sink writes, and its rows decode to the graph's nodes and edges.
	gotNodes := map[string]map[string]any{}
	gotEdges := map[string]map[string]any{}
	edgesSeen := false
	for i, st := range stmts {
		kind, tag, rows, err := checkCypherStatement(st)
		if err != nil {
			t.Fatalf("statement %d: %v\n%s", i+1, err, st)
		}
		switch kind {
		case "node":
			if edgesSeen {
				t.Fatalf("statement %d: nodes after edges", i+1)
			}
			for _, r := range rows {
				r["label"] = tag
				gotNodes[r["id"].(string)] = r
			}
		case "edge":
			edgesSeen = true
			for _, r := range rows {
				r["type"] = tag
				gotEdges[fmt.Sprint(tag, r["src"], r["relation"], r["dst"])] = r
			}
		}
	}
	if len(gotNodes) != len(g.Nodes) || len(gotEdges) != len(g.Edges) {
		t.Fatalf("decoded %d nodes, %d edges; want %d, %d", len(gotNodes), len(gotEdges), len(g.Nodes), len(g.Edges))
	}
	for _, n := range g.Nodes {
		r := gotNodes[SharedID("github.com/o/r", n.ID)]
		typ, _ := NodeType(n.ID)
		attrs := "{}"
		if len(n.Attrs) > 0 {
			b, _ := json.Marshal(n.Attrs)
			attrs = string(b)
		}
		if r == nil || r["label"] != typeLabel(typ) || r["name"] != NodeName(n.ID, typ) || r["attrs"] != attrs {
			t.Errorf("node %s decoded as %v", n.ID, r)
		}
		if Global(n.ID) != (r["repo"] == nil) {
			t.Errorf("node %s repo %v", n.ID, r["repo"])
		}
	}
	for _, e := range g.Edges {
		r := gotEdges[fmt.Sprint(e.Type, SharedID("github.com/o/r", e.From), e.Relation, SharedID("github.com/o/r", e.To))]
		if r == nil || r["weight"] != e.Weight || r["version"] != int64(e.Version) || (r["invalidated_at"] != nil) != e.Invalidated() {
			t.Errorf("edge %v decoded as %v", e.Key(), r)
		}
	}
	if n := strings.Count(out.String(), "UNWIND"); n < 2+len(EdgeTypes())/2 {
		t.Errorf("%d statements, want batches", n)
	}
	t.Logf("%d statements passed the strict check", len(stmts))

	// The grammar: Neo4j's Cypher parser, generated from its ANTLR grammar
	// of openCypher, over every statement.
	checkCypherGrammar(t, stmts)
}

// cypherStatements splits an export into statements: lines up to one
// ending in a semicolon, comment lines left out.
func cypherStatements(s string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "//") || (cur.Len() == 0 && strings.TrimSpace(line) == "") {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(line, ";") {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	return out
}

// checkCypherStatement parses one statement of the subset the Cypher sink
// writes: UNWIND over a list of map literals, then one of two fixed tails.
// It returns the kind ("node" or "edge"), the label or relationship type
// and the decoded rows.
func checkCypherStatement(st string) (kind, tag string, rows []map[string]any, err error) {
	p := &cypherLexer{s: st}
	if err := p.word("UNWIND"); err != nil {
		return "", "", nil, err
	}
	if err := p.punct('['); err != nil {
		return "", "", nil, err
	}
	for {
		m, err := p.mapLiteral()
		if err != nil {
			return "", "", nil, err
		}
		rows = append(rows, m)
		p.space()
		if p.peek() == ',' {
			p.i++
			continue
		}
		if err := p.punct(']'); err != nil {
			return "", "", nil, err
		}
		break
	}
	p.space()
	tail := strings.Join(strings.Fields(p.s[p.i:]), " ")
	for _, typ := range nodeTypes() {
		want := fmt.Sprintf("AS row MERGE (n:Lore {id: row.id}) SET n:%s, n.repo = row.repo, n.type = '%s', n.name = row.name, n.attrs = row.attrs;", typeLabel(typ), typ)
		if tail == want {
			return "node", typeLabel(typ), rows, checkKeys(rows, "id", "repo", "name", "attrs")
		}
	}
	for _, t := range EdgeTypes() {
		want := "AS row MATCH (a:Lore {id: row.src}), (b:Lore {id: row.dst}) MERGE (a)-[r:" + string(t) + " {relation: row.relation}]->(b) " +
			"SET r.weight = row.weight, r.metadata = row.metadata, r.created_at = row.created_at, r.updated_at = row.updated_at, " +
			"r.invalidated_at = row.invalidated_at, r.invalidated_reason = row.invalidated_reason, r.version = row.version, r.mentions = row.mentions;"
		if tail == want {
			return "edge", string(t), rows, checkKeys(rows, "src", "dst", "relation", "weight", "metadata", "created_at", "updated_at", "invalidated_at", "invalidated_reason", "version", "mentions")
		}
	}
	return "", "", nil, fmt.Errorf("unexpected tail %q", tail)
}

func checkKeys(rows []map[string]any, keys ...string) error {
	for _, r := range rows {
		if len(r) != len(keys) {
			return fmt.Errorf("row %v: want keys %v", r, keys)
		}
		for _, k := range keys {
			if _, ok := r[k]; !ok {
				return fmt.Errorf("row %v: no %s", r, k)
			}
		}
	}
	return nil
}

// cypherLexer reads the literals of the subset: maps of identifier keys
// to strings (openCypher escapes), numbers and null.
type cypherLexer struct {
	s string
	i int
}

func (p *cypherLexer) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *cypherLexer) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *cypherLexer) punct(c byte) error {
	p.space()
	if p.peek() != c {
		return fmt.Errorf("at %d: want %q, have %.20q", p.i, c, p.s[p.i:])
	}
	p.i++
	return nil
}

func (p *cypherLexer) ident() string {
	p.space()
	j := p.i
	for p.i < len(p.s) && (p.s[p.i] == '_' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z' || p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' || p.i > j && p.s[p.i] >= '0' && p.s[p.i] <= '9') {
		p.i++
	}
	return p.s[j:p.i]
}

func (p *cypherLexer) word(w string) error {
	if got := p.ident(); got != w {
		return fmt.Errorf("want %s, have %q", w, got)
	}
	return nil
}

func (p *cypherLexer) mapLiteral() (map[string]any, error) {
	if err := p.punct('{'); err != nil {
		return nil, err
	}
	m := map[string]any{}
	for {
		k := p.ident()
		if k == "" {
			return nil, fmt.Errorf("at %d: want a key", p.i)
		}
		if err := p.punct(':'); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("key %s twice", k)
		}
		m[k] = v
		p.space()
		if p.peek() == ',' {
			p.i++
			continue
		}
		return m, p.punct('}')
	}
}

func (p *cypherLexer) value() (any, error) {
	p.space()
	switch c := p.peek(); {
	case c == '\'':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		j := p.i
		p.i++
		for p.i < len(p.s) && strings.IndexByte("0123456789.eE+-", p.s[p.i]) >= 0 {
			p.i++
		}
		lit := p.s[j:p.i]
		if strings.ContainsAny(lit, ".eE") {
			return strconv.ParseFloat(lit, 64)
		}
		return strconv.ParseInt(lit, 10, 64)
	}
	if w := p.ident(); w == "null" {
		return nil, nil
	}
	return nil, fmt.Errorf("at %d: want a literal", p.i)
}

func (p *cypherLexer) str() (string, error) {
	p.i++ // '
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\'':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", fmt.Errorf("at %d: raw control character in a string", p.i)
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", errors.New("escape at the end")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if p.i+4 > len(p.s) {
					return "", errors.New("short \\u escape")
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
				if err != nil {
					return "", err
				}
				b.WriteRune(rune(r))
				p.i += 4
			default:
				return "", fmt.Errorf("at %d: unknown escape \\%c", p.i, e)
			}
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && n == 1 {
				return "", fmt.Errorf("at %d: invalid UTF-8", p.i)
			}
			b.WriteString(p.s[p.i : p.i+n])
			p.i += n
		}
	}
	return "", errors.New("unterminated string")
}

// cypherGrammarCheck parses statements given as a JSON array on standard
// input with @neo4j-cypher/antlr4 and prints, per statement, its syntax
// errors.
const cypherGrammarCheck = `
const m = require('antlr4'); const antlr4 = m.default || m;
const {CypherLexer, CypherParser} = require('@neo4j-cypher/antlr4');
const stmts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = stmts.map(s => {
  const errs = [];
  const l = {syntaxError: (r, o, line, col, msg) => errs.push(line + ':' + col + ' ' + msg),
    reportAmbiguity() {}, reportAttemptingFullContext() {}, reportContextSensitivity() {}};
  const lexer = new CypherLexer(new antlr4.InputStream(s));
  const parser = new CypherParser(new antlr4.CommonTokenStream(lexer));
  lexer.removeErrorListeners(); parser.removeErrorListeners();
  lexer.addErrorListener(l); parser.addErrorListener(l);
  parser.cypher();
  return errs;
});
process.stdout.write(JSON.stringify(out));
`

// cypherParserModules is where .ci/run installs @neo4j-cypher/antlr4
// (LORE_CYPHER_MODULES, else the cache directory's lore-cypher).
func cypherParserModules() string {
	if d := os.Getenv("LORE_CYPHER_MODULES"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "lore-cypher", "node_modules")
}

func checkCypherGrammar(t *testing.T, stmts []string) {
	t.Helper()
	mods := cypherParserModules()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the grammar check of the Cypher export is skipped")
	}
	if _, err := os.Stat(filepath.Join(mods, "@neo4j-cypher", "antlr4")); err != nil {
		t.Skipf("@neo4j-cypher/antlr4 is not installed in %s (.ci/run installs it): the grammar check is skipped", mods)
	}
	// The grammar reads a statement up to its semicolon: whitespace
	// after it would start another statement.
	trimmed := make([]string, len(stmts))
	for i, st := range stmts {
		trimmed[i] = strings.TrimSpace(st)
	}
	in, _ := json.Marshal(trimmed)
	cmd := exec.Command(node, "-e", cypherGrammarCheck)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the Cypher parser failed: %v: %s", err, stderr.String())
	}
	var errs [][]string
	if err := json.Unmarshal(out, &errs); err != nil || len(errs) != len(stmts) {
		t.Fatalf("the Cypher parser's answer: %v, %.200s", err, out)
	}
	bad := 0
	for i, e := range errs {
		if len(e) > 0 {
			bad++
			if bad <= 3 {
				t.Errorf("statement %d: %s\n%.400s", i+1, strings.Join(e, "; "), stmts[i])
			}
		}
	}
	// a statement the parser must refuse, so that a parser accepting
	// anything cannot pass
	cmd = exec.Command(node, "-e", cypherGrammarCheck)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	cmd.Stdin = strings.NewReader(`["UNWIND [{id: 'a\\'} AS row MERGE (n {id: row.id});"]`)
	if out, err := cmd.Output(); err != nil || string(out) == "[[]]" {
		t.Errorf("the parser accepted a broken statement (%v, %s)", err, out)
	}
	t.Logf("Cypher grammar (@neo4j-cypher/antlr4): %d of %d statements parse", len(stmts)-bad, len(stmts))
}
