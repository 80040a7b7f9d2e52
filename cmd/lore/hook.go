package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/internal/agenthook"
)

func newHookCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "hook",
		Short: "Git hooks",
	}
	var (
		opts  lore.HookOptions
		agent string
		merge bool
	)
	install := &cobra.Command{
		Use:   "install [--chain] [--command PATH] | --agent claude|codex [--merge]",
		Short: "Install a pre-commit hook running lore verify --staged --fix --quiet, or an agent's hooks",
		Long: `install writes .git/hooks/pre-commit (or core.hooksPath) so every commit
verifies the learnings against the staged content and carries fixed
baselines. The hook is silent when the commit may go ahead; when it stops a
commit it names the learning, why, and the commands that resolve it.

It runs the lore executable that installed it (its absolute path is
recorded in the hook, on this machine only), else lore on PATH, and says how
to repair when neither is there. An existing hook that is not lore's is
never overwritten: --chain keeps it and runs it first; lore hook uninstall
puts it back. For the pre-commit framework, use the hook in this
repository's .pre-commit-hooks.yaml instead.

--agent claude writes .claude/settings.json, --agent codex .codex/hooks.json:
the agent then runs "lore agent-hook pre" before each file edit (what lore
knows about the file becomes context) and "lore agent-hook post" after it
(anchors the edit broke are reported; invalid ones make the agent act). The
command is "lore" on PATH unless --command says otherwise, since the file is
meant to be committed. A settings file that exists is not changed unless
--merge: lore's hooks are then added and everything else is kept.`,
		Example: "  lore hook install\n  lore hook install --chain\n  lore hook install --agent claude\n  lore hook install --agent codex --merge",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if agent != "" {
				ag, err := agenthook.ParseAgent(agent)
				if err != nil {
					return usageError(c, "--agent: %v", err)
				}
				if opts.Chain {
					return usageError(c, "--chain is for the git hook, not --agent")
				}
				command := opts.Command
				if command == "" {
					command = "lore"
				}
				res, err := agenthook.Install(ws.Root(), ag, command, merge)
				if err != nil {
					return err
				}
				if res.Already {
					fmt.Fprintf(a.stdout, "%s already runs lore's hooks\n", res.Path)
				} else {
					fmt.Fprintf(a.stdout, "wrote lore's hooks into %s (runs %s agent-hook pre|post)\n", res.Path, command)
				}
				return nil
			}
			if merge {
				return usageError(c, "--merge goes with --agent")
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
	install.Flags().StringVar(&opts.Command, "command", "", "the lore executable the hook runs (default: this one; with --agent, lore)")
	install.Flags().StringVar(&agent, "agent", "", "install the hooks of a coding agent: claude or codex")
	install.Flags().BoolVar(&merge, "merge", false, "with --agent, add lore's hooks to an existing settings file")
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

func newAgentHookCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "agent-hook pre|post",
		Short: "Answer a coding agent's hook before or after a file edit",
		Long: `agent-hook reads the JSON that Claude Code or Codex sends a command hook on
stdin (PreToolUse or PostToolUse) and answers in their JSON on stdout:

  pre   the learnings about the files the tool is about to edit, as
        additional context for the agent
  post  the anchors into the edited files that are no longer valid: drifted
        ones as context, invalid ones also as a "block" decision that makes
        the agent act

It prints nothing when there is nothing to say. The workspace is the
hook's "cwd" unless -C is given. Install it with lore hook install --agent.`,
		Example: `  echo '{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"src/a.go"}}' | lore agent-hook pre`,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			phase, err := agenthook.ParsePhase(args[0])
			if err != nil {
				return usageError(c, "%v", err)
			}
			in, err := agenthook.ReadInput(a.stdin)
			if err != nil {
				return err
			}
			if !c.Flags().Changed("dir") && in.Cwd != "" {
				a.dir = in.Cwd
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			out, err := agenthook.Answer(c.Context(), ws, phase, in)
			if err != nil {
				return err
			}
			_, err = a.stdout.Write(out)
			return err
		},
	}
}
