package learnfile

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/yamlerr"
)

// Learning is one learning: what a team learned, anchored to code.
type Learning struct {
	ID          string           `json:"id"`
	Title       string           `json:"title"`
	Tags        []string         `json:"tags"`
	Anchors     []anchors.Anchor `json:"anchors"`
	Links       []Link           `json:"links,omitempty"`
	DerivedFrom []string         `json:"derived_from,omitempty"`
	Created     time.Time        `json:"created"`
	Updated     time.Time        `json:"updated"`
	Body        string           `json:"body"`
	// Path is the learning file, relative to the repository root.
	Path string `json:"path"`

	doc *document // the parsed file, for minimal rewrites; nil for new learnings
}

// Dir is the directory of the learning files, relative to the repository
// root: one file per learning, named after its id (<id>.md).
const Dir = ".lore/learnings"

// Summary is what a list of learnings shows of each.
type Summary struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Tags    []string  `json:"tags"`
	Created time.Time `json:"created"`
}

// Summary returns what a list shows of the learning.
func (l *Learning) Summary() Summary {
	return Summary{ID: l.ID, Title: l.Title, Tags: l.Tags, Created: l.Created}
}

// DropSource forgets the file the learning was parsed from, for learnings
// kept only to be read: a later Marshal lays the file out afresh instead of
// rewriting the one it came from.
func (l *Learning) DropSource() { l.doc = nil }

// Link is an authored relation from one learning to another.
type Link struct {
	To     string  `json:"to"`
	Type   string  `json:"type"`
	Weight float64 `json:"weight"`
	Note   string  `json:"note,omitempty"`
}

// Limits of one learning. lore's store keeps a learning, its anchors,
// links and provenance in one transaction, and Badger's transactions are
// bounded: a learning past these limits is refused when written and
// reported as a problem of its file when read (the others work on).
// TestLearningLimits (in package lore) stores a learning at every limit at
// once.
const (
	MaxBytes       = 128 << 10
	MaxAnchors     = 512
	MaxLinks       = 256
	MaxDerivedFrom = 256
)

// The front-matter keys lore owns, in the order it writes them.
var knownKeys = []string{"id", "title", "tags", "anchors", "links", "derived_from", "created", "updated"}

// document is a learning file as read: its front matter split into
// top-level key segments so that a rewrite replaces only what changed.
type document struct {
	bom      bool // the file starts with a UTF-8 byte order mark
	crlf     bool
	segments []segment // front-matter text per top-level key, LF line ends
	values   Learning  // the known fields as read, to see what changed
	body     []byte
}

type segment struct {
	key  string // "" for leading comments
	text string
}

// ParseError is a malformed learning file. Line is 1-based in the file (0
// when unknown).
type ParseError struct {
	Path string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	p := e.Path
	if p == "" {
		p = "learning"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", p, e.Msg)
}

// Parse parses a learning file. name is used in errors only.
func Parse(name string, data []byte) (*Learning, error) {
	perr := func(line int, format string, args ...any) error {
		return &ParseError{Path: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxBytes {
		return nil, perr(0, "the file has %d KiB; a learning may have %d KiB at most: shorten it or split it in two", len(data)>>10, MaxBytes>>10)
	}
	bom := bytes.HasPrefix(data, []byte(utf8BOM))
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	first, rest, ok := bytes.Cut(data, []byte("\n"))
	crlf := bytes.HasSuffix(first, []byte("\r"))
	if !ok || string(bytes.TrimRight(first, "\r")) != "---" {
		return nil, perr(1, "missing front matter: the file must start with a line '---'")
	}
	// Find the closing delimiter.
	var fm []byte
	var body []byte
	for off := 0; ; {
		if off >= len(rest) {
			return nil, perr(1, "front matter is not closed: add a line '---' after it")
		}
		l, after, found := bytes.Cut(rest[off:], []byte("\n"))
		t := string(bytes.TrimRight(l, "\r"))
		if t == "---" || t == "..." {
			fm = rest[:off]
			if found {
				body = after
			}
			break
		}
		if !found {
			return nil, perr(1, "front matter is not closed: add a line '---' after it")
		}
		off += len(l) + 1
	}
	fmLF := bytes.ReplaceAll(fm, []byte("\r\n"), []byte("\n"))
	// YAML reads a lone carriage return as a line break, lore's rewriter
	// does not: refuse it rather than rewrite a different file.
	if i := bytes.IndexByte(fmLF, '\r'); i >= 0 {
		return nil, perr(bytes.Count(fmLF[:i], []byte("\n"))+2, "front matter has a carriage return that does not end a line: save the file with LF or CRLF line endings")
	}

	var root yaml.Node
	if err := yaml.Unmarshal(fmLF, &root); err != nil {
		return nil, perr(yamlerr.Line(err)+1, "front matter: %s", yamlerr.Message(err))
	}
	if len(root.Content) == 0 {
		return nil, perr(2, "front matter is empty: it needs at least id and title")
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, perr(m.Line+1, "front matter must be a mapping of keys to values")
	}
	l := &Learning{Body: string(body)}
	doc := &document{bom: bom, crlf: crlf, body: body}
	seen := map[string]int{}
	lines := strings.SplitAfter(string(fmLF), "\n")
	for i := 0; i < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if prev, dup := seen[k.Value]; dup {
			return nil, perr(k.Line+1, "key %q repeats the one on line %d", k.Value, prev+1)
		}
		seen[k.Value] = k.Line
		if err := decodeKey(l, k.Value, v); err != nil {
			line := v.Line
			var le *lineError
			if errors.As(err, &le) {
				line, err = le.line, le.err
			}
			return nil, perr(line+1, "%s: %v", k.Value, err)
		}
	}
	if l.ID == "" {
		return nil, perr(2, "missing id")
	}
	if !ValidID(l.ID) {
		return nil, perr(seen["id"]+1, "id %q is not a lore id (2 to 32 characters of a-z and 0-9)", l.ID)
	}
	if strings.TrimSpace(l.Title) == "" {
		return nil, perr(seen["title"]+1, "missing title")
	}
	if strings.ContainsAny(l.Title, "\r\n") {
		return nil, perr(seen["title"]+1, "title: a title is one line")
	}
	if err := l.checkLimits(); err != nil {
		return nil, perr(0, "%v", err)
	}
	for _, lk := range l.Links {
		if lk.To == l.ID {
			return nil, perr(seen["links"]+1, "links: the learning links to itself: remove that link")
		}
	}
	// Split the front matter text into per-key segments. Block mappings
	// start each key at column 1; anything else falls back to one segment.
	block := true
	for i := 0; i < len(m.Content); i += 2 {
		if m.Content[i].Column != 1 {
			block = false
		}
	}
	if block && m.Style&yaml.FlowStyle == 0 {
		start := 0
		var key string
		for i := 0; i < len(m.Content); i += 2 {
			k := m.Content[i]
			at := k.Line - 1
			// Comment lines directly above a key travel with it.
			for at > start && strings.HasPrefix(strings.TrimSpace(lines[at-1]), "#") {
				at--
			}
			if at > start || i > 0 {
				doc.segments = append(doc.segments, segment{key: key, text: strings.Join(lines[start:at], "")})
			}
			start, key = at, k.Value
		}
		doc.segments = append(doc.segments, segment{key: key, text: strings.Join(lines[start:], "")})
	} else {
		doc.segments = []segment{{key: "*", text: string(fmLF)}}
	}
	// The snapshot must not share slices with l, which callers modify.
	doc.values = *l
	doc.values.Body = ""
	doc.values.Tags = slices.Clone(l.Tags)
	doc.values.Anchors = slices.Clone(l.Anchors)
	doc.values.Links = slices.Clone(l.Links)
	doc.values.DerivedFrom = slices.Clone(l.DerivedFrom)
	l.doc = doc
	return l, nil
}

func decodeKey(l *Learning, key string, v *yaml.Node) error {
	scalar := func(dst *string) error {
		if v.Kind != yaml.ScalarNode {
			return errors.New("want a single value")
		}
		*dst = v.Value
		return nil
	}
	strs := func(dst *[]string) error {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return nil
		}
		if v.Kind != yaml.SequenceNode {
			return errors.New("want a list such as [a, b]")
		}
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode || c.Value == "" {
				return errors.New("want a list of non-empty strings")
			}
			*dst = append(*dst, c.Value)
		}
		return nil
	}
	switch key {
	case "id":
		return scalar(&l.ID)
	case "title":
		// A folded or literal block ends in a line break.
		err := scalar(&l.Title)
		l.Title = strings.TrimSpace(l.Title)
		return err
	case "tags":
		return strs(&l.Tags)
	case "derived_from":
		return strs(&l.DerivedFrom)
	case "created", "updated":
		var t time.Time
		if err := v.Decode(&t); err != nil {
			return errors.New("want a time such as 2026-11-21T10:00:00Z")
		}
		if key == "created" {
			l.Created = t.UTC()
		} else {
			l.Updated = t.UTC()
		}
	case "anchors":
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return nil
		}
		if v.Kind != yaml.SequenceNode {
			return errors.New("want a list of anchors")
		}
		for _, c := range v.Content {
			var a anchors.Anchor
			if err := decodeAnchor(c, &a); err != nil {
				return &lineError{c.Line, err}
			}
			l.Anchors = append(l.Anchors, a)
		}
	case "links":
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return nil
		}
		if v.Kind != yaml.SequenceNode {
			return errors.New("want a list of links")
		}
		for _, c := range v.Content {
			var raw struct {
				To     string   `yaml:"to"`
				Type   string   `yaml:"type"`
				Weight *float64 `yaml:"weight"`
				Note   string   `yaml:"note"`
			}
			if err := c.Decode(&raw); err != nil {
				return &lineError{c.Line, errors.New(yamlerr.Message(err))}
			}
			lk := Link{To: raw.To, Type: raw.Type, Weight: 1, Note: raw.Note}
			if raw.Weight != nil {
				lk.Weight = *raw.Weight
			}
			if err := lk.validate(); err != nil {
				return &lineError{c.Line, err}
			}
			l.Links = append(l.Links, lk)
		}
	}
	return nil
}

// lineError places an error inside a value on a line of the front matter.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return e.err.Error() }

func decodeAnchor(n *yaml.Node, a *anchors.Anchor) error {
	if n.Kind != yaml.MappingNode {
		return errors.New("an anchor is a mapping such as {file: path}")
	}
	var raw struct {
		Symbol, Lines, File, Glob, Kind, Hash, Shape, Sig, Sketch string
	}
	if err := n.Decode(&raw); err != nil {
		return errors.New(yamlerr.Message(err))
	}
	*a = anchors.Anchor(raw)
	targets := 0
	for _, s := range []string{a.Symbol, a.File, a.Glob} {
		if s != "" {
			targets++
		}
	}
	if a.Symbol == "" && a.Lines != "" {
		targets++
	}
	if targets != 1 {
		return errors.New("an anchor names exactly one of symbol, lines, file or glob")
	}
	if _, err := anchors.ParseSpec(a.Spec()); err != nil {
		return err
	}
	return nil
}

func (lk Link) validate() error {
	if !ValidID(lk.To) {
		return fmt.Errorf("link target %q is not a learning id", lk.To)
	}
	if err := graph.ValidRelation(lk.Type); err != nil {
		return err
	}
	return graph.ValidWeight(lk.Weight)
}

// Marshal renders the learning as a file. A learning read from a file keeps
// that file's bytes except for the top-level keys whose values changed:
// unknown keys, comments, key order, line endings and the body stay as
// they were.
func (l *Learning) Marshal() ([]byte, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	var segs []segment
	crlf := false
	var old Learning
	if l.doc != nil {
		segs = slices.Clone(l.doc.segments)
		crlf = l.doc.crlf
		old = l.doc.values
	}
	have := map[string]bool{}
	out := segs[:0]
	for _, s := range segs {
		have[s.key] = true
		if s.key == "*" || !slices.Contains(knownKeys, s.key) {
			out = append(out, s)
			continue
		}
		if reflect.DeepEqual(fieldOf(&old, s.key), fieldOf(l, s.key)) {
			out = append(out, s)
			continue
		}
		text, err := encodeKey(l, s.key)
		if err != nil {
			return nil, err
		}
		if text != "" {
			out = append(out, segment{key: s.key, text: text})
		}
	}
	if have["*"] {
		// A flow-style front matter could not be split: re-encode it whole.
		return nil, errors.New("front matter in flow style cannot be rewritten: write it as a block mapping")
	}
	// Keys not in the file yet go after the known key that precedes them.
	for ki, k := range knownKeys {
		if have[k] {
			continue
		}
		text, err := encodeKey(l, k)
		if err != nil {
			return nil, err
		}
		if text == "" {
			continue
		}
		at := len(out)
		for i, s := range out {
			if j := slices.Index(knownKeys, s.key); j > ki {
				at = i
				break
			}
		}
		out = slices.Insert(out, at, segment{key: k, text: text})
	}
	var b bytes.Buffer
	if l.doc != nil && l.doc.bom {
		b.WriteString(utf8BOM)
	}
	b.WriteString("---\n")
	for _, s := range out {
		b.WriteString(s.text)
		if !strings.HasSuffix(s.text, "\n") {
			b.WriteByte('\n')
		}
	}
	b.WriteString("---\n")
	fm := b.Bytes()
	if crlf {
		fm = bytes.ReplaceAll(fm, []byte("\n"), []byte("\r\n"))
	}
	data := append(fm, l.Body...)
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("learning %s would have %d KiB; a learning may have %d KiB at most: shorten it or split it in two", l.ID, len(data)>>10, MaxBytes>>10)
	}
	return data, nil
}

// utf8BOM is the byte order mark some editors start UTF-8 files with.
const utf8BOM = "\xef\xbb\xbf"

// checkLimits refuses a learning past the limits of one (see MaxAnchors).
func (l *Learning) checkLimits() error {
	for _, c := range []struct {
		what   string
		n, max int
		or     string
	}{
		{"anchors", len(l.Anchors), MaxAnchors, " (or anchor a glob)"},
		{"links", len(l.Links), MaxLinks, ""},
		{"derived_from entries", len(l.DerivedFrom), MaxDerivedFrom, ""},
	} {
		if c.n > c.max {
			return fmt.Errorf("%d %s; a learning may have %d at most: split it in two%s", c.n, c.what, c.max, c.or)
		}
	}
	return nil
}

func (l *Learning) check() error {
	if err := l.checkLimits(); err != nil {
		return fmt.Errorf("learning %s: %w", l.ID, err)
	}
	if !ValidID(l.ID) {
		return fmt.Errorf("learning id %q is not valid", l.ID)
	}
	if strings.TrimSpace(l.Title) == "" {
		return errors.New("a learning needs a title")
	}
	if strings.ContainsAny(l.Title, "\n\r") {
		return errors.New("a title is one line")
	}
	for _, lk := range l.Links {
		if err := lk.validate(); err != nil {
			return err
		}
		if lk.To == l.ID {
			return fmt.Errorf("learning %s cannot link to itself", l.ID)
		}
	}
	return nil
}

func fieldOf(l *Learning, key string) any {
	switch key {
	case "id":
		return l.ID
	case "title":
		return l.Title
	case "tags":
		return emptyNil(l.Tags)
	case "anchors":
		return emptyNil(l.Anchors)
	case "links":
		return emptyNil(l.Links)
	case "derived_from":
		return emptyNil(l.DerivedFrom)
	case "created":
		return l.Created.UTC()
	case "updated":
		return l.Updated.UTC()
	}
	return nil
}

func emptyNil[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}

// encodeKey renders one top-level key and its value, or "" when the value
// is empty and the key should be left out.
func encodeKey(l *Learning, key string) (string, error) {
	var v *yaml.Node
	switch key {
	case "id":
		v = str(l.ID)
	case "title":
		v = str(l.Title)
	case "tags", "derived_from":
		s := l.Tags
		if key == "derived_from" {
			s = l.DerivedFrom
		}
		if len(s) == 0 {
			return "", nil
		}
		v = &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, t := range s {
			v.Content = append(v.Content, str(t))
		}
	case "anchors":
		if len(l.Anchors) == 0 {
			return "", nil
		}
		v = &yaml.Node{Kind: yaml.SequenceNode}
		for _, a := range l.Anchors {
			v.Content = append(v.Content, anchorYAML(a))
		}
	case "links":
		if len(l.Links) == 0 {
			return "", nil
		}
		v = &yaml.Node{Kind: yaml.SequenceNode}
		for _, lk := range l.Links {
			m := &yaml.Node{Kind: yaml.MappingNode}
			pairs(m, "to", lk.To, "type", lk.Type)
			m.Content = append(m.Content, str("weight"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: formatWeight(lk.Weight)})
			pairs(m, "note", lk.Note)
			v.Content = append(v.Content, m)
		}
	case "created", "updated":
		t := l.Created
		if key == "updated" {
			t = l.Updated
		}
		if t.IsZero() {
			return "", nil
		}
		v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: t.UTC().Format(time.RFC3339)}
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str(key), v}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return "", fmt.Errorf("encode %s: %w", key, err)
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// formatWeight writes a weight exactly (the shortest decimal that reads
// back as the same number), always with a decimal point.
func formatWeight(w float64) string {
	s := strconv.FormatFloat(w, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func anchorYAML(a anchors.Anchor) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	switch a.Type() {
	case anchors.TypeSymbol:
		pairs(m, "symbol", a.Symbol, "kind", a.Kind, "lines", a.Lines)
	case anchors.TypeLines:
		pairs(m, "lines", a.Lines, "kind", a.Kind)
	case anchors.TypeFile:
		pairs(m, "file", a.File)
	case anchors.TypeGlob:
		pairs(m, "glob", a.Glob)
	}
	pairs(m, "hash", a.Hash, "shape", a.Shape, "sig", a.Sig, "sketch", a.Sketch)
	return m
}

// pairs appends key/value pairs with non-empty values to a mapping node.
func pairs(m *yaml.Node, kv ...string) {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			m.Content = append(m.Content, str(kv[i]), str(kv[i+1]))
		}
	}
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
