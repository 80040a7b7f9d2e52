package mcpserver_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/mcpserver"
)

func TestOptions(t *testing.T) {
	if _, err := mcpserver.New(mcpserver.Options{}); err == nil {
		t.Error("options without Dir accepted")
	}
	if _, err := mcpserver.New(mcpserver.Options{Dir: ".", LockTimeout: -1}); err == nil {
		t.Error("negative lock timeout accepted")
	}
}

// TestConcurrentCalls drives the server in memory with calls in parallel:
// they are served one at a time and each opens the store afresh.
func TestConcurrentCalls(t *testing.T) {
	dir := t.TempDir()
	if _, err := lore.Init(dir); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc F() {}\n"), 0o644)
	ctx := context.Background()
	cs := connect(t, mcpserver.Options{Dir: dir})
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lore_learn", Arguments: map[string]any{"title": "F is pure", "anchors": []string{"a.go"}}})
	if err != nil || res.IsError {
		t.Fatalf("lore_learn: %v %+v", err, res)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lore_context", Arguments: map[string]any{"targets": []string{"a.go"}}})
			if err != nil || res.IsError {
				t.Errorf("lore_context: %v %+v", err, res)
				return
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "## F is pure") {
				t.Errorf("lore_context text:\n%s", text)
			}
		}()
	}
	wg.Wait()
}

// TestDo: with Options.Do every call runs on the workspace it gives (a
// warm view's), and an error of Do is the call's.
func TestDo(t *testing.T) {
	dir := t.TempDir()
	if _, err := lore.Init(dir); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc F() {}\n"), 0o644)
	ws, err := lore.Open(dir, lore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls, fail := 0, false
	do := func(ctx context.Context, fn func(*lore.Workspace) error) error {
		mu.Lock()
		calls++
		f := fail
		mu.Unlock()
		if f {
			return errors.New("view closed")
		}
		return fn(ws)
	}
	ctx := context.Background()
	cs := connect(t, mcpserver.Options{Dir: dir, Do: do})
	for _, c := range []mcp.CallToolParams{
		{Name: "lore_learn", Arguments: map[string]any{"title": "F is pure", "anchors": []string{"a.go"}}},
		{Name: "lore_context", Arguments: map[string]any{"targets": []string{"a.go"}}},
	} {
		if res, err := cs.CallTool(ctx, &c); err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", c.Name, err, res)
		}
	}
	if calls != 2 {
		t.Errorf("Do ran %d times for 2 calls", calls)
	}
	mu.Lock()
	fail = true
	mu.Unlock()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lore_context", Arguments: map[string]any{"targets": []string{"a.go"}}})
	if err == nil && !res.IsError {
		t.Errorf("a call whose Do failed succeeded: %+v", res)
	}
}

// connect starts a server with opts and returns a client session to it
// over an in-memory transport, both closed when the test ends.
func connect(t *testing.T, opts mcpserver.Options) *mcp.ClientSession {
	return connectWith(t, opts, nil)
}

// connectWith is connect with the client's options.
func connectWith(t *testing.T, opts mcpserver.Options, client *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	s, err := mcpserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "v0"}, client).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestResources: resources/list lists every learning, resources/read gives
// one with its anchors' status, and a client that listed them hears of
// each change of the list — by a tool of this server or, through
// Options.Changed, by another process — as
// notifications/resources/list_changed.
func TestResources(t *testing.T) {
	dir := t.TempDir()
	if _, err := lore.Init(dir); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc F() {}\n"), 0o644)
	changed := make(chan struct{})
	defer close(changed)
	heard := make(chan struct{}, 16)
	cs := connectWith(t, mcpserver.Options{Dir: dir, Changed: changed}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { heard <- struct{}{} },
	})
	ctx := context.Background()

	titles := func() []string {
		t.Helper()
		res, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range res.Resources {
			out = append(out, r.Title)
		}
		slices.Sort(out)
		return out
	}
	hear := func(what string) {
		t.Helper()
		select {
		case <-heard:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no resources/list_changed", what)
		}
		for len(heard) > 0 { // the SDK may coalesce or repeat
			<-heard
		}
	}
	if got := titles(); len(got) != 0 {
		t.Fatalf("empty workspace lists %v", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lore_learn", Arguments: map[string]any{"title": "F is pure", "anchors": []string{"a.go::F"}}})
	if err != nil || res.IsError {
		t.Fatalf("lore_learn: %v %+v", err, res)
	}
	hear("lore_learn")
	if got := titles(); !slices.Equal(got, []string{"F is pure"}) {
		t.Fatalf("after lore_learn: %v", got)
	}
	list, _ := cs.ListResources(ctx, nil)
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: list.Resources[0].URI})
	if err != nil || !strings.Contains(read.Contents[0].Text, "# F is pure") || !strings.Contains(read.Contents[0].Text, "valid") {
		t.Fatalf("read %s: %v %+v", list.Resources[0].URI, err, read)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "lore://learning/zzzzzzzzzz"}); err == nil {
		t.Error("reading a learning that does not exist succeeded")
	}

	// Another process adds a learning; the view that watches the files
	// signals Changed.
	ws, err := lore.Open(dir, lore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Add(ctx, lore.AddOptions{Title: "written elsewhere"}); err != nil {
		t.Fatal(err)
	}
	changed <- struct{}{}
	hear("a learning written by another process")
	if got := titles(); !slices.Equal(got, []string{"F is pure", "written elsewhere"}) {
		t.Fatalf("after the other process: %v", got)
	}

	id := strings.TrimPrefix(list.Resources[0].URI, "lore://learning/")
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lore_remove", Arguments: map[string]any{"learning": id}}); err != nil || res.IsError {
		t.Fatalf("lore_remove: %v %+v", err, res)
	}
	hear("lore_remove")
	if got := titles(); !slices.Equal(got, []string{"written elsewhere"}) {
		t.Fatalf("after lore_remove: %v", got)
	}
	// A signal with nothing changed announces nothing.
	changed <- struct{}{}
	select {
	case <-heard:
		t.Error("an unchanged list was announced")
	case <-time.After(200 * time.Millisecond):
	}
}
