package main

import (
	"fmt"
	"path"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/anchors"
)

// version is lore's version, reported in SARIF.
const version = "0.1.0"

func newVerifyCmd(a *app) *cobra.Command {
	var (
		opts        lore.VerifyOptions
		format      string
		failOn      string
		all         bool
		quiet       bool
		preexisting bool
	)
	c := &cobra.Command{
		Use:   "verify [LEARNING...] [--staged | --rev REV] [--changed-since REV] [--fix [--dry-run]] [--format text|json|sarif|github] [--fail-on drifted|invalid|never]",
		Short: "Check which learnings still hold (valid), changed (drifted) or lost their code (invalid)",
		Long: `verify checks every anchor against the working tree (default), git's index
(--staged: what is about to be committed; by default only the anchors the
commit touches and the learnings it stages) or a commit (--rev). Symbols that
moved or were renamed are followed; formatting and comment changes are not
drift. A learning file that does not parse (a merge conflict) is a finding.

--fix rewrites the baselines of relocated and reformatted anchors (drift is
accepted only by a person: lore anchor accept); with --staged it rewrites
the staged learning file and the working copy separately, so the commit
carries exactly lore's change. --fix --dry-run prints the patch instead.

--changed-since REV verifies the anchors into files changed since the merge
base with REV and compares each finding with the merge base: findings that
were already there are shown but fail the run only with
--fail-on-preexisting. Exit code 1 when a finding reaches --fail-on
(default: invalid, or verify.fail_on in config).`,
		Example: `  lore verify
  lore verify --staged --fix --quiet             # pre-commit (lore hook install)
  lore verify --changed-since origin/main --format sarif > lore.sarif   # CI on a pull request
  lore verify --fix --dry-run > lore-fix.patch   # the baseline updates, for review
  lore verify --format github --fail-on drifted`,
		RunE: func(c *cobra.Command, args []string) error {
			a.quiet = quiet
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
			var fails []anchors.Result
			if failOn != "never" {
				fails = rep.Failing(anchors.Status(failOn), preexisting)
			}
			failing := len(fails)
			results := rep.Results
			if quiet {
				results = fails
			}
			switch {
			case format == "json":
				err = a.json(rep)
			case format == "sarif":
				err = anchors.WriteSARIF(a.stdout, rep.Results, anchors.SARIFOptions{ToolVersion: version, Titles: rep.Titles, Compared: opts.ChangedSince != ""})
			case format == "github":
				err = anchors.WriteGitHub(a.stdout, rep.Results, anchors.GitHubOptions{Titles: rep.Titles})
			case opts.DryRun:
				_, err = fmt.Fprint(a.stdout, rep.Patch)
			case quiet && len(results) == 0:
			default:
				err = anchors.WriteText(a.stdout, results, anchors.TextOptions{Color: a.isTTY(), Titles: rep.Titles, HideValid: !all, HideSummary: quiet, Fixed: opts.Fix})
			}
			if err != nil {
				return err
			}
			if quiet && failing > 0 && format == "text" && !opts.DryRun {
				what := fmt.Sprintf("lore: %d %s at or above --fail-on %s", failing, plural(failing, "finding"), failOn)
				if opts.Staged {
					what += "; the commit is stopped (to commit anyway, once: git commit --no-verify)"
				}
				fmt.Fprintln(a.stdout, what)
			}
			for _, n := range rep.Notices {
				fmt.Fprintln(a.stderr, "lore:", n)
			}
			if !opts.DryRun {
				// Quiet (the hook) says only when an anchor now points
				// elsewhere, not about refreshed baselines of reformatted
				// code.
				moved := map[string]bool{}
				for _, r := range rep.Results {
					if r.Status == anchors.Valid && (r.Change == anchors.ChangeMoved || r.Change == anchors.ChangeRenamed || r.Change == anchors.ChangeMovedRenamed) {
						moved[r.Learning+".md"] = true
					}
				}
				for _, f := range rep.Fixed {
					if !quiet || moved[path.Base(f)] {
						fmt.Fprintf(a.stderr, "lore: fixed baselines in %s\n", f)
					}
				}
			}
			a.findings = failing > 0
			return nil
		},
	}
	f := c.Flags()
	f.BoolVar(&opts.Staged, "staged", false, "verify what is staged (git's index), not the working tree")
	f.StringVar(&opts.Rev, "rev", "", "verify a commit's tree")
	f.StringVar(&opts.ChangedSince, "changed-since", "", "only anchors whose files changed since the merge base with `REV`; findings already there at the merge base do not fail")
	f.BoolVar(&preexisting, "fail-on-preexisting", false, "with --changed-since: findings already there at the merge base fail the run too")
	f.BoolVar(&opts.Fix, "fix", false, "rewrite baselines of moved and reformatted anchors")
	f.BoolVar(&opts.DryRun, "dry-run", false, "with --fix: print the patch of the learning files instead of writing them")
	f.StringVar(&format, "format", "text", "text, json, sarif or github")
	f.StringVar(&failOn, "fail-on", "", "exit 1 on findings at or above: drifted, invalid or never")
	f.Float64Var(&opts.Threshold, "threshold", 0, "lowest confidence for following a relocation (default 0.8)")
	f.BoolVar(&all, "show-valid", false, "text: list valid anchors too")
	f.BoolVar(&quiet, "quiet", false, "text: print nothing unless the run fails, then only what fails it (the pre-commit hook)")
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

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
