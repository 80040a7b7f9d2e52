package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// hostileMCP are lines no MCP client should send. Each must get a
// JSON-RPC error (or, for a response or a notification, nothing), and the
// server must go on serving.
var hostileMCP = []struct {
	name, line string
	code       int // 0: no reply expected
}{
	{"not JSON", "hello", -32700},
	{"empty batch", "[]", -32600},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600},
	{"no jsonrpc", `{"id":1,"method":"ping"}`, -32600},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":2,"method":"ping"}`, -32600},
	{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600},
	{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600},
	{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600},
	{"NUL", "\x00", -32700},
	{"invalid UTF-8", "\xff\xfe{", -32700},
	{"empty object", "{}", -32600},
	{"string", `"str"`, -32600},
	{"number", "123", -32600},
	{"null", "null", -32600},
	{"neither request nor response", `{"jsonrpc":"2.0","id":1}`, -32600},
	{"method not a string", `{"jsonrpc":"2.0","id":3,"method":7}`, -32600},
	{"params not an object", `{"jsonrpc":"2.0","id":4,"method":"ping","params":5}`, -32600},
	{"trailing data", `{"jsonrpc":"2.0","id":"s","method":"ping"} x`, -32700},
	{"100k-deep nesting", strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), -32600},
	{"20 MB line", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"` + strings.Repeat("a", 20<<20) + `"}}`, -32600},
	{"unknown method", `{"jsonrpc":"2.0","id":6,"method":"nope"}`, 0},
	{"response to nothing", `{"jsonrpc":"2.0","id":77,"result":{}}`, 0},
	{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/unknown"}`, 0},
}

// TestMCPSurvivesHostileInput feeds a real `lore mcp` process each hostile
// line followed by a ping: every ping must be answered, so the server
// survived, and every hostile line gets the protocol's error. Then a
// session starts and lists the tools.
func TestMCPSurvivesHostileInput(t *testing.T) {
	lore := loreBinary(t)
	dir := gitRepo(t, serviceFiles, nil)
	if out, err := exec.Command(lore, "-C", dir, "init").CombinedOutput(); err != nil {
		t.Fatalf("lore init: %v\n%s", err, out)
	}
	cmd := exec.Command(lore, "-C", dir, "mcp")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan map[string]any)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				m = map[string]any{"unparsed": sc.Text()}
			}
			lines <- m
		}
		close(lines)
	}()
	next := func() map[string]any {
		t.Helper()
		select {
		case m, ok := <-lines:
			if !ok {
				t.Fatalf("the server exited: %s", stderr.String())
			}
			return m
		case <-time.After(30 * time.Second):
			t.Fatalf("no reply in 30s: %s", stderr.String())
		}
		return nil
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatalf("write: %v (stderr: %s)", err, stderr.String())
		}
	}
	survived := 0
	for i, h := range hostileMCP {
		send(h.line)
		ping := 1000 + i
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, ping))
		gotErr := false
		for {
			m := next()
			if id, _ := m["id"].(float64); int(id) == ping {
				break
			}
			e, _ := m["error"].(map[string]any)
			code, _ := e["code"].(float64)
			if h.code != 0 && int(code) != h.code {
				t.Errorf("%s: got %v, want error %d", h.name, m, h.code)
			}
			gotErr = true
		}
		if h.code != 0 && !gotErr {
			t.Errorf("%s: no error reply", h.name)
		}
		survived++
	}
	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := next(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"tools","method":"tools/list"}`)
	if m := next(); !strings.Contains(fmt.Sprint(m["result"]), "lore_context") {
		t.Fatalf("tools/list: %v", m)
	}
	t.Logf("the server survived %d of %d hostile inputs", survived, len(hostileMCP))
}
