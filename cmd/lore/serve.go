package main

import (
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore/httpapi"
	"github.com/lorehq/lore/internal/loopback"
	"github.com/lorehq/lore/internal/warm"
)

func newServeCmd(a *app) *cobra.Command {
	var (
		addr        string
		allowRemote bool
		hosts       []string
	)
	c := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:7420] [--allow-remote]",
		Short: "Serve an HTTP JSON API for editors and tools",
		Long: `serve answers HTTP requests until interrupted (SIGINT or SIGTERM end it
gracefully):

  GET  /graph/neighborhood/{node}?depth=N   nodes and edges within N hops (1..5)
  POST /graph/neighbors {"ids": [...]}       1-hop neighbourhood of many nodes
  GET  /context?target=FILE[:LINE]&target=…  ranked learnings (as lore context --format json)
  GET  /learnings/{id}                       one learning
  GET  /verify                               as lore verify --format json

It listens on loopback only unless --allow-remote is given: the API has no
authentication. It answers only requests addressed to its own names
(localhost, 127.0.0.1, ::1; --host adds one) and refuses pages of other
sites (their Origin, cross-site fetches, POST bodies other than JSON), so
that a web page open in a browser cannot read the repository's learnings.
It keeps the store open between requests and follows changed files, and
lets go of the store whenever another lore command waits to write it.`,
		Example: `  lore serve
  curl -s 'http://127.0.0.1:7420/context?target=src/auth.ts:42'`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			parkOnFatal(a.stderr)
			ln, err := httpapi.Listen(addr, allowRemote)
			if err != nil {
				return err
			}
			notify := func(msg string) { fmt.Fprintln(a.stderr, "lore: warning:", msg) }
			view, err := warm.Open(c.Context(), warm.Options{Dir: a.dir, LockTimeout: a.lockTimeout, Notify: notify})
			if err != nil {
				_ = ln.Close() // not served: the failure above is the one to report
				return err
			}
			// The view holds the store read-only between calls: closing it
			// loses nothing.
			defer func() { _ = view.Close() }()
			fmt.Fprintf(a.stderr, "lore: serving on http://%s\n", ln.Addr())
			return httpapi.Serve(c.Context(), ln, httpapi.Options{
				Do:          view.Do,
				Dir:         a.dir,
				LockTimeout: a.lockTimeout,
				Hosts:       hostNames(hosts, ln),
				Notify:      func(msg string) { fmt.Fprintln(a.stderr, "lore: warning:", msg) },
			})
		},
	}
	c.Flags().StringVar(&addr, "addr", httpapi.DefaultAddr, "listen on `HOST:PORT`")
	c.Flags().StringArrayVar(&hosts, "host", nil, "also answer requests addressed to `NAME` (repeatable)")
	c.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow a non-loopback address (no authentication!)")
	return c
}

// hostNames are the names the server answers to: the listener's and extra.
func hostNames(extra []string, ln net.Listener) []string {
	if len(extra) == 0 {
		return nil // the listener's: see loopback.Names
	}
	return append(loopback.Names(ln), extra...)
}
