package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/anchors"
)

// version is lore's version, reported in SARIF.
const version = "0.1.0"

func newVerifyCmd(a *app) *cobra.Command {
	var (
		opts   lore.VerifyOptions
		format string
		failOn string
		all    bool
	)
	c := &cobra.Command{
		Use:   "verify [LEARNING...] [--staged | --rev REV] [--changed-since REV] [--fix] [--format text|json|sarif|github] [--fail-on drifted|invalid|never]",
		Short: "Check which learnings still hold (valid), changed (drifted) or lost their code (invalid)",
		Long: `verify checks every anchor against the working tree (default), git's index
(--staged: what is about to be committed; by default only the anchors the
commit touches and the learnings it stages) or a commit (--rev). Symbols that
moved or were renamed are followed; formatting and comment changes are not
drift. --fix rewrites the baselines of relocated and reformatted anchors
(drift is accepted only by a person: lore anchor accept). Exit code 1 when a
finding reaches --fail-on (default: invalid, or verify.fail_on in config).`,
		Example: `  lore verify
  lore verify --staged --fix                     # pre-commit
  lore verify --changed-since origin/main --format sarif > lore.sarif   # CI on a pull request
  lore verify --format github --fail-on drifted`,
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if failOn == "" {
				failOn = ws.Config().Verify.FailOn
			}
			if failOn == "" {
				failOn = "invalid"
			}
			if failOn != "drifted" && failOn != "invalid" && failOn != "never" {
				return usageError(c, "--fail-on %q: want drifted, invalid or never", failOn)
			}
			opts.Learnings = args
			rep, err := ws.Verify(c.Context(), opts)
			if err != nil {
				return err
			}
			switch format {
			case "json":
				err = a.json(rep)
			case "sarif":
				err = anchors.WriteSARIF(a.stdout, rep.Results, anchors.SARIFOptions{ToolVersion: version})
			case "github":
				err = anchors.WriteGitHub(a.stdout, rep.Results, anchors.GitHubOptions{})
			default:
				err = anchors.WriteText(a.stdout, rep.Results, anchors.TextOptions{Color: a.isTTY(), Titles: rep.Titles, HideValid: !all})
			}
			if err != nil {
				return err
			}
			for _, f := range rep.Fixed {
				fmt.Fprintf(a.stderr, "lore: fixed baselines in %s\n", f)
			}
			switch failOn {
			case "drifted":
				a.findings = rep.Summary.Drifted+rep.Summary.Invalid > 0
			case "invalid":
				a.findings = rep.Summary.Invalid > 0
			}
			return nil
		},
	}
	f := c.Flags()
	f.BoolVar(&opts.Staged, "staged", false, "verify what is staged (git's index), not the working tree")
	f.StringVar(&opts.Rev, "rev", "", "verify a commit's tree")
	f.StringVar(&opts.ChangedSince, "changed-since", "", "only anchors whose files changed since the merge base with `REV`")
	f.BoolVar(&opts.Fix, "fix", false, "rewrite baselines of moved and reformatted anchors")
	f.StringVar(&format, "format", "text", "text, json, sarif or github")
	f.StringVar(&failOn, "fail-on", "", "exit 1 on findings at or above: drifted, invalid or never")
	f.Float64Var(&opts.Threshold, "threshold", 0, "lowest confidence for following a relocation (default 0.8)")
	f.BoolVar(&all, "show-valid", false, "text: list valid anchors too")
	f.BoolVar(&opts.Everything, "all-anchors", false, "with --staged: verify every anchor, not only those the commit touches")
	c.PreRunE = func(c *cobra.Command, _ []string) error {
		switch format {
		case "text", "json", "sarif", "github":
			return nil
		}
		return usageError(c, "--format %q: want text, json, sarif or github", format)
	}
	return c
}

func newHistoryCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "history LEARNING [--json]",
		Short:   "Status transitions recorded for a learning's anchors",
		Example: "  lore history k3v9",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			ts, err := ws.History(c.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(ts)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, t := range ts {
				old := string(t.OldStatus)
				if old == "" {
					old = "new"
				}
				commit := t.Commit
				if len(commit) > 10 {
					commit = commit[:10]
				}
				fmt.Fprintf(tw, "%s\t%s\t#%d %s\t%s → %s\t%s\t%s\n", t.Time.Format("2006-01-02 15:04:05"), commit, t.Anchor, t.Spec, old, t.NewStatus, t.Change, t.Reason)
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
