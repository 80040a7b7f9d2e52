package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
)

func newHookCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "hook",
		Short: "Git hooks",
	}
	var opts lore.HookOptions
	install := &cobra.Command{
		Use:   "install [--chain] [--command PATH]",
		Short: "Install a pre-commit hook running lore verify --staged --fix",
		Long: `install writes .git/hooks/pre-commit (or core.hooksPath) so every commit
verifies the learnings against the staged content and carries fixed
baselines. An existing hook that is not lore's is never overwritten: --chain
keeps it and runs it first. For the pre-commit framework, use the hook in
this repository's .pre-commit-hooks.yaml instead.`,
		Example: "  lore hook install\n  lore hook install --chain",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			res, err := ws.InstallHook(c.Context(), opts)
			if err != nil {
				return err
			}
			verb := "installed"
			if res.Updated {
				verb = "updated"
			}
			fmt.Fprintf(a.stdout, "%s %s\n", verb, res.Path)
			if res.Chained != "" {
				fmt.Fprintf(a.stdout, "runs %s first\n", res.Chained)
			}
			return nil
		},
	}
	install.Flags().BoolVar(&opts.Chain, "chain", false, "keep an existing hook and run it before lore")
	install.Flags().StringVar(&opts.Command, "command", "lore", "how the hook runs lore")
	c.AddCommand(install)
	return c
}
