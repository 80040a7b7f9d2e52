package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore/mcpserver"
)

func newMCPCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve lore to agents over MCP on stdio",
		Long: `mcp runs a Model Context Protocol server on stdin and stdout with the tools
lore_context, lore_learn, lore_link, lore_relate, lore_unrelate,
lore_neighbors, lore_build_context, lore_verify, lore_analyze_imports,
lore_analyze_cochanges and lore_feedback. The store is opened for each call
only, so other lore commands run beside it. Configure an agent with the
command "lore mcp" (and -C DIR when it starts elsewhere).`,
		Example: `  lore mcp
  claude mcp add lore -- lore -C /path/to/repo mcp`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			parkOnFatal(a.stderr)
			return mcpserver.Run(c.Context(), a.stdin, a.rawStdout, mcpserver.Options{
				Dir:         a.dir,
				LockTimeout: a.lockTimeout,
				Notify:      func(msg string) { fmt.Fprintln(a.stderr, "lore: warning:", msg) },
			})
		},
	}
}
