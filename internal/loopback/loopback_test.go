package loopback

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		host, origin string
		remote, ok   bool
	}{
		{"127.0.0.1:7420", "", false, true},
		{"localhost:7420", "", false, true},
		{"LOCALHOST", "", false, true},
		{"[::1]:7420", "", false, true},
		{"127.0.0.2:80", "", false, true},
		{"evil.example:7420", "", false, false},     // DNS rebinding
		{"127.0.0.1.nip.io:7420", "", false, false}, // a name, not an IP
		{"127.0.0.1:7420", "http://localhost:3000", false, true},
		{"127.0.0.1:7420", "https://evil.example", false, false},
		{"127.0.0.1:7420", "null", false, false},
		{"127.0.0.1:7420", "file://", false, false},
		{"10.0.0.5:7420", "", true, true},
		{"10.0.0.5:7420", "http://10.0.0.5:7420", true, true},
		{"10.0.0.5:7420", "http://evil.example", true, false},
	} {
		r := httptest.NewRequest("POST", "/", nil)
		r.Host = c.host
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		err := Check(r, c.remote)
		if (err == nil) != c.ok {
			t.Errorf("Host %q Origin %q remote %v: got %v, want ok=%v", c.host, c.origin, c.remote, err, c.ok)
		}
	}
}

func TestGuard(t *testing.T) {
	h := Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }), false)
	r := httptest.NewRequest("GET", "/", nil)
	r.Host = "evil.example"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusForbidden {
		t.Errorf("rebinding host: got %d, want 403", rec.Code)
	}
	r.Host = "127.0.0.1:1"
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != 204 {
		t.Errorf("loopback host: got %d, want 204", rec.Code)
	}
}

func TestListen(t *testing.T) {
	if _, err := Listen("mcp", "0.0.0.0:0", false); err == nil {
		t.Error("listened on 0.0.0.0 without allowRemote")
	}
	if _, err := Listen("mcp", "nonsense", false); err == nil {
		t.Error("took an address without a port")
	}
	ln, err := Listen("mcp", "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
}
