package graph

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// jsonStream reads the top level of lore's graph JSON — an object whose
// "nodes" and "edges" members are arrays — one array element at a time, so
// that a large import never holds its whole input, nor all of it decoded
// twice. Each element's bytes go to a decoder of one value.
type jsonStream struct {
	r   *bufio.Reader
	off int64  // bytes consumed, for messages
	buf []byte // the current element, reused
}

func newJSONStream(r io.Reader) *jsonStream {
	return &jsonStream{r: bufio.NewReaderSize(r, 256<<10)}
}

var errJSONEnd = errors.New("unexpected end of JSON input")

func (s *jsonStream) byte() (byte, error) {
	c, err := s.r.ReadByte()
	if err == io.EOF {
		return 0, errJSONEnd
	}
	if err == nil {
		s.off++
	}
	return c, err
}

// next returns the next byte that is not white space.
func (s *jsonStream) next() (byte, error) {
	for {
		c, err := s.byte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, nil
	}
}

func (s *jsonStream) expect(want byte) error {
	c, err := s.next()
	if err != nil {
		return err
	}
	if c != want {
		return fmt.Errorf("offset %d: want %q, found %q", s.off, want, c)
	}
	return nil
}

// value reads one JSON value whose first byte is first into s.buf: its
// bytes, not checked beyond the nesting of brackets and strings (the
// decoder that reads them checks the rest).
func (s *jsonStream) value(first byte) ([]byte, error) {
	s.buf = append(s.buf[:0], first)
	depth := 0
	switch first {
	case '{', '[':
		depth = 1
	case '"':
		if err := s.str(); err != nil {
			return nil, err
		}
		return s.buf, nil
	default: // a number, true, false or null: up to a delimiter
		for {
			c, err := s.r.ReadByte()
			if err != nil {
				if err == io.EOF {
					return s.buf, nil
				}
				return nil, err
			}
			switch c {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if err := s.r.UnreadByte(); err != nil {
					return nil, err
				}
				return s.buf, nil
			}
			s.off++
			s.buf = append(s.buf, c)
		}
	}
	for depth > 0 {
		c, err := s.byte()
		if err != nil {
			return nil, err
		}
		s.buf = append(s.buf, c)
		switch c {
		case '"':
			if err := s.str(); err != nil {
				return nil, err
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	return s.buf, nil
}

// str reads the rest of a string after its opening quote into s.buf, a
// buffer's worth at a time up to each quote, until a quote that no
// backslash escapes.
func (s *jsonStream) str() error {
	start := len(s.buf) // the opening quote is before it
	for {
		chunk, err := s.r.ReadSlice('"')
		s.buf = append(s.buf, chunk...)
		s.off += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			return errJSONEnd
		}
		if err != nil {
			return err
		}
		n := 0 // backslashes before the quote
		for i := len(s.buf) - 2; i >= start && s.buf[i] == '\\'; i-- {
			n++
		}
		if n%2 == 0 {
			return nil
		}
	}
}

// members calls fn for each member of the top-level object with its key;
// fn reads the member's value (elements, or skip).
func (s *jsonStream) members(fn func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	c, err := s.next()
	if err != nil {
		return err
	}
	if c == '}' {
		return s.end()
	}
	for {
		if c != '"' {
			return fmt.Errorf("offset %d: want a member name, found %q", s.off, c)
		}
		s.buf = append(s.buf[:0], c)
		if err := s.str(); err != nil {
			return err
		}
		key := string(s.buf[1 : len(s.buf)-1])
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		if c, err = s.next(); err != nil {
			return err
		}
		switch c {
		case ',':
			if c, err = s.next(); err != nil {
				return err
			}
		case '}':
			return s.end()
		default:
			return fmt.Errorf("offset %d: want ',' or '}', found %q", s.off, c)
		}
	}
}

// end checks that nothing but white space follows the top-level value.
func (s *jsonStream) end() error {
	c, err := s.next()
	if err == errJSONEnd {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("offset %d: %q after the end of the graph", s.off, c)
}

// elements calls fn with the bytes of each element of an array value
// (null counts as empty).
func (s *jsonStream) elements(fn func([]byte) error) error {
	c, err := s.next()
	if err != nil {
		return err
	}
	if c == 'n' {
		v, err := s.value(c)
		if err != nil {
			return err
		}
		if string(v) != "null" {
			return fmt.Errorf("offset %d: want an array, found %q", s.off, v)
		}
		return nil
	}
	if c != '[' {
		return fmt.Errorf("offset %d: want an array, found %q", s.off, c)
	}
	if c, err = s.next(); err != nil {
		return err
	}
	if c == ']' {
		return nil
	}
	for {
		v, err := s.value(c)
		if err != nil {
			return err
		}
		if err := fn(v); err != nil {
			return err
		}
		if c, err = s.next(); err != nil {
			return err
		}
		switch c {
		case ']':
			return nil
		case ',':
			if c, err = s.next(); err != nil {
				return err
			}
		default:
			return fmt.Errorf("offset %d: want ',' or ']', found %q", s.off, c)
		}
	}
}

// skip reads and drops a member's value.
func (s *jsonStream) skip() error {
	c, err := s.next()
	if err != nil {
		return err
	}
	_, err = s.value(c)
	return err
}

// quick reads one JSON object of a common shape without the general
// decoder (see quickEdge, quickNode): plain ASCII strings without escapes,
// numbers as JSON spells them. Its methods report false for anything
// else, which the general decoder then reads.
type quick struct {
	b []byte
	i int
}

func (q *quick) ws() {
	for q.i < len(q.b) && (q.b[q.i] == ' ' || q.b[q.i] == '\t' || q.b[q.i] == '\n' || q.b[q.i] == '\r') {
		q.i++
	}
}

// is skips white space and c, reporting whether c was there.
func (q *quick) is(c byte) bool {
	q.ws()
	if q.i < len(q.b) && q.b[q.i] == c {
		q.i++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes.
func (q *quick) str() ([]byte, bool) {
	if !q.is('"') {
		return nil, false
	}
	start := q.i
	for q.i < len(q.b) && q.b[q.i] != '"' {
		if c := q.b[q.i]; c < 0x20 || c >= 0x7f || c == '\\' {
			return nil, false
		}
		q.i++
	}
	if q.i >= len(q.b) {
		return nil, false
	}
	q.i++
	return q.b[start : q.i-1], true
}

// object reads an object's members, calling member with each key; member
// reads the value and reports whether it could.
func (q *quick) object(member func(key []byte) bool) bool {
	if !q.is('{') {
		return false
	}
	if q.is('}') {
		return true
	}
	for {
		key, ok := q.str()
		if !ok || !q.is(':') {
			return false
		}
		q.ws()
		if !member(key) {
			return false
		}
		if q.is('}') {
			return true
		}
		if !q.is(',') {
			return false
		}
	}
}

// end reports whether only white space is left.
func (q *quick) end() bool {
	q.ws()
	return q.i == len(q.b)
}

// quickEdge decodes an edge of the shape an export or a generator writes
// — an object of strings type, from, to and relation and a number weight,
// in any order — as the general decoder does; ok is false for anything
// else (see quick).
func quickEdge(b []byte, j *jsonEdge) (ok bool) {
	q := &quick{b: b}
	return q.object(func(key []byte) bool {
		switch string(key) {
		case "type", "from", "to", "relation":
			v, ok := q.str()
			if !ok {
				return false
			}
			switch string(key) {
			case "type":
				j.Type = knownEdgeType(v)
				return j.Type != "" // else the general decoder says what is wrong
			case "from":
				j.From = string(v)
			case "to":
				j.To = string(v)
			case "relation":
				j.Relation = string(v)
			}
			return true
		case "weight":
			start := q.i
			for q.i < len(b) && (b[q.i] >= '0' && b[q.i] <= '9' || b[q.i] == '.' || b[q.i] == '-' || b[q.i] == '+' || b[q.i] == 'e' || b[q.i] == 'E') {
				q.i++
			}
			w, ok := jsonNumber(b[start:q.i])
			if ok {
				j.Weight = &w
			}
			return ok
		}
		return false
	}) && q.end()
}

// quickNode decodes a node of the shape an export writes — an object of a
// string id and attrs, an object of strings — as the general decoder does;
// ok is false for anything else (see quick).
func quickNode(b []byte, n *jsonNode) (ok bool) {
	q := &quick{b: b}
	return q.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			v, ok := q.str()
			n.ID = string(v)
			return ok
		case "attrs":
			// The general decoder merges repeated attrs objects: only
			// one is read here.
			if n.Attrs != nil {
				return false
			}
			attrs := jsonAttrs{}
			ok := q.object(func(k []byte) bool {
				v, ok := q.str()
				attrs[string(k)] = string(v)
				return ok
			})
			if len(attrs) > 0 {
				n.Attrs = attrs
			}
			return ok
		}
		return false
	}) && q.end()
}

// knownEdgeType is the edge type spelled b, "" when none is.
func knownEdgeType(b []byte) EdgeType {
	for _, t := range EdgeTypes() {
		if string(t) == string(b) {
			return t
		}
	}
	return ""
}

// jsonNumber parses a number as JSON spells it: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumber(b []byte) (float64, bool) {
	i := 0
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	lead := i
	if n := digits(); n == 0 || n > 1 && b[lead] == '0' {
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return 0, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	if i != len(b) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	return f, err == nil
}
