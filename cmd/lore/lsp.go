package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore/lspserver"
)

func newLSPCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Serve lore to editors over the Language Server Protocol on stdio",
		Long: `lsp runs a Language Server Protocol server on stdin and stdout for any editor
with an LSP client: diagnostics where anchored code drifted or lost its
learning (from unsaved buffers too), hover with the learnings about a line,
code lenses above anchored code, code actions (accept a drift, take a
relocation, add a learning anchored here) and links from a learning file's
anchors to the code. It keeps the store open between requests and lets go of
it whenever another lore command waits to write. See editors/README.md for
editor set-up.`,
		Example: `  lore lsp
  nvim: vim.lsp.start({ name = "lore", cmd = { "lore", "lsp" }, root_dir = vim.fs.root(0, ".lore") })`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			parkOnFatal(a.stderr)
			return lspserver.Run(c.Context(), a.stdin, a.rawStdout, lspserver.Options{
				Dir:         a.dir,
				LockTimeout: a.lockTimeout,
				Notify:      func(msg string) { fmt.Fprintln(a.stderr, "lore: warning:", msg) },
			})
		},
	}
}
