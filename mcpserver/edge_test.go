package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// The edge passes well-formed messages through unchanged, answers the
// others with one JSON-RPC error each, and never panics.
func FuzzEdge(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a\"[","method":"x","params":{"a":[[[]]]}}`))
	f.Add([]byte("\x00\n{}\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		passed, err := io.ReadAll(edge(bytes.NewReader(in), &lockedWriter{w: &out}))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(passed), "\n"), "\n") {
			if line != "" && check([]byte(line), false) != nil {
				t.Fatalf("passed a line it refuses: %q", line)
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line != "" && !json.Valid([]byte(line)) {
				t.Fatalf("reply is not JSON: %q", line)
			}
		}
	})
}
