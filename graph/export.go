package graph

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dgraph-io/badger/v4"
	segjson "github.com/segmentio/encoding/json"
)

// Format is an export format.
type Format string

// Export formats.
const (
	JSON    Format = "json"    // {"nodes": [...], "edges": [...]} (DESIGN.md §5)
	DOT     Format = "dot"     // Graphviz: dot -Tsvg
	Mermaid Format = "mermaid" // Mermaid flowchart
	// Cypher is openCypher statements that MERGE every node and edge into
	// a graph shared across repositories (ExportOptions.Repo).
	Cypher Format = "cypher"
	// CSV is a nodes file and a relationships file with the headers of
	// neo4j-admin database import, also read by PostgreSQL's COPY, for a
	// graph shared across repositories (ExportOptions.Repo).
	CSV Format = "csv"
)

// ParseFormat parses "json", "dot", "mermaid", "cypher" or "csv".
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case JSON, DOT, Mermaid, Cypher, CSV:
		return f, nil
	}
	return "", fmt.Errorf("invalid format %q: want json, dot, mermaid, cypher or csv", s)
}

// ExportOptions says how to write a graph.
type ExportOptions struct {
	Format Format
	// Repo names the repository for Cypher and CSV, which prefix node ids
	// with it (SharedID) so that the graphs of many repositories load into
	// one; required for them (ValidRepoName), unused by the other formats.
	Repo string
	// Relationships receives CSV's relationships file; its nodes file goes
	// to the writer the graph is written to. Required for CSV only.
	Relationships io.Writer
}

func (o ExportOptions) valid() error {
	if _, err := ParseFormat(string(o.Format)); err != nil {
		return err
	}
	if o.Format != Cypher && o.Format != CSV {
		return nil
	}
	if err := ValidRepoName(o.Repo); err != nil {
		return fmt.Errorf("format %s: %w", o.Format, err)
	}
	if o.Format == CSV && o.Relationships == nil {
		return fmt.Errorf("format csv writes two files: a writer for the relationships is missing")
	}
	return nil
}

// sink receives a graph node by node, then edge by edge.
type sink interface {
	node(Node) error
	edge(Edge) error
	end() error
}

func newSink(w io.Writer, o ExportOptions) (sink, *bufio.Writer, error) {
	if err := o.valid(); err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	switch o.Format {
	case JSON:
		return &jsonSink{w: bw}, bw, nil
	case DOT:
		return newDOTSink(bw), bw, nil
	case Mermaid:
		return newMermaidSink(bw), bw, nil
	case Cypher:
		return newCypherSink(bw, o.Repo), bw, nil
	}
	return newCSVSink(bw, o.Relationships, o.Repo), bw, nil
}

// Write writes g in format f (json, dot or mermaid; WriteWith for the
// others).
func (g *Subgraph) Write(w io.Writer, f Format) error {
	return g.WriteWith(w, ExportOptions{Format: f})
}

// WriteWith writes g as o says.
func (g *Subgraph) WriteWith(w io.Writer, o ExportOptions) error {
	s, bw, err := newSink(w, o)
	if err != nil {
		return err
	}
	for _, n := range g.Nodes {
		if err := s.node(n); err != nil {
			return err
		}
	}
	for _, e := range g.Edges {
		if err := s.edge(e); err != nil {
			return err
		}
	}
	if err := s.end(); err != nil {
		return err
	}
	return bw.Flush()
}

// Export writes the whole graph in format f (json, dot or mermaid;
// ExportWith for the others).
func (s *Store) Export(ctx context.Context, w io.Writer, f Format) error {
	return s.ExportWith(ctx, w, ExportOptions{Format: f})
}

// ExportWith writes the whole graph as o says, streaming from one read
// transaction. Nodes come in creation order, edges grouped by source node
// (Cypher groups them by type in batches).
func (s *Store) ExportWith(ctx context.Context, w io.Writer, o ExportOptions) error {
	sk, bw, err := newSink(w, o)
	if err != nil {
		return err
	}
	err = s.read(func() error {
		s.exclusive.RLock()
		defer s.exclusive.RUnlock()
		return s.db.View(func(txn *badger.Txn) error {
			r := newReader(s, txn)
			p := []byte{prefixNode}
			it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
			count := 0
			for it.Seek(p); it.ValidForPrefix(p); it.Next() {
				if count++; count%4096 == 0 {
					if err := ctx.Err(); err != nil {
						it.Close()
						return err
					}
				}
				item := it.Item()
				u, _, err := getUID(item.Key()[1:])
				if err != nil {
					it.Close()
					return err
				}
				var n Node
				if err := item.Value(func(v []byte) error { n, err = decodeNode(v); return err }); err != nil {
					it.Close()
					return err
				}
				r.names[u] = n.ID
				if err := sk.node(n); err != nil {
					it.Close()
					return err
				}
			}
			it.Close()
			p = []byte{prefixOut}
			it = txn.NewIterator(badger.IteratorOptions{Prefix: p})
			defer it.Close()
			for it.Seek(p); it.ValidForPrefix(p); it.Next() {
				if count++; count%4096 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				item := it.Item()
				a, err := parseAdjKey(item.Key())
				if err != nil {
					return err
				}
				var rec edgeRecord
				mirror := false
				err = item.Value(func(v []byte) error {
					if len(v) > 0 && v[0]&flagMirror != 0 {
						mirror = true
						return nil
					}
					rec, err = decodeRecord(v)
					return err
				})
				if err != nil {
					return err
				}
				if mirror {
					continue
				}
				from, err := r.name(a.self)
				if err != nil {
					return err
				}
				to, err := r.name(a.other)
				if err != nil {
					return err
				}
				e, err := rec.edge(EdgeKey{Type: typeOf(a.typ), From: from, To: to, Relation: a.rel})
				if err != nil {
					return err
				}
				if err := sk.edge(e); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := sk.end(); err != nil {
		return err
	}
	return bw.Flush()
}

type jsonSink struct {
	w            *bufio.Writer
	nodes, edges int
}

func (s *jsonSink) node(n Node) error {
	if s.nodes == 0 {
		s.w.WriteString(`{"nodes":[`)
	} else {
		s.w.WriteByte(',')
	}
	s.nodes++
	if n.Attrs == nil {
		n.Attrs = map[string]string{}
	}
	return s.put(n)
}

func (s *jsonSink) edge(e Edge) error {
	if s.nodes == 0 {
		s.w.WriteString(`{"nodes":[`)
		s.nodes = -1
	}
	if s.edges == 0 {
		s.w.WriteString(`],"edges":[`)
	} else {
		s.w.WriteByte(',')
	}
	s.edges++
	return s.put(e)
}

func (s *jsonSink) put(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	s.w.WriteByte('\n')
	_, err = s.w.Write(b)
	return err
}

func (s *jsonSink) end() error {
	if s.nodes == 0 {
		s.w.WriteString(`{"nodes":[`)
	}
	if s.edges == 0 {
		s.w.WriteString(`],"edges":[`)
	}
	_, err := s.w.WriteString("]}\n")
	return err
}

// jsonEdge is the import form of an edge: only type, from and to are
// required; weight defaults to 1.
// jsonNode is a node as ReadJSON decodes it.
type jsonNode struct {
	ID    string    `json:"id"`
	Attrs jsonAttrs `json:"attrs"`
}

// jsonAttrs and jsonMetadata decode an empty object as nil: an export
// writes {} for every node and edge without any, and a map for each would
// be allocated for nothing.
type jsonAttrs map[string]string

func (a *jsonAttrs) UnmarshalJSON(b []byte) error {
	if isEmptyObject(b) {
		*a = nil
		return nil
	}
	var m map[string]string
	if err := segjson.Unmarshal(b, &m); err != nil || m == nil {
		*a = nil
		return err
	}
	// The decoder's map is made for many more keys than a node has: one
	// per node of a large import was most of its memory.
	*a = make(jsonAttrs, len(m))
	for k, v := range m {
		(*a)[k] = v
	}
	return nil
}

type jsonMetadata map[string]any

func (m *jsonMetadata) UnmarshalJSON(b []byte) error {
	if isEmptyObject(b) {
		*m = nil
		return nil
	}
	return segjson.Unmarshal(b, (*map[string]any)(m))
}

func isEmptyObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return false
	}
	return len(bytes.TrimSpace(b[1:len(b)-1])) == 0
}

type jsonEdge struct {
	Type          EdgeType     `json:"type"`
	From          string       `json:"from"`
	To            string       `json:"to"`
	Relation      string       `json:"relation"`
	Weight        *float64     `json:"weight"`
	Metadata      jsonMetadata `json:"metadata"`
	CreatedAt     time.Time    `json:"created_at"`
	UpdatedAt     time.Time    `json:"updated_at"`
	InvalidatedAt *time.Time   `json:"invalidated_at"`
	InvalidReason string       `json:"invalidated_reason"`
	Version       int          `json:"version"`
	Mentions      int          `json:"mentions"`
}

// ReadJSON reads lore's graph JSON and checks every node and edge against
// the rules (see ScanJSON). Memory holds the graph decoded once, not also
// its text; ids repeated across edges share one string.
func ReadJSON(r io.Reader) (*Subgraph, error) {
	g := &Subgraph{}
	ids := map[string]string{}
	intern := func(s string) string {
		if t, ok := ids[s]; ok {
			return t
		}
		ids[s] = s
		return s
	}
	size := inputSize(r)
	var first int64 // offset of the first edge
	err := scanJSON(r, func(n Node) error {
		n.ID = intern(n.ID)
		g.Nodes = append(g.Nodes, n)
		return nil
	}, func(e Edge, off int64) error {
		e.From, e.To = intern(e.From), intern(e.To)
		// Sized once from the input's size and the first edges'
		// length, instead of grown a dozen times.
		switch n := len(g.Edges); {
		case n == 0:
			first = off
		case n == 1024 && size > 0 && off > first:
			g.Edges = slices.Grow(g.Edges, int((size-first)*1024/(off-first))*11/10)
		}
		g.Edges = append(g.Edges, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// ScanJSON reads lore's graph JSON and calls node and edge with each node
// and edge in the order of the input, checked against the rules. On edges
// only type, from and to are required; weight defaults to 1. It reads the
// input one node or edge at a time (segmentio's decoder for each, a third
// of encoding/json's CPU), so that memory never holds more than one. An
// error of node or edge ends the scan and is returned as it is.
func ScanJSON(r io.Reader, node func(Node) error, edge func(Edge) error) error {
	return scanJSON(r, node, func(e Edge, _ int64) error { return edge(e) })
}

// scanJSON is ScanJSON, giving edge the offset in the input after it.
func scanJSON(r io.Reader, node func(Node) error, edge func(Edge, int64) error) error {
	st := newJSONStream(r)
	nodes, edges := 0, 0
	var failed error // an error of node or edge
	err := st.members(func(key string) error {
		switch key {
		case "nodes":
			return st.elements(func(b []byte) error {
				var n jsonNode
				if !quickNode(b, &n) {
					n = jsonNode{}
					if err := segjson.Unmarshal(b, &n); err != nil {
						return err
					}
				}
				t, err := NodeType(n.ID)
				if err != nil {
					return fmt.Errorf("node %d: %w", nodes, err)
				}
				nodes++
				if err := node(Node{ID: n.ID, Type: t, Attrs: n.Attrs}); err != nil {
					failed = err
					return err
				}
				return nil
			})
		case "edges":
			return st.elements(func(b []byte) error {
				var j jsonEdge
				if !quickEdge(b, &j) {
					j = jsonEdge{}
					if err := segjson.Unmarshal(b, &j); err != nil {
						return err
					}
				}
				e, err := j.edge(edges)
				if err != nil {
					return err
				}
				edges++
				if err := edge(e, st.off); err != nil {
					failed = err
					return err
				}
				return nil
			})
		}
		return st.skip()
	})
	if err != nil && err == failed {
		return err
	}
	if err != nil {
		return fmt.Errorf("read graph JSON: %w", err)
	}
	return nil
}

// inputSize is the size of r when it knows it (a file, a reader of
// bytes), else 0.
func inputSize(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case interface{ Stat() (os.FileInfo, error) }:
		if fi, err := v.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return 0
}

// edge checks the i-th edge of an input and returns it.
func (j *jsonEdge) edge(i int) (Edge, error) {
	var missing []string
	for _, f := range []struct{ name, v string }{{"type", string(j.Type)}, {"from", j.From}, {"to", j.To}} {
		if f.v == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return Edge{}, fmt.Errorf("edge %d: missing %s", i, strings.Join(missing, ", "))
	}
	e := Edge{Type: j.Type, From: j.From, To: j.To, Relation: j.Relation, Weight: 1, Metadata: map[string]any(j.Metadata),
		CreatedAt: j.CreatedAt.UTC(), UpdatedAt: j.UpdatedAt.UTC(), Version: j.Version, Mentions: j.Mentions}
	if j.CreatedAt.IsZero() {
		e.CreatedAt = time.Time{}
	}
	if j.UpdatedAt.IsZero() {
		e.UpdatedAt = time.Time{}
	}
	if j.Weight != nil {
		e.Weight = *j.Weight
	}
	if j.InvalidatedAt != nil {
		t := j.InvalidatedAt.UTC()
		e.InvalidatedAt = &t
		e.InvalidReason = j.InvalidReason
	}
	if err := e.Valid(); err != nil {
		return Edge{}, fmt.Errorf("edge %d: %w", i, err)
	}
	return e, nil
}

// Import reads lore's graph JSON from r and loads it (see LoadFrom): nodes
// and edges are added, an edge that exists is overwritten. Nothing is
// written when the input does not read or breaks a rule.
func (s *Store) Import(ctx context.Context, r io.Reader) error {
	return s.LoadFrom(ctx, func(node func(Node) error, edge func(Edge) error) error {
		return ScanJSON(r, node, edge)
	})
}

// colours returns the fill and border colours of a node type, shared by
// DOT and Mermaid.
func colours(typ string) (fill, border string) {
	switch typ {
	case TypeLearning:
		return "#fff3bf", "#e0a800"
	case TypeFile:
		return "#d0ebff", "#1c7ed6"
	case TypeSymbol:
		return "#d3f9d8", "#2f9e44"
	case TypeTask:
		return "#f3d9fa", "#ae3ec9"
	case TypeRun:
		return "#ffe8cc", "#f76707"
	case TypePackage:
		return "#e6fcf5", "#0ca678"
	}
	return "#e9ecef", "#495057"
}

// nodeLabel is what a picture shows for a node: its title attribute when it
// has one, else the id without its type prefix.
func nodeLabel(n Node) string {
	if t := n.Attrs["title"]; t != "" {
		return t
	}
	if t := n.Attrs["name"]; t != "" {
		return t
	}
	_, name, _ := strings.Cut(n.ID, ":")
	return name
}

func edgeLabel(e Edge) string {
	s := string(e.Type)
	if e.Relation != "" {
		s = e.Relation
	}
	return s + " " + strconv.FormatFloat(e.Weight, 'g', 3, 64)
}

type dotSink struct {
	w       *bufio.Writer
	started bool
}

func newDOTSink(w *bufio.Writer) *dotSink { return &dotSink{w: w} }

func (s *dotSink) start() {
	if s.started {
		return
	}
	s.started = true
	s.w.WriteString("digraph lore {\n  rankdir=LR;\n" +
		"  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n" +
		"  edge [fontname=\"Helvetica\", fontsize=9, color=\"#555555\"];\n")
}

func dotQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func (s *dotSink) node(n Node) error {
	s.start()
	t, _ := NodeType(n.ID)
	fill, border := colours(t)
	fmt.Fprintf(s.w, "  %s [label=%s, tooltip=%s, fillcolor=%q, color=%q];\n",
		dotQuote(n.ID), dotQuote(nodeLabel(n)+"\n"+t), dotQuote(n.ID), fill, border)
	return nil
}

func (s *dotSink) edge(e Edge) error {
	s.start()
	attrs := fmt.Sprintf("label=%s, penwidth=%.2f", dotQuote(edgeLabel(e)), 0.5+2*e.Weight)
	if e.Type.Symmetric() {
		attrs += ", dir=none"
	}
	if e.Invalidated() {
		attrs += ", style=dashed, color=\"#aaaaaa\", fontcolor=\"#aaaaaa\""
	}
	_, err := fmt.Fprintf(s.w, "  %s -> %s [%s];\n", dotQuote(e.From), dotQuote(e.To), attrs)
	return err
}

func (s *dotSink) end() error {
	s.start()
	_, err := s.w.WriteString("}\n")
	return err
}

type mermaidSink struct {
	w   *bufio.Writer
	ids map[string]string
}

func newMermaidSink(w *bufio.Writer) *mermaidSink {
	w.WriteString("flowchart LR\n")
	return &mermaidSink{w: w, ids: map[string]string{}}
}

func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "\n", " ", "<", "#lt;", ">", "#gt;").Replace(s)
}

// id returns the Mermaid id of a node, declaring it when first seen.
func (s *mermaidSink) id(n Node) string {
	if m, ok := s.ids[n.ID]; ok {
		return m
	}
	m := "n" + strconv.Itoa(len(s.ids))
	s.ids[n.ID] = m
	t, _ := NodeType(n.ID)
	fmt.Fprintf(s.w, "  %s[\"%s<br/><small>%s</small>\"]:::%s\n", m, mermaidText(nodeLabel(n)), t, t)
	return m
}

func (s *mermaidSink) node(n Node) error {
	s.id(n)
	return nil
}

func (s *mermaidSink) edge(e Edge) error {
	from := s.id(Node{ID: e.From})
	to := s.id(Node{ID: e.To})
	arrow := "-->"
	switch {
	case e.Invalidated():
		arrow = "-.->"
	case e.Type.Symmetric():
		arrow = "---"
	}
	_, err := fmt.Fprintf(s.w, "  %s %s|\"%s\"| %s\n", from, arrow, mermaidText(edgeLabel(e)), to)
	return err
}

func (s *mermaidSink) end() error {
	for _, t := range nodeTypes() {
		fill, border := colours(t)
		fmt.Fprintf(s.w, "  classDef %s fill:%s,stroke:%s\n", t, fill, border)
	}
	return nil
}
