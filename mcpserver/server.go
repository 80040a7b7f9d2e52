package mcpserver

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lorehq/lore"
)

// Options configure a server.
type Options struct {
	// Dir is a directory inside the workspace (lore.Open walks up to the
	// nearest .lore). Required.
	Dir string
	// LockTimeout bounds the wait for another lore process holding the
	// store (zero: the workspace's configured value).
	LockTimeout time.Duration
	// Version is reported to clients ("dev" when empty).
	Version string
	// Notify receives notices meant for a person (a learning file that
	// does not parse, a stale analysis). Nil drops them.
	Notify func(msg string)
	// Do, when set, runs a call's work on a workspace it provides, such
	// as a warm view that keeps the store open between calls (see
	// internal/warm); nil opens the workspace afresh for each call.
	Do func(ctx context.Context, fn func(*lore.Workspace) error) error
	// Changed, when set, signals that learning files changed on disk (a
	// warm view's OnChange): the server then brings its resource list up
	// to date and announces the change to its sessions (stateless HTTP has
	// none). Close it when the server is done.
	Changed <-chan struct{}
}

func (o *Options) validate() error {
	if o.Dir == "" {
		return errors.New("mcp: no workspace directory given")
	}
	if o.LockTimeout < 0 {
		return errors.New("mcp: lock timeout must not be negative")
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	return nil
}

// Instructions tell an agent when to use which tool.
const Instructions = `lore keeps learnings — short notes about code that a team (or an agent) learned the hard way — anchored to symbols, line ranges, files and globs, and a graph that joins them to files, imports, co-change history and each other.

- Before editing a file, call lore_context with the file (or file:line, or path::Symbol) to get what is known about it, best first, each with why it matters. Treat "drifted" learnings with care (the code changed since); never rely on the "stale" ones.
- Before committing, call lore_impact (no arguments: every uncommitted change; staged: the staged one) to see which learnings the change may affect, and check them.
- When you learn something worth keeping (a pitfall, an invariant, a decision), call lore_learn with a one-line title, a short body and anchors to the code it is about; it suggests anchors for symbols your text names. lore_link and lore_unlink change a learning's anchors, lore_edit its text, lore_remove deletes it; lore_list and lore_show find and read learnings.
- After changing code, call lore_verify: it lists the anchors that are not valid, with a summary. When a drifted learning still holds, lore_accept records the code as it is now (or moves the anchor to a suggested candidate); when it no longer holds, edit or remove it.
- lore_relate / lore_unrelate record how two learnings relate (caused_by, implements, supersedes, …); lore_build_context shows a learning's relation tree; lore_neighbors explores the graph; lore_cochange lists files that change together with a file.
- lore_analyze_imports (re)indexes files, symbols and imports and lore_analyze_cochanges reads git history; run them once when context looks thin, they are incremental.
- After a task, call lore_feedback for each learning you used, saying whether it helped.

Every learning is also a resource, lore://learning/{id}, with its anchors' current status.`

// New returns an MCP server with lore's tools.
func New(opts Options) (*mcp.Server, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "lore", Title: "lore: learnings anchored to code", Version: opts.Version},
		&mcp.ServerOptions{Instructions: Instructions, Capabilities: &mcp.ServerCapabilities{}})
	h := &handlers{opts: opts, srv: s}
	h.register(s)
	h.registerResources(s)
	h.registerPrompts(s)
	if opts.Changed != nil {
		go h.follow(opts.Changed)
	}
	return s, nil
}

// Run serves MCP over in and out (newline-delimited JSON-RPC, as on stdio)
// until the client disconnects or ctx is cancelled.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	s, err := New(opts)
	if err != nil {
		return err
	}
	// The SDK ends the session on a line it cannot decode: the edge
	// answers those itself (see edge).
	w := &lockedWriter{w: out}
	r := edge(in, w)
	defer func() { _ = r.Close() }() // a pipe's reader: its Close returns nil
	err = s.Run(ctx, &mcp.IOTransport{Reader: r, Writer: nopWriteCloser{w}, MaxLineLength: 2 * maxLineBytes})
	if err != nil && (errors.Is(err, io.EOF) || ctx.Err() != nil) {
		return nil
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

type handlers struct {
	opts Options
	srv  *mcp.Server
	// listed is the resource list as last synced (id → title); nil until
	// a client lists the resources.
	listed map[string]string
	// mu runs one call at a time: a process opens the store once at a
	// time, so concurrent calls queue here rather than on its lock.
	mu sync.Mutex
}

// workspace gives one call its workspace and a release to call when the
// call is done: Options.Do's (held until release), or one opened afresh.
func (h *handlers) workspace(ctx context.Context) (*lore.Workspace, func(), error) {
	if h.opts.Do == nil {
		ws, err := lore.Open(h.opts.Dir, lore.Options{LockTimeout: h.opts.LockTimeout, Notify: h.opts.Notify})
		return ws, func() {}, err
	}
	got := make(chan *lore.Workspace)
	done := make(chan struct{})
	ended := make(chan error, 1)
	go func() {
		ended <- h.opts.Do(ctx, func(ws *lore.Workspace) error {
			got <- ws
			<-done
			return nil
		})
	}()
	select {
	case ws := <-got:
		release := func() {
			close(done)
			// The call has its answer: a failure to let go of the
			// workspace after it is a warning.
			if err := <-ended; err != nil && h.opts.Notify != nil {
				h.opts.Notify("release the workspace: " + err.Error())
			}
		}
		return ws, release, nil
	case err := <-ended:
		if err == nil {
			err = errors.New("mcp: the workspace view gave no workspace")
		}
		return nil, nil, err
	}
}
