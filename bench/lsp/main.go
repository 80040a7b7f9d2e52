// Command lsp measures lore's long-lived servers on a large workspace:
// LSP hover and diagnostics for an open file, HTTP /context, re-indexing
// after a save, the wait of a writer beside the running server, and the
// server's heap over many requests. Usage:
//
//	go run ./bench/lsp -repo WORKSPACE [-file PATH] [-n 1000] [-cpuprofile DIR]
//
// With -cpuprofile, each measure's CPU profile goes to DIR/NAME.pprof.
// WORKSPACE is a repository with .lore (bench/verify/run.sh makes one: the
// Go tree with 10,000 learnings). The files it edits are put back.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/httpapi"
	"github.com/lorehq/lore/internal/warm"
	"github.com/lorehq/lore/lspserver"
	"github.com/lorehq/lore/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	repo := flag.String("repo", "", "workspace to measure")
	file := flag.String("file", "", "file to open (default: the file with most anchors)")
	n := flag.Int("n", 1000, "requests per measure")
	flag.StringVar(&profileDir, "cpuprofile", "", "write each measure's CPU profile to this directory")
	flag.Parse()
	err := run(*repo, *file, *n)
	if perr := profile(""); err == nil {
		err = perr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/lsp:", err)
		os.Exit(2)
	}
}

// profileDir is where measures' CPU profiles go ("" for none); profiling
// is the current profile's file.
var (
	profileDir string
	profiling  *os.File
)

// profile ends the current measure's CPU profile and starts one for the
// measure named (none for "").
func profile(name string) error {
	if profiling != nil {
		pprof.StopCPUProfile()
		err := profiling.Close()
		profiling = nil
		if err != nil {
			return err
		}
	}
	if profileDir == "" || name == "" {
		return nil
	}
	f, err := os.Create(filepath.Join(profileDir, name+".pprof"))
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close() // empty
		return err
	}
	profiling = f
	return nil
}

func pct(ds []time.Duration) string {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(q float64) time.Duration { return ds[int(q*float64(len(ds)-1))] }
	return fmt.Sprintf("p50 %.2f ms, p95 %.2f ms, max %.2f ms (n=%d)", ms(at(0.5)), ms(at(0.95)), ms(ds[len(ds)-1]), len(ds))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func run(repo, file string, n int) (err error) {
	ctx := context.Background()
	ws, err := lore.Open(repo, lore.Options{})
	if err != nil {
		return err
	}
	if file == "" {
		ls, err := ws.List(ctx, lore.ListOptions{})
		if err != nil {
			return err
		}
		count := map[string]int{}
		for _, l := range ls {
			for _, a := range l.Anchors {
				count[a.Path()]++
			}
		}
		for p, c := range count {
			if c > count[file] || (c == count[file] && p < file) {
				file = p
			}
		}
		fmt.Printf("%d learnings; %s has %d anchors\n", len(ls), file, count[file])
	}
	root := ws.Root()
	abs := filepath.Join(root, filepath.FromSlash(file))
	orig, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	// The measures below change the file: it must be put back.
	defer func() {
		if werr := os.WriteFile(abs, orig, 0o644); err == nil {
			err = werr
		}
	}()

	// The LSP server over a pipe.
	a, b := net.Pipe()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	served := make(chan struct{})
	var serveErr error
	go func() {
		defer close(served)
		serveErr = lspserver.Run(sctx, a, a, lspserver.Options{Dir: root})
	}()
	published := make(chan int, 1000)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	conn.Go(sctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				return err // fails the connection: see diagnostics
			}
			published <- len(p.Diagnostics)
		}
		return reply(ctx, nil, nil)
	})
	// diagnostics waits for the next diagnostics the server publishes.
	diagnostics := func() error {
		select {
		case <-published:
			return nil
		case <-conn.Done():
			return fmt.Errorf("lsp connection: %w", conn.Err())
		}
	}
	start := time.Now()
	var init protocol.InitializeResult
	if _, err := conn.Call(ctx, protocol.MethodInitialize, &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(uri.File(root)), Name: filepath.Base(root)}}}, &init); err != nil {
		return err
	}
	fmt.Printf("initialize (open the view, read every learning): %.0f ms\n", ms(time.Since(start)))
	u := protocol.DocumentURI(uri.File(abs))
	start = time.Now()
	if err := conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Text: string(orig)}}); err != nil {
		return err
	}
	if err := diagnostics(); err != nil {
		return err
	}
	fmt.Printf("first diagnostics after open: %.0f ms\n", ms(time.Since(start)))

	if err := profile("hover"); err != nil {
		return err
	}
	lines := strings.Count(string(orig), "\n")
	var hov, diag []time.Duration
	for i := range n {
		t := time.Now()
		var h *protocol.Hover
		if _, err := conn.Call(ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: uint32(i * 7 % max(lines, 1))}}}, &h); err != nil {
			return err
		}
		hov = append(hov, time.Since(t))
	}
	fmt.Println("hover:", pct(hov))
	if err := profile("diagnostics"); err != nil {
		return err
	}
	for i := range n / 4 {
		text := string(orig) + fmt.Sprintf("\n// edit %d\n", i)
		t := time.Now()
		if err := conn.Notify(ctx, protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: int32(i + 2)},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}}}); err != nil {
			return err
		}
		if err := diagnostics(); err != nil {
			return err
		}
		diag = append(diag, time.Since(t))
	}
	fmt.Println("diagnostics after a change (unsaved buffer):", pct(diag))

	// Re-index after a save: the diagnostics the view's change report
	// brings.
	if err := profile("save"); err != nil {
		return err
	}
	var reidx []time.Duration
	for i := range 5 {
		time.Sleep(200 * time.Millisecond)
		for len(published) > 0 {
			<-published
		}
		t := time.Now()
		if err := os.WriteFile(abs, append(append([]byte{}, orig...), fmt.Sprintf("\n// saved %d\n", i)...), 0o644); err != nil {
			return err
		}
		if err := diagnostics(); err != nil {
			return err
		}
		reidx = append(reidx, time.Since(t))
	}
	fmt.Println("save to refreshed diagnostics (re-index, by notification):", pct(reidx))
	// Put back, and wait for the server's index to follow: an index
	// interrupted by the server's end would make the next one resolve
	// every file.
	if err := os.WriteFile(abs, orig, 0o644); err != nil {
		return err
	}
	select {
	case <-published:
	case <-time.After(10 * time.Second):
	}

	// The LSP server lets go of the store before the next measures.
	stop()
	<-served
	if serveErr != nil {
		return serveErr
	}

	// HTTP /context from a warm view.
	view, err := warm.Open(ctx, warm.Options{Dir: root})
	if err != nil {
		return err
	}
	defer func() { _ = view.Close() }() // on an early return; closed and checked below
	h, err := httpapi.NewHandler(httpapi.Options{Dir: root, Do: view.Do})
	if err != nil {
		return err
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	if err := profile("context"); err != nil {
		return err
	}
	var ctxd []time.Duration
	var m0, m1 runtime.MemStats
	for i := range n {
		if i == 10 {
			runtime.GC()
			runtime.ReadMemStats(&m0)
		}
		t := time.Now()
		resp, err := http.Get(srv.URL + "/context?target=" + file)
		if err != nil {
			return err
		}
		var v any
		err = json.NewDecoder(resp.Body).Decode(&v)
		_ = resp.Body.Close() // only read
		if err != nil {
			return fmt.Errorf("/context: %w", err)
		}
		if resp.StatusCode != 200 {
			return fmt.Errorf("/context: %d", resp.StatusCode)
		}
		ctxd = append(ctxd, time.Since(t))
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	fmt.Println("HTTP /context:", pct(ctxd))
	fmt.Printf("heap in use after request 10 / after %d: %.1f MB / %.1f MB\n", n, float64(m0.HeapInuse)/1e6, float64(m1.HeapInuse)/1e6)

	// MCP lore_context and lore_impact on the same warm view, through the
	// official SDK's client over an in-memory transport.
	if err := measureMCP(ctx, root, file, n, view.Do); err != nil {
		return err
	}

	if err := view.Close(); err != nil {
		return err
	}
	srv.Close()

	// A writer beside a busy server, and alone, in alternate rounds.
	if err := profile("writer"); err != nil {
		return err
	}
	var beside, alone, extra []time.Duration
	var added []string
	// The learnings added are removed again: a failure leaves them in the
	// workspace, which must be said.
	defer func() {
		w, werr := lore.Open(root, lore.Options{})
		for _, id := range added {
			if werr != nil {
				break
			}
			_, werr = w.Remove(ctx, id)
		}
		if werr != nil && err == nil {
			err = fmt.Errorf("remove the learnings the bench added (%s): %w", strings.Join(added, " "), werr)
		}
	}()
	add := func() (time.Duration, error) {
		w, err := lore.Open(root, lore.Options{})
		if err != nil {
			return 0, err
		}
		t := time.Now()
		l, err := w.Add(ctx, lore.AddOptions{Title: "bench note", Anchors: []string{file}})
		if err != nil {
			return 0, err
		}
		added = append(added, l.ID)
		return time.Since(t), nil
	}
	for range 10 {
		d, err := besideBusy(ctx, root, file, add)
		if err != nil {
			return err
		}
		time.Sleep(100 * time.Millisecond)
		a, err := add()
		if err != nil {
			return err
		}
		beside, alone, extra = append(beside, d), append(alone, a), append(extra, d-a)
	}
	if err := profile(""); err != nil {
		return err
	}
	fmt.Println("lore learn add (in process) beside a busy server:", pct(beside))
	fmt.Println("lore learn add with no server:", pct(alone))
	fmt.Println("  difference, per round:", pct(extra))
	return nil
}

// besideBusy opens a warm view with the HTTP handler on it, asks /context
// in a loop, and runs add beside it.
func besideBusy(ctx context.Context, root, file string, add func() (time.Duration, error)) (_ time.Duration, err error) {
	view, err := warm.Open(ctx, warm.Options{Dir: root})
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := view.Close(); err == nil {
			err = cerr
		}
	}()
	h, err := httpapi.NewHandler(httpapi.Options{Dir: root, Do: view.Do})
	if err != nil {
		return 0, err
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	busy, quit := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(busy)
		for {
			select {
			case <-quit:
				return
			default:
			}
			resp, err := http.Get(srv.URL + "/context?target=" + file)
			if err == nil {
				_ = resp.Body.Close() // the load is what matters, not the answer
			}
		}
	}()
	defer func() {
		close(quit)
		<-busy
	}()
	time.Sleep(200 * time.Millisecond)
	return add()
}

// measureMCP times MCP tool calls answered from a warm view.
func measureMCP(ctx context.Context, root, file string, n int, do func(context.Context, func(*lore.Workspace) error) error) (err error) {
	s, err := mcpserver.New(mcpserver.Options{Dir: root, Do: do})
	if err != nil {
		return err
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := ss.Close(); err == nil {
			err = cerr
		}
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := cs.Close(); err == nil {
			err = cerr
		}
	}()
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"lore_context", map[string]any{"targets": []string{file}}},
		{"lore_impact", map[string]any{"targets": []string{file}}},
	} {
		if err := profile("mcp-" + tool.name); err != nil {
			return err
		}
		var ds []time.Duration
		for range n {
			t := time.Now()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.name, Arguments: tool.args})
			if err != nil {
				return err
			}
			if res.IsError {
				return fmt.Errorf("%s: %+v", tool.name, res.Content)
			}
			ds = append(ds, time.Since(t))
		}
		fmt.Printf("MCP %s: %s\n", tool.name, pct(ds))
	}
	return nil
}
