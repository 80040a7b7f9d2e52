package graph

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// A graph shared across repositories: each repository's store exports its
// graph with node ids prefixed by the repository's name, and the exports
// of many repositories load into one graph engine (Neo4j, Memgraph,
// FalkorDB through Cypher; Neo4j's bulk importer or PostgreSQL through
// CSV) without colliding. The same node exported twice gets the same id,
// so a re-export merges into what an earlier one loaded.

// MaxRepoName is the longest repository name SharedID accepts.
const MaxRepoName = 200

// ErrRepoName reports a repository name that cannot prefix node ids.
var ErrRepoName = errors.New("invalid repository name")

// ValidRepoName checks a repository name for shared ids: 1..MaxRepoName
// characters of letters, digits and . _ - / @ ~, no colon (the separator of
// the prefix), not starting or ending with a slash.
func ValidRepoName(name string) error {
	if name == "" || len(name) > MaxRepoName {
		return fmt.Errorf("%w %q: want 1..%d characters", ErrRepoName, name, MaxRepoName)
	}
	for _, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-/@~", c)
		if !ok {
			return fmt.Errorf("%w %q: %q is not allowed (letters, digits and . _ - / @ ~ are)", ErrRepoName, name, c)
		}
	}
	if name[0] == '/' || name[len(name)-1] == '/' {
		return fmt.Errorf("%w %q: starts or ends with a slash", ErrRepoName, name)
	}
	return nil
}

// SharedID is the id of a node in a graph shared across repositories:
// "repo:" before the node's own id ("github.com/o/r:file:a.go"). Tasks and
// runs name things outside any one repository (a tracker's task, an
// agent's run): their ids stay as they are, so learnings of several
// repositories derived from one task meet at one node.
func SharedID(repo, id string) string {
	if Global(id) {
		return id
	}
	return repo + ":" + id
}

// Global reports whether a node id names something outside any one
// repository (a task or a run), which SharedID leaves unprefixed.
func Global(id string) bool {
	t, _, _ := strings.Cut(id, ":")
	return t == TypeTask || t == TypeRun
}

// typeLabel is the graph-engine label of a node type: "File" for "file".
func typeLabel(typ string) string {
	if typ == "" {
		return ""
	}
	return strings.ToUpper(typ[:1]) + typ[1:]
}

// SharedLabel is the label every exported node carries beside its type's
// label, so one index or constraint on SharedLabel's id covers them all.
const SharedLabel = "Lore"

// sharedNode is a node as the shared formats write it.
type sharedNode struct {
	id, repo, typ, name, attrs string
}

func (s *sharedSink) sharedNode(n Node) (sharedNode, error) {
	typ, err := NodeType(n.ID)
	if err != nil {
		return sharedNode{}, err
	}
	sn := sharedNode{id: SharedID(s.repo, n.ID), typ: typ, name: NodeName(n.ID, typ), attrs: "{}"}
	if !Global(n.ID) {
		sn.repo = s.repo
	}
	if len(n.Attrs) > 0 {
		b, err := json.Marshal(n.Attrs)
		if err != nil {
			return sharedNode{}, err
		}
		sn.attrs = string(b)
	}
	return sn, nil
}

// sharedEdge is an edge as the shared formats write it: times in RFC 3339
// (UTC), "" for a time that is not set; metadata as a JSON object's text.
type sharedEdge struct {
	from, to, relation, metadata         string
	created, updated, invalidated, cause string
	weight                               float64
	version, mentions                    int
}

func (s *sharedSink) sharedEdge(e Edge) (sharedEdge, error) {
	se := sharedEdge{from: SharedID(s.repo, e.From), to: SharedID(s.repo, e.To), relation: e.Relation,
		metadata: "{}", created: timeText(e.CreatedAt), updated: timeText(e.UpdatedAt),
		weight: e.Weight, version: e.Version, mentions: e.Mentions}
	if e.InvalidatedAt != nil {
		se.invalidated, se.cause = timeText(*e.InvalidatedAt), e.InvalidReason
	}
	if len(e.Metadata) > 0 {
		b, err := json.Marshal(e.Metadata)
		if err != nil {
			return sharedEdge{}, err
		}
		se.metadata = string(b)
	}
	return se, nil
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// sharedSink holds what the CSV and Cypher sinks share.
type sharedSink struct {
	repo string
}

// CSV columns, with the types neo4j-admin database import reads from the
// header; PostgreSQL's COPY ... (FORMAT csv, HEADER true) skips the header
// and reads the same columns in order.
var (
	csvNodeHeader = []string{"id:ID", ":LABEL", "repo", "type", "name", "attrs"}
	csvEdgeHeader = []string{":START_ID", ":END_ID", ":TYPE", "relation", "weight:double", "metadata",
		"created_at:datetime", "updated_at:datetime", "invalidated_at:datetime", "invalidated_reason",
		"version:long", "mentions:long"}
)

// csvSink writes a nodes file and a relationships file.
type csvSink struct {
	sharedSink
	nodes, edges *csv.Writer
	bw           *bufio.Writer // the relationships file's buffer
	row          []string
	started      bool
}

func newCSVSink(nodes *bufio.Writer, edges io.Writer, repo string) *csvSink {
	bw := bufio.NewWriterSize(edges, 64<<10)
	return &csvSink{sharedSink: sharedSink{repo: repo}, nodes: csv.NewWriter(nodes), edges: csv.NewWriter(bw), bw: bw}
}

func (s *csvSink) start() error {
	if s.started {
		return nil
	}
	s.started = true
	if err := s.nodes.Write(csvNodeHeader); err != nil {
		return err
	}
	return s.edges.Write(csvEdgeHeader)
}

func (s *csvSink) node(n Node) error {
	if err := s.start(); err != nil {
		return err
	}
	sn, err := s.sharedNode(n)
	if err != nil {
		return err
	}
	s.row = append(s.row[:0], sn.id, SharedLabel+";"+typeLabel(sn.typ), sn.repo, sn.typ, oneLine(sn.name), sn.attrs)
	return s.nodes.Write(s.row)
}

func (s *csvSink) edge(e Edge) error {
	if err := s.start(); err != nil {
		return err
	}
	se, err := s.sharedEdge(e)
	if err != nil {
		return err
	}
	s.row = append(s.row[:0], se.from, se.to, string(e.Type), se.relation, floatText(se.weight), se.metadata,
		se.created, se.updated, se.invalidated, oneLine(se.cause), strconv.Itoa(se.version), strconv.Itoa(se.mentions))
	return s.edges.Write(s.row)
}

func (s *csvSink) end() error {
	if err := s.start(); err != nil {
		return err
	}
	s.nodes.Flush()
	s.edges.Flush()
	if err := s.nodes.Error(); err != nil {
		return err
	}
	if err := s.edges.Error(); err != nil {
		return err
	}
	return s.bw.Flush()
}

// oneLine keeps a field on one line: neo4j-admin reads a field with a line
// break only when told that fields span lines.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// floatText writes a float so that every engine reads a float, never an
// integer: 1 is "1.0".
func floatText(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eEN") { // N: NaN and Inf, which Valid refuses anyway
		s += ".0"
	}
	return s
}

// cypherBatch is the most rows one UNWIND statement carries: large enough
// that a load is not a statement per node, small enough for any engine's
// query size limits.
const cypherBatch = 500

// cypherSink writes openCypher statements that MERGE nodes and edges, so
// that loading an export again, or the exports of many repositories, adds
// to one graph. Rows are batched per label or relationship type (neither
// can be a parameter in openCypher); nodes all come before the first edge.
type cypherSink struct {
	sharedSink
	w         *bufio.Writer
	nodes     map[string][]string // type → rows (map literals)
	edges     map[EdgeType][]string
	nodesDone bool
}

func newCypherSink(w *bufio.Writer, repo string) *cypherSink {
	fmt.Fprintf(w, "// lore graph export --format cypher --repo %s\n", repo)
	w.WriteString("// openCypher: each statement ends with a semicolon on its own line's end.\n" +
		"// Create an index on :" + SharedLabel + "(id) first for speed (Neo4j: CREATE INDEX FOR (n:" + SharedLabel + ") ON (n.id);\n" +
		"// Memgraph: CREATE INDEX ON :" + SharedLabel + "(id); FalkorDB: CREATE INDEX FOR (n:" + SharedLabel + ") ON (n.id)).\n")
	return &cypherSink{sharedSink: sharedSink{repo: repo}, w: w, nodes: map[string][]string{}, edges: map[EdgeType][]string{}}
}

func (s *cypherSink) node(n Node) error {
	sn, err := s.sharedNode(n)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("{id: ")
	cypherString(&b, sn.id)
	b.WriteString(", repo: ")
	if sn.repo == "" {
		b.WriteString("null")
	} else {
		cypherString(&b, sn.repo)
	}
	b.WriteString(", name: ")
	cypherString(&b, sn.name)
	b.WriteString(", attrs: ")
	cypherString(&b, sn.attrs)
	b.WriteByte('}')
	s.nodes[sn.typ] = append(s.nodes[sn.typ], b.String())
	if len(s.nodes[sn.typ]) >= cypherBatch {
		s.flushNodes(sn.typ)
	}
	return nil
}

func (s *cypherSink) flushNodes(typ string) {
	rows := s.nodes[typ]
	if len(rows) == 0 {
		return
	}
	s.unwind(rows)
	fmt.Fprintf(s.w, "MERGE (n:%s {id: row.id})\nSET n:%s, n.repo = row.repo, n.type = '%s', n.name = row.name, n.attrs = row.attrs;\n",
		SharedLabel, typeLabel(typ), typ)
	s.nodes[typ] = rows[:0]
}

func (s *cypherSink) unwind(rows []string) {
	s.w.WriteString("UNWIND [\n  ")
	s.w.WriteString(strings.Join(rows, ",\n  "))
	s.w.WriteString("\n] AS row\n")
}

func (s *cypherSink) edge(e Edge) error {
	if !s.nodesDone {
		s.nodesDone = true
		for _, t := range nodeTypes() {
			s.flushNodes(t)
		}
	}
	se, err := s.sharedEdge(e)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("{src: ")
	cypherString(&b, se.from)
	b.WriteString(", dst: ")
	cypherString(&b, se.to)
	b.WriteString(", relation: ")
	cypherString(&b, se.relation)
	b.WriteString(", weight: ")
	b.WriteString(floatText(se.weight))
	b.WriteString(", metadata: ")
	cypherString(&b, se.metadata)
	for _, f := range []struct{ k, v string }{{"created_at", se.created}, {"updated_at", se.updated},
		{"invalidated_at", se.invalidated}, {"invalidated_reason", se.cause}} {
		b.WriteString(", " + f.k + ": ")
		if f.v == "" {
			b.WriteString("null")
		} else {
			cypherString(&b, f.v)
		}
	}
	fmt.Fprintf(&b, ", version: %d, mentions: %d}", se.version, se.mentions)
	s.edges[e.Type] = append(s.edges[e.Type], b.String())
	if len(s.edges[e.Type]) >= cypherBatch {
		s.flushEdges(e.Type)
	}
	return nil
}

func (s *cypherSink) flushEdges(t EdgeType) {
	rows := s.edges[t]
	if len(rows) == 0 {
		return
	}
	s.unwind(rows)
	// The relation is part of an edge's identity (DESIGN.md §4), so MERGE
	// matches on it; "" stands for none, since MERGE cannot match a null.
	fmt.Fprintf(s.w, "MATCH (a:%[1]s {id: row.src}), (b:%[1]s {id: row.dst})\n"+
		"MERGE (a)-[r:%[2]s {relation: row.relation}]->(b)\n"+
		"SET r.weight = row.weight, r.metadata = row.metadata, r.created_at = row.created_at, r.updated_at = row.updated_at, "+
		"r.invalidated_at = row.invalidated_at, r.invalidated_reason = row.invalidated_reason, r.version = row.version, r.mentions = row.mentions;\n",
		SharedLabel, t)
	s.edges[t] = rows[:0]
}

func (s *cypherSink) end() error {
	for _, t := range nodeTypes() {
		s.flushNodes(t)
	}
	for _, t := range EdgeTypes() {
		s.flushEdges(t)
	}
	return nil
}

// cypherString writes s as an openCypher string literal: single-quoted,
// with backslash escapes for the quote, the backslash and control
// characters; invalid UTF-8 becomes U+FFFD.
func cypherString(b *strings.Builder, s string) {
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(b, `\u%04X`, r)
			} else if r == utf8.RuneError {
				b.WriteString("\uFFFD")
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('\'')
}
