package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Limits of one message from the client. The SDK ends the session on a
// line it cannot decode as JSON-RPC; the edge answers such a line with the
// protocol's error and drops it, so one bad line costs one error reply.
const (
	maxLineBytes = 4 << 20
	maxDepth     = 64
)

// JSON-RPC error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// lockedWriter serialises whole messages from the SDK and from the edge.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// edge reads newline-delimited JSON-RPC from in and returns what the SDK
// may read: the lines that are well-formed JSON-RPC 2.0 messages. Any other
// line is answered on out with a parse error or an invalid-request error
// (with the request's id when it has a usable one) and dropped: not JSON,
// not an object (a batch, a string), without "jsonrpc": "2.0", an id that
// is not a string or an integer, a method that is not a string, longer than
// maxLineBytes or nested deeper than maxDepth.
func edge(in io.Reader, out io.Writer) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, tooLong, err := readLine(br)
			if reply := check(line, tooLong); reply != nil {
				if _, werr := out.Write(reply); werr != nil {
					pw.CloseWithError(fmt.Errorf("write: %w", werr)) // ends the session
					return
				}
			} else if len(line) > 0 {
				if _, werr := pw.Write(append(line, '\n')); werr != nil {
					return // the session ended
				}
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// readLine reads one line without its line break, at most maxLineBytes of
// it: the rest of a longer line is read and dropped, and tooLong set.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLineBytes+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(line), tooLong, err
	}
}

// check returns the error reply to a line that is no JSON-RPC message the
// SDK can take, nil for one it can (or an empty line, which is skipped).
func check(line []byte, tooLong bool) []byte {
	switch {
	case tooLong:
		return reply(nil, codeInvalidRequest, "message longer than 4 MiB")
	case len(line) == 0:
		return nil
	case tooDeep(line):
		return reply(nil, codeInvalidRequest, "message nested too deeply")
	case !json.Valid(line):
		return reply(nil, codeParseError, "parse error: not JSON")
	case line[0] == '[':
		return reply(nil, codeInvalidRequest, "batches are not supported: send one message per line")
	case line[0] != '{':
		return reply(nil, codeInvalidRequest, "a message is a JSON object")
	}
	var m struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return reply(nil, codeInvalidRequest, "a message is a JSON object")
	}
	id := m.ID
	if id != nil && !validID(id) {
		id = nil
	}
	switch {
	case string(m.JSONRPC) != `"2.0"`:
		return reply(id, codeInvalidRequest, `"jsonrpc" must be "2.0"`)
	case m.ID != nil && id == nil:
		return reply(nil, codeInvalidRequest, "an id is a string or an integer")
	case m.Method != nil:
		if m.Method[0] != '"' {
			return reply(id, codeInvalidRequest, `"method" must be a string`)
		}
		if m.Params != nil && m.Params[0] != '{' && m.Params[0] != '[' && string(m.Params) != "null" {
			return reply(id, codeInvalidRequest, `"params" must be an object`)
		}
	case id == nil || (m.Result == nil) == (m.Error == nil):
		// Not a request, and not a response either.
		return reply(id, codeInvalidRequest, `a request needs a "method"`)
	}
	return nil
}

// validID reports whether a JSON value is an id the SDK takes: a string or
// an integer.
func validID(raw json.RawMessage) bool {
	switch raw[0] {
	case '"':
		return true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n int64
		return json.Unmarshal(raw, &n) == nil
	}
	return false
}

// tooDeep reports whether JSON text nests arrays and objects deeper than
// maxDepth (brackets inside strings do not count).
func tooDeep(b []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > maxDepth {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// reply is a JSON-RPC error response on one line.
func reply(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return append(b, '\n')
}
