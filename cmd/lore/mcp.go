package main

import (
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore/internal/loopback"
	"github.com/lorehq/lore/internal/warm"
	"github.com/lorehq/lore/mcpserver"
)

func newMCPCmd(a *app) *cobra.Command {
	var (
		addr        string
		hosts       []string
		allowRemote bool
	)
	c := &cobra.Command{
		Use:   "mcp [--http 127.0.0.1:PORT [--allow-remote]]",
		Short: "Serve lore to agents over MCP (stdio or streamable HTTP)",
		Long: `mcp runs a Model Context Protocol server on stdin and stdout, or with --http
on the streamable HTTP transport in stateless mode (each POST to / is a whole
exchange: no session, no initialize needed). HTTP listens on loopback only
unless --allow-remote is given: there is no authentication. Like lore serve,
it answers only requests addressed to its own names (localhost, 127.0.0.1,
::1, a remote listener's address and the machine's name; --host adds one)
and refuses what a web page could send through a browser (another site's
Origin, cross-site fetches, POST bodies other than JSON).

Tools: lore_context, lore_impact, lore_learn, lore_list, lore_show,
lore_edit, lore_remove, lore_link, lore_unlink, lore_accept, lore_verify,
lore_cochange, lore_relate, lore_unrelate, lore_neighbors,
lore_build_context, lore_analyze_imports, lore_analyze_cochanges,
lore_feedback. Resources: lore://learning/{id}, each learning with its
anchors' status (on stdio, a change of the list is announced). Prompts: lore_review_change, lore_before_edit.

It keeps the store open between calls and follows changed files, and lets
go of the store whenever another lore command waits to write it, so other
lore commands run beside it. Configure an agent with the command "lore mcp" (and -C DIR when it
starts elsewhere).`,
		Example: `  lore mcp
  claude mcp add lore -- lore -C /path/to/repo mcp
  lore mcp --http 127.0.0.1:7421`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			parkOnFatal(a.stderr)
			notify := func(msg string) { fmt.Fprintln(a.stderr, "lore: warning:", msg) }
			var ln net.Listener
			if addr != "" {
				var err error
				if ln, err = loopback.Listen("mcp", addr, allowRemote); err != nil {
					return err
				}
			}
			// Learning files changed on disk change the resource list.
			changed := make(chan struct{}, 1)
			onChange := func(ch warm.Change) {
				if ch.Learnings {
					select {
					case changed <- struct{}{}:
					default:
					}
				}
			}
			view, err := warm.Open(c.Context(), warm.Options{Dir: a.dir, LockTimeout: a.lockTimeout, Notify: notify, OnChange: onChange})
			if err != nil {
				if ln != nil {
					_ = ln.Close() // not served: the failure above is the one to report
				}
				return err
			}
			defer close(changed) // after the view closed: no more changes
			// The view holds the store read-only between calls: closing it
			// loses nothing.
			defer func() { _ = view.Close() }()
			opts := mcpserver.Options{
				Dir:         a.dir,
				LockTimeout: a.lockTimeout,
				Notify:      notify,
				Do:          view.Do,
			}
			if ln == nil {
				opts.Changed = changed
				return mcpserver.Run(c.Context(), a.stdin, a.rawStdout, opts)
			}
			fmt.Fprintf(a.stderr, "lore: MCP on http://%s/\n", ln.Addr())
			return mcpserver.Serve(c.Context(), ln, mcpserver.HTTPOptions{Options: opts, Hosts: hostNames(hosts, ln)})
		},
	}
	c.Flags().StringVar(&addr, "http", "", "serve streamable HTTP on `HOST:PORT` instead of stdio")
	c.Flags().StringArrayVar(&hosts, "host", nil, "with --http, also answer requests addressed to `NAME` (repeatable)")
	c.Flags().BoolVar(&allowRemote, "allow-remote", false, "with --http, allow a non-loopback address (no authentication!)")
	return c
}
