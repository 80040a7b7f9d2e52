package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/httpapi"
	"github.com/lorehq/lore/internal/testrepo"
)

// repo builds a git repository with a lore workspace: two files where
// auth.ts imports jwt.ts, two learnings, the index and co-change analysis.
func repo(t *testing.T) (dir, jwtID, authID string) {
	t.Helper()
	dir = testrepo.New(t, map[string]string{
		"src/auth.ts": "import { verify } from './jwt';\n\nexport function login(token: string): boolean {\n  return verify(token);\n}\n",
		"src/jwt.ts":  "export function verify(token: string): boolean {\n  return token.length > 0;\n}\n",
	})
	ws, err := lore.Open(dir, lore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ws.Index(ctx, lore.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.AnalyzeCochange(ctx, cochange.Options{FullHistory: true}); err != nil {
		t.Fatal(err)
	}
	l1, err := ws.Add(ctx, lore.AddOptions{Title: "verify rejects empty tokens", Anchors: []string{"src/jwt.ts::verify"}})
	if err != nil {
		t.Fatal(err)
	}
	l2, err := ws.Add(ctx, lore.AddOptions{Title: "login must call verify", Anchors: []string{"src/auth.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	return dir, l1.ID, l2.ID
}

// serve runs the API on a real loopback listener until the test ends.
func serve(t *testing.T, dir string) (base string, stop func() error) {
	t.Helper()
	return serveWith(t, httpapi.Options{Dir: dir, MaxBodyBytes: 1 << 10})
}

// serveWith is serve with options of the caller's.
func serveWith(t *testing.T, opts httpapi.Options) (base string, stop func() error) {
	t.Helper()
	ln, err := httpapi.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- httpapi.Serve(ctx, ln, opts) }()
	var once sync.Once
	var serr error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case serr = <-done:
			case <-time.After(15 * time.Second):
				serr = errors.New("Serve did not return after cancel")
			}
		})
		return serr
	}
	t.Cleanup(func() { stop() })
	return "http://" + ln.Addr().String(), stop
}

type response struct {
	status int
	body   map[string]any
	raw    string
}

func do(t *testing.T, method, u, body string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, u, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := response{status: resp.StatusCode, raw: string(b)}
	json.Unmarshal(b, &r.body)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q", method, u, ct)
	}
	return r
}

func TestEndpoints(t *testing.T) {
	dir, jwtID, authID := repo(t)
	base, stop := serve(t, dir)

	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string // substring of the body
	}{
		{"GET", "/graph/neighborhood/file:src/auth.ts", "", 200, `"learning:` + authID + `"`},
		{"GET", "/graph/neighborhood/src/jwt.ts?depth=2", "", 200, `"learning:` + authID + `"`},
		{"GET", "/graph/neighborhood/" + jwtID, "", 200, `"symbol:src/jwt.ts::verify"`},
		{"GET", "/graph/neighborhood/file:nope.ts", "", 404, `"error"`},
		{"GET", "/graph/neighborhood/src/auth.ts?depth=6", "", 400, "depth 6: want 1..5"},
		{"GET", "/graph/neighborhood/src/auth.ts?depth=0", "", 400, "depth 0: want 1..5"},
		{"GET", "/graph/neighborhood/src/auth.ts?depth=x", "", 400, "depth"},
		{"POST", "/graph/neighbors", `{"ids": ["src/jwt.ts::verify", "` + authID + `"]}`, 200, `"learning:` + jwtID + `"`},
		{"POST", "/graph/neighbors", `{"ids": []}`, 400, "missing or empty"},
		{"POST", "/graph/neighbors", `{}`, 400, "missing or empty"},
		{"POST", "/graph/neighbors", `{"ids": "x"}`, 400, "body"},
		{"POST", "/graph/neighbors", `not json`, 400, "body"},
		{"POST", "/graph/neighbors", `{"ids": ["file:nope.ts"]}`, 404, "no node"},
		{"POST", "/graph/neighbors", `{"ids": ["` + strings.Repeat("x", 2000) + `"]}`, 413, "over 1024 bytes"},
		{"GET", "/graph/neighbors", "", 405, "use POST"},
		{"DELETE", "/learnings/" + jwtID, "", 405, "use GET"},
		{"GET", "/context?target=src/auth.ts", "", 200, `"reason": "anchored to src/jwt.ts::verify in src/jwt.ts, which src/auth.ts imports"`},
		{"GET", "/context?target=src/auth.ts:4&target=src/jwt.ts&depth=1&limit=5", "", 200, `"symbol": "src/auth.ts::login"`},
		{"GET", "/context", "", 400, "at least one target"},
		{"GET", "/context?target=nope.ts", "", 404, "neither a file"},
		{"GET", "/context?target=src/auth.ts&depth=9", "", 400, "depth"},
		{"GET", "/context?target=../etc/passwd", "", 400, "outside the repository"},
		{"GET", "/learnings/" + jwtID, "", 200, `"title": "verify rejects empty tokens"`},
		{"GET", "/learnings/" + jwtID[:5], "", 200, `"id": "` + jwtID + `"`},
		{"GET", "/learnings/" + jwtID, "", 200, `"feedback": []`},
		{"GET", "/learnings/zzzzzzzz", "", 404, "no learning"},
		{"GET", "/verify", "", 200, `"valid": 2`},
		{"GET", "/verify?learning=" + authID, "", 200, `"valid": 1`},
		{"GET", "/verify?staged=maybe", "", 400, "staged"},
		// Revisions git would read as options: refused, not "0 valid".
		{"GET", "/verify?changed_since=--help", "", 400, "not a revision"},
		{"GET", "/verify?changed_since=--fork-point", "", 400, "not a revision"},
		{"GET", "/verify?rev=--all", "", 400, "not a revision"},
		// Accepting, the one write: a drift, or a move to a candidate or a
		// spec (lore anchor accept --to); the anchor keeps its position.
		{"POST", "/learnings/" + authID + "/anchors/1/accept", `{}`, 200, `"accepted"`},
		{"POST", "/learnings/" + jwtID + "/anchors/1/accept", `{"to": "1"}`, 400, "no candidates"},
		{"POST", "/learnings/" + jwtID + "/anchors/2/accept", `{"to": "src/jwt.ts"}`, 400, "anchor 2"},
		{"POST", "/learnings/" + jwtID + "/anchors/0/accept", `{"to": "src/jwt.ts"}`, 400, "1-based"},
		{"POST", "/learnings/" + jwtID + "/anchors/x/accept", `{"to": "src/jwt.ts"}`, 400, "1-based"},
		{"POST", "/learnings/" + jwtID + "/anchors/1/accept", `{"to": "src/jwt.ts::nope"}`, 400, "nope"},
		{"POST", "/learnings/" + jwtID + "/anchors/1/accept", `{"too": 1}`, 400, "body"},
		{"POST", "/learnings/zzzzzzzz/anchors/1/accept", `{"to": "src/jwt.ts"}`, 404, "no learning"},
		{"GET", "/learnings/" + jwtID + "/anchors/1/accept", "", 405, "use POST"},
		{"POST", "/learnings/" + jwtID + "/anchors/1/accept", `{"to": "src/jwt.ts"}`, 200, `re-anchored at src/jwt.ts`},
		{"GET", "/learnings/" + jwtID, "", 200, `"file": "src/jwt.ts"`},
		{"GET", "/nope", "", 404, "no such endpoint"},
	} {
		u := base + tc.path
		r := do(t, tc.method, u, tc.body)
		if r.status != tc.status || !strings.Contains(r.raw, tc.want) {
			t.Errorf("%s %s: %d %s\nwant %d with %q", tc.method, tc.path, r.status, r.raw, tc.status, tc.want)
		}
		if r.status >= 400 {
			if msg, _ := r.body["error"].(string); msg == "" {
				t.Errorf("%s %s: error body %q lacks an error message", tc.method, tc.path, r.raw)
			}
		}
	}
	// A form post from a web page of another origin writes nothing.
	resp, err := http.Post(base+"/learnings/"+jwtID+"/anchors/1/accept", "text/plain", strings.NewReader(`{"to": "src/auth.ts"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("accept as text/plain: %d, want 415", resp.StatusCode)
	}
	// A chunked body over the limit is cut off too.
	req, _ := http.NewRequest("POST", base+"/graph/neighbors", io.MultiReader(strings.NewReader(`{"ids": ["`), strings.NewReader(strings.Repeat("y", 4000)), strings.NewReader(`"]}`)))
	req.Header.Set("Content-Type", "application/json")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("chunked oversized body: %d, want 413", resp.StatusCode)
	}
	if err := stop(); err != nil {
		t.Errorf("Serve after cancel: %v", err)
	}
}

func TestConcurrentRequests(t *testing.T) {
	dir, jwtID, _ := repo(t)
	base, _ := serve(t, dir)
	paths := []string{"/context?target=src/auth.ts", "/learnings/" + jwtID, "/graph/neighborhood/src/jwt.ts", "/verify"}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := paths[i%len(paths)]
			resp, err := http.Get(base + p)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				errs <- fmt.Errorf("%s: %d %s", p, resp.StatusCode, b)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Between requests the store is closed: another opener gets it at once.
	ws, err := lore.Open(dir, lore.Options{LockTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.List(context.Background(), lore.ListOptions{}); err != nil {
		t.Errorf("store held between requests: %v", err)
	}
}

func TestShutdown(t *testing.T) {
	dir, _, _ := repo(t)
	base, stop := serve(t, dir)
	// Requests running when the context ends finish; later ones are
	// refused, never answered with a broken response.
	var wg sync.WaitGroup
	results := make(chan string, 10)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Get(base + "/context?target=src/auth.ts")
			if err != nil {
				results <- "refused"
				return
			}
			defer resp.Body.Close()
			var v map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != 200 {
				results <- fmt.Sprintf("broken: %d %v", resp.StatusCode, err)
				return
			}
			results <- "ok"
		}()
	}
	time.Sleep(20 * time.Millisecond)
	if err := stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	wg.Wait()
	close(results)
	for r := range results {
		if strings.HasPrefix(r, "broken") {
			t.Error(r)
		}
	}
	if _, err := http.Get(base + "/verify"); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func TestListen(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.com:80", "192.0.2.1:7420"} {
		if ln, err := httpapi.Listen(addr, false); err == nil {
			ln.Close()
			t.Errorf("Listen(%q) without allowRemote succeeded", addr)
		} else if !strings.Contains(err.Error(), "--allow-remote") {
			t.Errorf("Listen(%q): %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		ln, err := httpapi.Listen(addr, false)
		if err != nil {
			t.Errorf("Listen(%q): %v", addr, err)
			continue
		}
		ln.Close()
	}
	ln, err := httpapi.Listen("0.0.0.0:0", true)
	if err != nil {
		t.Errorf("Listen with allowRemote: %v", err)
	} else {
		ln.Close()
	}
	if _, err := httpapi.Listen("nocolon", false); err == nil {
		t.Error("address without port accepted")
	}
	if _, err := httpapi.NewHandler(httpapi.Options{}); err == nil {
		t.Error("options without Dir accepted")
	}
}
