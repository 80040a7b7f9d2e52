package graph

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
