package mcpserver

import (
	"context"
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
	// AllowRemote serves clients that are not on this machine: the Host
	// header is not checked (an Origin header still must match it). There
	// is no authentication.
	AllowRemote bool
}

// Handler serves MCP over the streamable HTTP transport, stateless: every
// POST is a whole exchange, with no session id and no initialize needed
// (the 2026-07-28 specification; older clients that initialize get a
// fresh session per request). Requests whose Host or Origin says they
// come from a web page are refused (see loopback.Guard).
func Handler(opts HTTPOptions) (http.Handler, error) {
	s, err := New(opts.Options)
	if err != nil {
		return nil, err
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, PropagateRequestCancellation: true})
	return loopback.Guard(h, opts.AllowRemote), nil
}

// Serve answers MCP over HTTP on ln until ctx ends, then lets running
// calls finish (a few seconds at most) and returns nil.
func Serve(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	h, err := Handler(opts)
	if err != nil {
		ln.Close()
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
		srv.Close()
		return fmt.Errorf("mcp: shutdown: %w", err)
	}
	<-errc
	return nil
}
