package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/loopback"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/rank"
)

// Defaults and limits.
const (
	DefaultAddr           = "127.0.0.1:7420"
	DefaultMaxBodyBytes   = 64 << 10
	DefaultRequestTimeout = 30 * time.Second
	DefaultShutdownGrace  = 10 * time.Second
	DefaultHeaderTimeout  = 5 * time.Second
	DefaultMaxConns       = 64
	// MaxBulkIDs bounds POST /graph/neighbors.
	MaxBulkIDs = 1000
)

// Options configure the API.
type Options struct {
	// Dir is a directory inside the workspace. Required.
	Dir string
	// LockTimeout bounds the wait for another lore process holding the
	// store (zero: the workspace's configured value).
	LockTimeout time.Duration
	// Notify receives notices meant for a person. Nil drops them.
	Notify func(msg string)
	// MaxBodyBytes limits request bodies (default DefaultMaxBodyBytes);
	// larger ones get 413.
	MaxBodyBytes int64
	// RequestTimeout bounds one request (default DefaultRequestTimeout).
	RequestTimeout time.Duration
	// ShutdownGrace is how long Serve lets running requests finish after
	// its context ends (default DefaultShutdownGrace).
	ShutdownGrace time.Duration
	// Hosts are the names (without port) the API answers to in a request's
	// Host header and a browser's Origin; others get 421 and 403, so that a
	// web page cannot reach the API through DNS rebinding. Default:
	// localhost, 127.0.0.1 and ::1; Serve adds the addresses of a
	// non-loopback listener and the machine's host name. "*" accepts any.
	Hosts []string
	// HeaderTimeout bounds reading a request's headers (default
	// DefaultHeaderTimeout): a client that sends them slowly is cut off.
	HeaderTimeout time.Duration
	// MaxConns bounds the connections served at a time (default
	// DefaultMaxConns); more wait to be accepted.
	MaxConns int
	// Do runs a request's calls on a workspace, such as a warm view's
	// (internal/warm), one request at a time. Nil opens the workspace for
	// each request.
	Do func(ctx context.Context, fn func(*lore.Workspace) error) error
}

func (o *Options) validate() error {
	if o.Dir == "" {
		return errors.New("serve: no workspace directory given")
	}
	if o.MaxBodyBytes < 0 || o.RequestTimeout < 0 || o.ShutdownGrace < 0 || o.LockTimeout < 0 || o.HeaderTimeout < 0 || o.MaxConns < 0 {
		return errors.New("serve: limits and timeouts must not be negative")
	}
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.RequestTimeout == 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.ShutdownGrace == 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	if o.HeaderTimeout == 0 {
		o.HeaderTimeout = DefaultHeaderTimeout
	}
	if o.MaxConns == 0 {
		o.MaxConns = DefaultMaxConns
	}
	if len(o.Hosts) == 0 {
		o.Hosts = loopback.LoopbackNames()
	}
	return nil
}

// Listen opens a TCP listener on addr (default DefaultAddr). Unless
// allowRemote, addr must be a loopback address (127.0.0.1, ::1 or
// localhost): the API has no authentication.
func Listen(addr string, allowRemote bool) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	return loopback.Listen("serve", addr, allowRemote)
}

// ListenerNames are the names a server on ln answers to: the loopback
// names, and for another address that address (every interface's for an
// unspecified one) and the machine's name.
func ListenerNames(ln net.Listener) []string { return loopback.Names(ln) }

// Serve answers requests on ln until ctx ends, then stops accepting, lets
// running requests finish (up to Options.ShutdownGrace) and returns nil.
func Serve(ctx context.Context, ln net.Listener, opts Options) error {
	if len(opts.Hosts) == 0 {
		opts.Hosts = ListenerNames(ln)
	}
	h, err := NewHandler(opts)
	if err != nil {
		_ = ln.Close() // not served: the failure above is the one to report
		return err
	}
	o := opts
	_ = o.validate() // for the defaults: NewHandler validated opts
	ln = limit(ln, o.MaxConns)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.HeaderTimeout,
		ReadTimeout:       o.RequestTimeout,
		WriteTimeout:      o.RequestTimeout + 5*time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    32 << 10,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), o.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close() // the shutdown's failure is the one to report
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// NewHandler returns the API's handler:
//
//	GET  /graph/neighborhood/{node}?depth=N   nodes and edges within N hops (1..5, default 1)
//	POST /graph/neighbors {"ids": [...]}       the 1-hop neighbourhood of many nodes
//	GET  /context?target=T[&target=T2][&depth=N][&limit=K]
//	GET  /learnings/{id}                        the learning with its feedback
//	GET  /verify[?learning=ID...][&rev=REV][&staged=true][&changed_since=REV]
//	POST /learnings/{id}/anchors/{n}/accept {"to": "..."}   accept a drift, or move
//	     anchor n to a suggested candidate (its number) or a spec
func NewHandler(opts Options) (http.Handler, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	a := &api{opts: opts}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /graph/neighborhood/{node...}", a.neighborhood)
	mux.HandleFunc("POST /graph/neighbors", a.neighbors)
	mux.HandleFunc("GET /context", a.context)
	mux.HandleFunc("GET /learnings/{id}", a.learning)
	mux.HandleFunc("GET /verify", a.verify)
	mux.HandleFunc("POST /learnings/{id}/anchors/{n}/accept", a.accept)
	for path, allow := range map[string]string{
		"/graph/neighborhood/{node...}": "GET, HEAD", "/graph/neighbors": "POST", "/context": "GET, HEAD",
		"/learnings/{id}": "GET, HEAD", "/verify": "GET, HEAD", "/learnings/{id}/anchors/{n}/accept": "POST",
	} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: use %s", r.Method, r.URL.Path, allow))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Errorf("no such endpoint: %s %s", r.Method, r.URL.Path))
	})
	return guard(a.opts.Hosts, a.wrap(mux)), nil
}

type api struct {
	opts Options
	// mu serializes store sessions: one process opens Badger once at a
	// time, so concurrent requests queue here rather than on the lock.
	mu sync.Mutex
}

// wrap bounds each request's time and body size.
func (a *api) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), a.opts.RequestTimeout)
		defer cancel()
		if r.ContentLength > a.opts.MaxBodyBytes {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("request body over %d bytes", a.opts.MaxBodyBytes))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, a.opts.MaxBodyBytes)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// do runs fn with Options.Do, else with a freshly opened workspace, one
// request at a time.
func (a *api) do(ctx context.Context, fn func(*lore.Workspace) error) error {
	if a.opts.Do != nil {
		return a.opts.Do(ctx, fn)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	ws, err := lore.Open(a.opts.Dir, lore.Options{LockTimeout: a.opts.LockTimeout, Notify: a.opts.Notify})
	if err != nil {
		return err
	}
	return fn(ws)
}

func (a *api) neighborhood(w http.ResponseWriter, r *http.Request) {
	depth := 1
	if s := r.URL.Query().Get("depth"); s != "" {
		n, err := intParam("depth", s, graph.CheckDepth)
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		depth = n
	}
	node := r.PathValue("node")
	if node == "" {
		writeError(w, http.StatusBadRequest, errors.New("give a node: /graph/neighborhood/{node}"))
		return
	}
	var sub *graph.Subgraph
	err := a.do(r.Context(), func(ws *lore.Workspace) error {
		var err error
		sub, _, err = ws.Neighbors(r.Context(), lore.NeighborsOptions{Seeds: []string{node}, TraverseOptions: graph.TraverseOptions{Depth: depth}})
		return err
	})
	reply(w, sub, err)
}

type neighborsReq struct {
	IDs []string `json:"ids"`
}

func (a *api) neighbors(w http.ResponseWriter, r *http.Request) {
	var req neighborsReq
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("request body over %d bytes", mbe.Limit))
			return
		}
		writeError(w, http.StatusBadRequest, fmt.Errorf(`body: want {"ids": ["node", ...]}: %v`, err))
		return
	}
	if len(req.IDs) == 0 {
		writeError(w, http.StatusBadRequest, errors.New(`"ids" is missing or empty: want {"ids": ["node", ...]}`))
		return
	}
	if len(req.IDs) > MaxBulkIDs {
		writeError(w, http.StatusBadRequest, fmt.Errorf(`%d ids: at most %d per request`, len(req.IDs), MaxBulkIDs))
		return
	}
	var sub *graph.Subgraph
	err := a.do(r.Context(), func(ws *lore.Workspace) error {
		var err error
		sub, _, err = ws.Neighbors(r.Context(), lore.NeighborsOptions{Seeds: req.IDs, TraverseOptions: graph.TraverseOptions{Depth: 1}})
		return err
	})
	reply(w, sub, err)
}

func (a *api) context(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	opts := lore.ContextOptions{Targets: q["target"]}
	if len(opts.Targets) == 0 {
		writeError(w, http.StatusBadRequest, errors.New("give at least one target: /context?target=src/a.ts[:line]"))
		return
	}
	for _, p := range []struct {
		name  string
		dst   *int
		check func(int) error
	}{{"depth", &opts.Depth, graph.CheckDepth}, {"limit", &opts.Limit, rank.CheckLimit}} {
		if s := q.Get(p.name); s != "" {
			n, err := intParam(p.name, s, p.check)
			if err != nil {
				writeError(w, http.StatusBadRequest, err)
				return
			}
			*p.dst = n
		}
	}
	var res *rank.Result
	err := a.do(r.Context(), func(ws *lore.Workspace) error {
		var err error
		res, err = ws.Context(r.Context(), opts)
		return err
	})
	reply(w, res, err)
}

// learningReply is a learning with its feedback, as lore learn show --json
// prints it.
type learningReply struct {
	*learnfile.Learning
	Feedback []lore.Feedback `json:"feedback"`
}

func (a *api) learning(w http.ResponseWriter, r *http.Request) {
	var out learningReply
	err := a.do(r.Context(), func(ws *lore.Workspace) error {
		l, err := ws.Get(r.Context(), r.PathValue("id"))
		if err != nil {
			return err
		}
		fb, err := ws.LearningFeedback(r.Context(), l.ID)
		out = learningReply{l, fb}
		return err
	})
	reply(w, out, err)
}

func (a *api) verify(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	opts := lore.VerifyOptions{Learnings: q["learning"], Rev: q.Get("rev"), ChangedSince: q.Get("changed_since")}
	if s := q.Get("staged"); s != "" {
		b, err := strconv.ParseBool(s)
		if err != nil {
			writeError(w, http.StatusBadRequest, fmt.Errorf("staged %q: want true or false", s))
			return
		}
		opts.Staged = b
	}
	var rep *lore.VerifyReport
	err := a.do(r.Context(), func(ws *lore.Workspace) error {
		var err error
		rep, err = ws.Verify(r.Context(), opts)
		return err
	})
	reply(w, rep, err)
}

// intParam reads a number parameter and checks it as every driver does.
func intParam(name, s string, check func(int) error) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s %q: not a number", name, s)
	}
	return n, check(n)
}

type acceptReq struct {
	To string `json:"to"`
}

// accept is the one endpoint that writes: it takes JSON only, which a web
// page of another origin cannot send to this loopback server without a
// preflight the server never grants.
func (a *api) accept(w http.ResponseWriter, r *http.Request) {
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, errors.New(`send Content-Type: application/json with {"to": "..."} (or {})`))
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		writeError(w, http.StatusBadRequest, fmt.Errorf("anchor %q: want its 1-based position in the learning", r.PathValue("n")))
		return
	}
	var req acceptReq
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil && !errors.Is(err, io.EOF) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("request body over %d bytes", mbe.Limit))
			return
		}
		writeError(w, http.StatusBadRequest, fmt.Errorf(`body: want {"to": "candidate number or spec"} or {}: %v`, err))
		return
	}
	var rep *lore.AcceptReport
	err = a.do(r.Context(), func(ws *lore.Workspace) error {
		var err error
		rep, err = ws.Accept(r.Context(), lore.AcceptOptions{Learning: r.PathValue("id"), Anchor: n, To: req.To})
		return err
	})
	reply(w, rep, err)
}

// reply writes v as JSON, or err with the status it calls for.
func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		writeError(w, statusOf(err), err)
		return
	}
	// Encoded first, so that a value that cannot be is an error, not
	// an empty answer with status 200.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Errorf("encode the answer: %w", err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b.Bytes()) // fails only when the client went away
}

func statusOf(err error) int {
	var amb *lore.AmbiguousError
	switch {
	case errors.Is(err, lore.ErrNotFound), errors.Is(err, graph.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, graph.ErrLocked):
		return http.StatusServiceUnavailable
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout
	case errors.Is(err, lore.ErrNoWorkspace):
		return http.StatusInternalServerError
	case errors.As(err, &amb):
		return http.StatusBadRequest
	}
	// What remains are refusals of the request's input (a path outside
	// the repository, a malformed revision) more often than faults.
	return http.StatusBadRequest
}

func writeError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	// Strings always encode: this fails only when the client went away.
	_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}
