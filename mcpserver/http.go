package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lorehq/lore/internal/loopback"
)

// HTTPOptions configure MCP over HTTP.
type HTTPOptions struct {
	Options
	// Hosts are the names (without port) the server answers to in a
	// request's Host header and a browser's Origin; others are refused (see
	// loopback.Check). Default: localhost, 127.0.0.1 and ::1, and for Serve
	// the names of its listener. "*" accepts any Host. There is no
	// authentication.
	Hosts []string
}

// Handler serves MCP over the streamable HTTP transport, stateless: every
// POST is a whole exchange, with no session id and no initialize needed
// (the 2026-07-28 specification; older clients that initialize get a
// fresh session per request). Requests a web page could send through the
// user's browser are refused (see loopback.Check).
func Handler(opts HTTPOptions) (http.Handler, error) {
	s, err := New(opts.Options)
	if err != nil {
		return nil, err
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, PropagateRequestCancellation: true})
	hosts := opts.Hosts
	if len(hosts) == 0 {
		hosts = loopback.LoopbackNames()
	}
	return loopback.Guard(h, hosts), nil
}

// Serve answers MCP over HTTP on ln until ctx ends, then lets running
// calls finish (a few seconds at most) and returns nil.
func Serve(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	if len(opts.Hosts) == 0 {
		opts.Hosts = loopback.Names(ln)
	}
	h, err := Handler(opts)
	if err != nil {
		_ = ln.Close() // not served: the failure above is the one to report
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    32 << 10,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("mcp: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close() // the shutdown's failure is the one to report
		return fmt.Errorf("mcp: shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}
