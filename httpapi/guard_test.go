package httpapi_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lorehq/lore/httpapi"
)

// A page in a browser beside the server must not reach it: through DNS
// rebinding (its own name in Host), with its Origin, as a cross-site fetch,
// or with a body a form could send.
func TestBrowserGuard(t *testing.T) {
	dir, jwtID, _ := repo(t)
	base, _ := serve(t, dir)
	port := base[strings.LastIndexByte(base, ':')+1:]
	get := "/learnings/" + jwtID
	for _, tc := range []struct {
		name, method, path, host, body string
		header                         map[string]string
		status                         int
	}{
		{"own address", "GET", get, "", "", nil, 200},
		{"localhost", "GET", get, "localhost:" + port, "", nil, 200},
		{"localhost with a dot", "GET", get, "LOCALHOST.:" + port, "", nil, 200},
		{"ipv6 loopback", "GET", get, "[::1]:" + port, "", nil, 200},
		{"rebinding", "GET", get, "evil.example:" + port, "", nil, 421},
		{"rebinding without port", "GET", "/verify", "evil.example", "", nil, 421},
		{"a name ending in localhost", "GET", get, "localhost.evil.example:" + port, "", nil, 421},
		{"rebinding on POST", "POST", "/graph/neighbors", "evil.example", `{"ids": ["src/jwt.ts"]}`, map[string]string{"Content-Type": "application/json"}, 421},
		{"same origin", "GET", get, "", "", map[string]string{"Origin": "http://127.0.0.1:" + port}, 200},
		{"origin localhost", "GET", get, "", "", map[string]string{"Origin": "http://localhost:" + port}, 200},
		{"foreign origin", "GET", get, "", "", map[string]string{"Origin": "https://evil.example"}, 403},
		{"null origin", "GET", get, "", "", map[string]string{"Origin": "null"}, 403},
		{"file origin", "GET", get, "", "", map[string]string{"Origin": "file://"}, 403},
		{"cross-site fetch", "GET", get, "", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"same-origin fetch", "GET", get, "", "", map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
		{"form post", "POST", "/graph/neighbors", "", `{"ids": ["src/jwt.ts"]}`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"text post", "POST", "/graph/neighbors", "", `{"ids": ["src/jwt.ts"]}`, map[string]string{"Content-Type": "text/plain"}, 415},
		{"post without type", "POST", "/graph/neighbors", "", `{"ids": ["src/jwt.ts"]}`, nil, 415},
		{"json post", "POST", "/graph/neighbors", "", `{"ids": ["src/jwt.ts"]}`, map[string]string{"Content-Type": "application/json; charset=utf-8"}, 200},
	} {
		var body io.Reader
		if tc.body != "" {
			body = strings.NewReader(tc.body)
		}
		req, _ := http.NewRequest(tc.method, base+tc.path, body)
		if tc.host != "" {
			req.Host = tc.host
		}
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, resp.StatusCode, b, tc.status)
		}
		if tc.status >= 400 && !strings.Contains(string(b), `"error"`) {
			t.Errorf("%s: body %s has no error", tc.name, b)
		}
	}
}

// A client that sends its headers slowly is cut off after HeaderTimeout.
func TestSlowClient(t *testing.T) {
	dir, _, _ := repo(t)
	base, _ := serveWith(t, httpapi.Options{Dir: dir, HeaderTimeout: 200 * time.Millisecond})
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	io.WriteString(c, "GET /verify HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	// The server closes (possibly after a 408): reading ends.
	io.Copy(io.Discard, c)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("slow client held on for %s", d)
	}
}

// At most MaxConns connections are served at once; the next is served when
// one of them closes.
func TestMaxConns(t *testing.T) {
	dir, _, _ := repo(t)
	base, _ := serveWith(t, httpapi.Options{Dir: dir, MaxConns: 2})
	addr := strings.TrimPrefix(base, "http://")
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	time.Sleep(50 * time.Millisecond) // both accepted
	third, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	io.WriteString(third, "GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	third.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if _, err := bufio.NewReader(third).ReadString('\n'); err == nil {
		t.Fatal("a third connection was served while two were open")
	}
	held[0].Close()
	third.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(third).ReadString('\n')
	if err != nil || !strings.Contains(line, "404") {
		t.Errorf("third connection after one closed: %q %v", line, err)
	}
	held[1].Close()
}
