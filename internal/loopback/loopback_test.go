package loopback

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestCheck(t *testing.T) {
	local := LoopbackNames()
	remote := append(LoopbackNames(), "10.0.0.5", "build-box")
	for _, c := range []struct {
		method, host, origin, site, ctype string
		hosts                             []string
		status                            int // 0: served
	}{
		{"GET", "127.0.0.1:7420", "", "", "", local, 0},
		{"GET", "localhost:7420", "", "", "", local, 0},
		{"GET", "LOCALHOST.", "", "", "", local, 0},
		{"GET", "[::1]:7420", "", "", "", local, 0},
		{"GET", "127.0.0.2:80", "", "", "", local, 0},
		{"GET", "evil.example:7420", "", "", "", local, 421},     // DNS rebinding
		{"GET", "127.0.0.1.nip.io:7420", "", "", "", local, 421}, // a name, not an IP
		{"GET", "localhost.evil.example", "", "", "", local, 421},
		{"GET", "", "", "", "", local, 421},
		{"GET", "127.0.0.1:7420", "http://localhost:3000", "", "", local, 0},
		{"GET", "127.0.0.1:7420", "https://evil.example", "", "", local, 403},
		{"GET", "127.0.0.1:7420", "null", "", "", local, 403},
		{"GET", "127.0.0.1:7420", "file://", "", "", local, 403},
		{"GET", "127.0.0.1:7420", "", "cross-site", "", local, 403},
		{"GET", "127.0.0.1:7420", "", "same-origin", "", local, 0},
		{"POST", "127.0.0.1:7420", "", "", "application/json; charset=utf-8", local, 0},
		{"POST", "127.0.0.1:7420", "", "", "text/plain", local, 415},
		{"POST", "127.0.0.1:7420", "", "", "application/x-www-form-urlencoded", local, 415},
		{"POST", "127.0.0.1:7420", "", "", "", local, 415},
		{"GET", "10.0.0.5:7420", "", "", "", local, 421},
		{"GET", "10.0.0.5:7420", "", "", "", remote, 0},
		{"GET", "build-box:7420", "http://build-box:7420", "", "", remote, 0},
		{"GET", "10.0.0.5:7420", "http://evil.example", "", "", remote, 403},
		{"GET", "anything.example", "", "", "", []string{"*"}, 0},
		{"GET", "anything.example", "http://anything.example", "", "", []string{"*"}, 0},
		{"GET", "anything.example", "http://evil.example", "", "", []string{"*"}, 403}, // any host is not any site
	} {
		r := httptest.NewRequest(c.method, "/", nil)
		r.Host = c.host
		for k, v := range map[string]string{"Origin": c.origin, "Sec-Fetch-Site": c.site, "Content-Type": c.ctype} {
			if v != "" {
				r.Header.Set(k, v)
			}
		}
		status := 0
		var ref *Refusal
		if err := Check(r, c.hosts); errors.As(err, &ref) {
			status = ref.Status
		} else if err != nil {
			t.Fatalf("%+v: %v is no Refusal", c, err)
		}
		if status != c.status {
			t.Errorf("%s Host %q Origin %q site %q type %q hosts %v: status %d, want %d", c.method, c.host, c.origin, c.site, c.ctype, c.hosts, status, c.status)
		}
	}
}

func TestGuard(t *testing.T) {
	h := Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }), LoopbackNames())
	r := httptest.NewRequest("GET", "/", nil)
	r.Host = "evil.example"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusMisdirectedRequest {
		t.Errorf("rebinding host: got %d, want 421", rec.Code)
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
