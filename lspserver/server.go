package lspserver

//lint:file-ignore SA1019 initialize reads rootUri and rootPath, deprecated, which older clients send alone

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/internal/warm"
	"github.com/lorehq/lore/learnfile"
)

// Options configure Run.
type Options struct {
	// Dir is a directory inside the workspace, used when the editor names
	// no root folder. Required.
	Dir string
	// LockTimeout bounds a wait for another lore process holding the
	// store (zero: the workspace's configured value).
	LockTimeout time.Duration
	// Notify receives notices meant for a person (they also go to the
	// editor as log messages). Nil drops them.
	Notify func(msg string)
}

// The workspace commands the server runs (workspace/executeCommand).
const (
	CommandAccept   = "lore.accept"       // [learning, anchor]: accept a reviewed drift
	CommandRelocate = "lore.relocate"     // [learning, anchor, spec]: re-anchor at a suggested location
	CommandRemove   = "lore.removeAnchor" // [learning, anchor]: remove an anchor whose code was deleted
	CommandFix      = "lore.fix"          // [learning]: record the baselines of moved or reformatted anchors
	CommandAdd      = "lore.addLearning"  // [spec, title?]: a new learning anchored at spec
	CommandShow     = "lore.show"         // [path, line]: the learnings at a line, as a message
)

// Run serves one editor on in and out until the editor exits, in closes
// or ctx ends.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Dir == "" {
		return errors.New("lsp: no workspace directory given")
	}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{in, out}))
	s := &server{opts: opts, conn: conn, docs: map[string]*document{}, exit: make(chan struct{})}
	conn.Go(ctx, s.handle)
	select {
	case <-conn.Done():
	case <-s.exit:
	case <-ctx.Done():
	}
	_ = conn.Close() // closes stdio, whose Close does nothing
	s.close()
	return nil
}

type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

// server is one editor's session.
type server struct {
	opts Options
	conn jsonrpc2.Conn
	exit chan struct{}
	once sync.Once

	mu   sync.Mutex
	view *warm.View
	root string
	docs map[string]*document // by repository-relative path
	// refs are the anchors of every learning by the file they point into
	// (globs under ""); rebuilt when the learnings change.
	refs map[string][]ref
	// learnings by id, for hover and messages.
	learnings map[string]*learnfile.Learning
}

// document is an open editor buffer.
type document struct {
	uri     protocol.DocumentURI
	text    string
	results []anchors.Result // the last verification of the anchors into it
}

// ref is one anchor of one learning.
type ref struct {
	id     string
	pos    int // 1-based position in the learning file
	anchor anchors.Anchor
}

func (s *server) close() {
	s.mu.Lock()
	v := s.view
	s.view = nil
	s.mu.Unlock()
	if v != nil {
		_ = v.Close() // it holds the store read-only between calls: nothing to lose
	}
}

// tell sends the editor a notification. It fails only when the connection
// did, which ends the session (conn.Done): there is no one left to tell.
func (s *server) tell(ctx context.Context, method string, params any) {
	_ = s.conn.Notify(ctx, method, params)
}

func (s *server) notify(msg string) {
	if s.opts.Notify != nil {
		s.opts.Notify(msg)
	}
	s.tell(context.Background(), protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: protocol.MessageTypeWarning, Message: "lore: " + msg})
}

// handle dispatches one message.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	params := req.Params()
	decode := func(v any) bool {
		if err := json.Unmarshal(params, v); err != nil {
			// A reply that cannot be written means the editor went:
			// reading from it ends the session.
			_ = reply(ctx, nil, fmt.Errorf("%w: %s: %v", jsonrpc2.ErrInvalidParams, req.Method(), err))
			return false
		}
		return true
	}
	if req.Method() != protocol.MethodInitialize && req.Method() != protocol.MethodExit && s.viewOf() == nil {
		if _, ok := req.(*jsonrpc2.Call); ok {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "lore: initialize first"))
		}
		return nil
	}
	switch req.Method() {
	case protocol.MethodInitialize:
		var p protocol.InitializeParams
		if !decode(&p) {
			return nil
		}
		res, err := s.initialize(ctx, &p)
		return reply(ctx, res, err)
	case protocol.MethodInitialized, protocol.MethodWorkDoneProgressCancel, "$/setTrace", protocol.MethodWorkspaceDidChangeConfiguration:
		return reply(ctx, nil, nil)
	case protocol.MethodShutdown:
		return reply(ctx, nil, nil)
	case protocol.MethodExit:
		s.once.Do(func() { close(s.exit) })
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if decode(&p) {
			s.opened(ctx, p.TextDocument.URI, p.TextDocument.Text)
		}
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if decode(&p) && len(p.ContentChanges) > 0 {
			s.opened(ctx, p.TextDocument.URI, p.ContentChanges[len(p.ContentChanges)-1].Text)
		}
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidSave:
		var p protocol.DidSaveTextDocumentParams
		if decode(&p) {
			s.saved(ctx, p.TextDocument.URI)
		}
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if decode(&p) {
			s.closed(ctx, p.TextDocument.URI)
		}
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentHover:
		var p protocol.HoverParams
		if !decode(&p) {
			return nil
		}
		return reply(ctx, s.hover(p.TextDocument.URI, int(p.Position.Line)), nil)
	case protocol.MethodTextDocumentCodeLens:
		var p protocol.CodeLensParams
		if !decode(&p) {
			return nil
		}
		return reply(ctx, s.codeLenses(p.TextDocument.URI), nil)
	case protocol.MethodTextDocumentCodeAction:
		var p protocol.CodeActionParams
		if !decode(&p) {
			return nil
		}
		return reply(ctx, s.codeActions(ctx, &p), nil)
	case protocol.MethodTextDocumentDocumentLink:
		var p protocol.DocumentLinkParams
		if !decode(&p) {
			return nil
		}
		return reply(ctx, s.links(p.TextDocument.URI), nil)
	case protocol.MethodWorkspaceExecuteCommand:
		var p protocol.ExecuteCommandParams
		if !decode(&p) {
			return nil
		}
		res, err := s.execute(ctx, &p)
		return reply(ctx, res, err)
	}
	if _, ok := req.(*jsonrpc2.Call); ok {
		return reply(ctx, nil, fmt.Errorf("%w: %s", jsonrpc2.ErrMethodNotFound, req.Method()))
	}
	return nil // notifications the server does not handle
}

func (s *server) viewOf() *warm.View {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view
}

// do runs fn on the view's workspace; once the server has closed its
// view (shutdown, while a change is still being published), it says so.
func (s *server) do(ctx context.Context, fn func(*lore.Workspace) error) error {
	v := s.viewOf()
	if v == nil {
		return errors.New("the server is shutting down")
	}
	return v.Do(ctx, fn)
}

// initialize opens the warm view on the editor's root folder (else
// Options.Dir) and announces what the server does.
func (s *server) initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	dir := s.opts.Dir
	// Clients older than workspace folders (LSP 3.6) name the root only
	// by rootUri or rootPath.
	switch {
	case len(p.WorkspaceFolders) > 0:
		dir = uri.URI(p.WorkspaceFolders[0].URI).Filename()
	case p.RootURI != "":
		dir = p.RootURI.Filename()
	case p.RootPath != "":
		dir = p.RootPath
	}
	v, err := warm.Open(ctx, warm.Options{Dir: dir, LockTimeout: s.opts.LockTimeout, Notify: s.notify, OnChange: s.changed})
	if err != nil {
		return nil, fmt.Errorf("lore: %s: %w", dir, err)
	}
	s.mu.Lock()
	if s.view != nil {
		s.mu.Unlock()
		_ = v.Close() // not used: nothing to lose
		return nil, errors.New("initialize: already initialized")
	}
	s.view, s.root = v, v.Root()
	s.mu.Unlock()
	if err := s.reload(ctx); err != nil {
		return nil, err
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindFull,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider:        true,
			CodeLensProvider:     &protocol.CodeLensOptions{},
			CodeActionProvider:   &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, protocol.Refactor}},
			DocumentLinkProvider: &protocol.DocumentLinkOptions{},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{
				Commands: []string{CommandAccept, CommandRelocate, CommandRemove, CommandFix, CommandAdd, CommandShow},
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "lore"},
	}, nil
}

// reload reads every learning into refs.
func (s *server) reload(ctx context.Context) error {
	var ls []*learnfile.Learning
	err := s.do(ctx, func(ws *lore.Workspace) error {
		var err error
		ls, err = ws.List(ctx, lore.ListOptions{})
		return err
	})
	if err != nil {
		return err
	}
	refs := map[string][]ref{}
	byID := make(map[string]*learnfile.Learning, len(ls))
	for _, l := range ls {
		byID[l.ID] = l
		for i, a := range l.Anchors {
			p := a.Path()
			if a.Type() == anchors.TypeGlob {
				p = ""
			}
			refs[p] = append(refs[p], ref{id: l.ID, pos: i + 1, anchor: a})
		}
	}
	s.mu.Lock()
	s.refs, s.learnings = refs, byID
	s.mu.Unlock()
	return nil
}

// changed is the warm view's report of changes on disk: learnings are
// read again and every open document's diagnostics refreshed.
func (s *server) changed(ch warm.Change) {
	ctx := context.Background()
	if ch.Learnings {
		if err := s.reload(ctx); err != nil {
			s.notify(err.Error())
		}
	}
	s.mu.Lock()
	paths := make([]string, 0, len(s.docs))
	for p := range s.docs {
		paths = append(paths, p)
	}
	s.mu.Unlock()
	slices.Sort(paths)
	for _, p := range paths {
		s.publish(ctx, p)
	}
}

// rel returns the repository-relative path of a document, "" when it is
// outside the repository.
func (s *server) rel(u protocol.DocumentURI) string {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	r, err := filepath.Rel(root, uri.URI(u).Filename())
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(r)
}

func (s *server) opened(ctx context.Context, u protocol.DocumentURI, text string) {
	p := s.rel(u)
	if p == "" {
		return
	}
	s.mu.Lock()
	d := s.docs[p]
	if d == nil {
		d = &document{uri: u}
		s.docs[p] = d
	}
	d.text = text
	s.mu.Unlock()
	s.publish(ctx, p)
}

func (s *server) saved(ctx context.Context, u protocol.DocumentURI) {
	if p := s.rel(u); p != "" {
		s.publish(ctx, p)
	}
}

func (s *server) closed(ctx context.Context, u protocol.DocumentURI) {
	p := s.rel(u)
	s.mu.Lock()
	delete(s.docs, p)
	s.mu.Unlock()
	s.tell(ctx, protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
}

// overlay is every open buffer, by path.
func (s *server) overlay() map[string][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := make(map[string][]byte, len(s.docs))
	for p, d := range s.docs {
		o[p] = []byte(d.text)
	}
	return o
}

// isLearningFile reports whether p is a learning file.
func isLearningFile(p string) bool {
	return strings.HasPrefix(p, learnfile.Dir+"/") && strings.HasSuffix(p, ".md")
}
