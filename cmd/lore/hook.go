package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

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
		Short: "Install a pre-commit hook running lore verify --staged --fix --quiet",
		Long: `install writes .git/hooks/pre-commit (or core.hooksPath) so every commit
verifies the learnings against the staged content and carries fixed
baselines. The hook is silent when the commit may go ahead; when it stops a
commit it names the learning, why, and the commands that resolve it.

It runs the lore executable that installed it (its absolute path is
recorded in the hook, on this machine only), else lore on PATH, and says how
to repair when neither is there. An existing hook that is not lore's is
never overwritten: --chain keeps it and runs it first; lore hook uninstall
puts it back. For the pre-commit framework, use the hook in this
repository's .pre-commit-hooks.yaml instead.`,
		Example: "  lore hook install\n  lore hook install --chain",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if opts.Command == "" {
				opts.Command = self()
			}
			res, err := ws.InstallHook(c.Context(), opts)
			if err != nil {
				return err
			}
			verb := "installed"
			if res.Updated {
				verb = "updated"
			}
			fmt.Fprintf(a.stdout, "%s %s (runs %s, else lore on PATH)\n", verb, res.Path, opts.Command)
			if res.Chained != "" {
				fmt.Fprintf(a.stdout, "runs %s first\n", res.Chained)
			}
			return nil
		},
	}
	install.Flags().BoolVar(&opts.Chain, "chain", false, "keep an existing hook and run it before lore")
	install.Flags().StringVar(&opts.Command, "command", "", "the lore executable the hook runs (default: this one)")
	uninstall := &cobra.Command{
		Use:     "uninstall",
		Short:   "Remove lore's pre-commit hook, putting back a hook it chained",
		Example: "  lore hook uninstall",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			res, err := ws.UninstallHook(c.Context())
			if err != nil {
				return err
			}
			switch {
			case !res.Removed:
				fmt.Fprintf(a.stdout, "no lore hook at %s\n", res.Path)
			case res.Chained != "":
				fmt.Fprintf(a.stdout, "removed lore's hook; %s is the pre-commit hook again\n", res.Path)
			default:
				fmt.Fprintf(a.stdout, "removed %s\n", res.Path)
			}
			return nil
		},
	}
	c.AddCommand(install, uninstall)
	return c
}

// self is the absolute path of this lore executable, under the name it was
// started by when that is the same file (a symlink that an upgrade keeps
// pointing at the new version); "lore" when it cannot be told.
func self() string {
	exe, err := os.Executable()
	if err != nil {
		return "lore"
	}
	if p, err := exec.LookPath(os.Args[0]); err == nil {
		if abs, err := filepath.Abs(p); err == nil && sameFile(abs, exe) {
			return abs
		}
	}
	return exe
}

func sameFile(a, b string) bool {
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}
