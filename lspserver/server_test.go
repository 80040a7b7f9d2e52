package lspserver_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/internal/testrepo"
	"github.com/lorehq/lore/lspserver"
)

const jwtGo = "package src\n\n// Verify checks a token.\nfunc Verify(token string) bool {\n\treturn len(token) > 0\n}\n"

// repo builds a git repository with a workspace and two learnings: one on
// src/jwt.go::Verify, whose body then changes (drifted), one on
// src/auth.go::Login, which then goes (invalid).
func repo(t *testing.T) (dir, jwtID, authID string) {
	t.Helper()
	dir = testrepo.New(t, map[string]string{
		"src/jwt.go":  jwtGo,
		"src/auth.go": "package src\n\nfunc Login(token string) bool {\n\treturn Verify(token)\n}\n",
	})
	ws, err := lore.Open(dir, lore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l1, err := ws.Add(ctx, lore.AddOptions{Title: "Verify rejects empty tokens", Body: "An empty token must never pass.", Anchors: []string{"src/jwt.go::Verify"}})
	if err != nil {
		t.Fatal(err)
	}
	l2, err := ws.Add(ctx, lore.AddOptions{Title: "Login delegates to Verify", Anchors: []string{"src/auth.go::Login"}})
	if err != nil {
		t.Fatal(err)
	}
	testrepo.Write(t, dir, "src/jwt.go", strings.Replace(jwtGo, "> 0", "> 8", 1))
	testrepo.Write(t, dir, "src/auth.go", "package src\n")
	return dir, l1.ID, l2.ID
}

// client is an LSP client over a pipe to a server running in process.
type client struct {
	t    *testing.T
	conn jsonrpc2.Conn
	mu   sync.Mutex
	diag map[protocol.DocumentURI][]protocol.Diagnostic
	seen chan struct{}
	msgs []string
}

func start(t *testing.T, dir string) *client {
	t.Helper()
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- lspserver.Run(ctx, a, a, lspserver.Options{Dir: dir}) }()
	c := &client{t: t, conn: jsonrpc2.NewConn(jsonrpc2.NewStream(b)), diag: map[protocol.DocumentURI][]protocol.Diagnostic{}, seen: make(chan struct{}, 100)}
	c.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case protocol.MethodTextDocumentPublishDiagnostics:
			var p protocol.PublishDiagnosticsParams
			json.Unmarshal(req.Params(), &p)
			c.mu.Lock()
			c.diag[p.URI] = p.Diagnostics
			c.mu.Unlock()
			c.seen <- struct{}{}
		case protocol.MethodWindowShowMessage:
			var p protocol.ShowMessageParams
			json.Unmarshal(req.Params(), &p)
			c.mu.Lock()
			c.msgs = append(c.msgs, p.Message)
			c.mu.Unlock()
		}
		return reply(ctx, nil, nil)
	})
	t.Cleanup(func() {
		cancel()
		b.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
	})
	return c
}

func (c *client) call(method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatal(err)
	}
}

// diagnostics waits until the diagnostics of u satisfy pred.
func (c *client) diagnostics(u protocol.DocumentURI, what string, pred func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		d, ok := c.diag[u]
		c.mu.Unlock()
		if ok && pred(d) {
			return d
		}
		select {
		case <-c.seen:
		case <-deadline:
			c.t.Fatalf("diagnostics of %s: want %s, have %+v", u, what, d)
		}
	}
}

func docURI(dir, p string) protocol.DocumentURI {
	return protocol.DocumentURI(uri.File(filepath.Join(dir, filepath.FromSlash(p))))
}

func TestRequests(t *testing.T) {
	dir, jwtID, authID := repo(t)
	c := start(t, dir)

	// Before initialize: refused.
	var h *protocol.Hover
	if err := c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{}, &h); err == nil || !strings.Contains(err.Error(), "initialize") {
		t.Errorf("hover before initialize: %v", err)
	}
	var init protocol.InitializeResult
	// The root by rootUri alone, as older clients name it.
	//lint:ignore SA1019 the fallback for older clients is what is tested
	if err := c.call(protocol.MethodInitialize, &protocol.InitializeParams{RootURI: protocol.DocumentURI(uri.File(dir))}, &init); err != nil {
		t.Fatal(err)
	}
	if init.Capabilities.HoverProvider != true || init.Capabilities.CodeLensProvider == nil || init.Capabilities.DocumentLinkProvider == nil {
		t.Errorf("capabilities: %+v", init.Capabilities)
	}
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})

	// Diagnostics on open: the drift at Verify's first line (its doc
	// comment, 0-based 2).
	jwt := docURI(dir, "src/jwt.go")
	text, _ := os.ReadFile(filepath.Join(dir, "src/jwt.go"))
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: jwt, LanguageID: "go", Version: 1, Text: string(text)}})
	d := c.diagnostics(jwt, "one drift", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	if d[0].Range.Start.Line != 2 || d[0].Severity != protocol.DiagnosticSeverityWarning || !strings.Contains(d[0].Message, "Verify rejects empty tokens") ||
		!strings.Contains(d[0].Message, "drifted") || !strings.Contains(d[0].Message, "lore anchor accept "+jwtID+"/1") {
		t.Errorf("drift diagnostic: %+v", d[0])
	}

	// Change, from the unsaved buffer: back to the baseline, no finding.
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: jwt}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: jwtGo}}})
	c.diagnostics(jwt, "none with the baseline in the buffer", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
	// Shifted down two lines in the buffer: still valid, the lens follows.
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: jwt}, Version: 3},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: strings.Replace(string(text), "package src\n", "package src\n\n\n", 1)}}})
	c.diagnostics(jwt, "the drift two lines down", func(d []protocol.Diagnostic) bool { return len(d) == 1 && d[0].Range.Start.Line == 4 })

	// Hover on the symbol's body, and nothing elsewhere.
	if err := c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: jwt}, Position: protocol.Position{Line: 6}}}, &h); err != nil {
		t.Fatal(err)
	}
	if h == nil || !strings.Contains(h.Contents.Value, "Verify rejects empty tokens") || !strings.Contains(h.Contents.Value, "drifted") || !strings.Contains(h.Contents.Value, "must never pass") {
		t.Errorf("hover: %+v", h)
	}
	h = nil
	if err := c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: jwt}, Position: protocol.Position{Line: 1}}}, &h); err != nil || h != nil {
		t.Errorf("hover off the symbol: %+v %v", h, err)
	}

	// Code lens above the symbol where it is now.
	var lenses []protocol.CodeLens
	if err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: jwt}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 1 || lenses[0].Range.Start.Line != 4 || !strings.Contains(lenses[0].Command.Title, "1 learning: Verify rejects") {
		t.Errorf("code lens: %+v", lenses)
	}
	var shown string
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lenses[0].Command.Command, Arguments: lenses[0].Command.Arguments}, &shown); err != nil || !strings.Contains(shown, jwtID) {
		t.Errorf("lens command: %q %v", shown, err)
	}

	// Code actions at the drift: accept it, or add a learning here.
	var actions []protocol.CodeAction
	if err := c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: jwt}, Range: protocol.Range{Start: protocol.Position{Line: 5}, End: protocol.Position{Line: 5}}}, &actions); err != nil {
		t.Fatal(err)
	}
	var accept, add *protocol.Command
	for _, a := range actions {
		switch a.Command.Command {
		case lspserver.CommandAccept:
			accept = a.Command
		case lspserver.CommandAdd:
			add = a.Command
		}
	}
	if accept == nil || add == nil {
		t.Fatalf("code actions: %+v", actions)
	}
	// Accepting takes the code on disk; the buffer holds the same code.
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: jwt}, Version: 4},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: string(text)}}})
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: accept.Command, Arguments: accept.Arguments}, nil); err != nil {
		t.Fatal(err)
	}
	c.diagnostics(jwt, "none after accepting", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
	var added map[string]string
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: add.Command, Arguments: []any{"src/jwt.go", 5, "Tokens are opaque"}}, &added); err != nil {
		t.Fatal(err)
	}
	if added["spec"] != "src/jwt.go::Verify" {
		t.Errorf("added learning: %+v", added)
	}
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "lore.nope"}, nil); err == nil {
		t.Error("unknown command accepted")
	}

	// The learning file of the vanished Login: an error at its anchor,
	// and a link from each anchor spec to the code.
	md := docURI(dir, ".lore/learnings/"+authID+".md")
	mdText, _ := os.ReadFile(filepath.Join(dir, ".lore/learnings", authID+".md"))
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: md, LanguageID: "markdown", Version: 1, Text: string(mdText)}})
	d = c.diagnostics(md, "the invalid anchor", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	lines := strings.Split(string(mdText), "\n")
	if d[0].Severity != protocol.DiagnosticSeverityError || !strings.Contains(lines[d[0].Range.Start.Line], "symbol: src/auth.go::Login") {
		t.Errorf("learning file diagnostic: %+v", d[0])
	}
	var links []protocol.DocumentLink
	if err := c.call(protocol.MethodTextDocumentDocumentLink, &protocol.DocumentLinkParams{TextDocument: protocol.TextDocumentIdentifier{URI: md}}, &links); err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 || !strings.HasSuffix(string(links[0].Target), "src/auth.go#L3") {
		t.Errorf("links: %+v", links)
	}
	c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: md}})
	c.diagnostics(md, "cleared on close", func(d []protocol.Diagnostic) bool { return len(d) == 0 })

	// Saved on disk by someone else: the server follows.
	c.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: jwt}})

	// Unknown requests, bad parameters.
	if err := c.call("textDocument/nope", nil, nil); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown method: %v", err)
	}
	if err := c.call(protocol.MethodTextDocumentHover, json.RawMessage(`[1,2]`), &h); err == nil {
		t.Error("bad parameters accepted")
	}
	if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
		t.Error(err)
	}
	c.notify(protocol.MethodExit, nil)
}
