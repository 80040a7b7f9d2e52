package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/cochange"
)

func newCochangeCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "cochange",
		Short: "Files that change together in git history",
		Long: `cochange walks git history once, counts how often files change in the same
commit, and keeps coupled pairs as CO_CHANGES_WITH edges: degree = shared /
average(revs_a, revs_b). It counts every non-merge commit reachable from HEAD,
as git log --no-merges lists them; with --merges (config: cochange.merges) it
walks HEAD's first-parent chain and counts each merge as one change-set (what
the merged branch brought in). The default window is the year before HEAD's
commit date; flags override config.yaml.`,
	}
	c.AddCommand(newCochangeAnalyzeCmd(a), newCochangeShowCmd(a), newCochangePairsCmd(a))
	return c
}

func newCochangeAnalyzeCmd(a *app) *cobra.Command {
	var (
		opts    cochange.Options
		since   string
		renames bool
		symbols bool
		asJSON  bool
	)
	c := &cobra.Command{
		Use:   "analyze [--since DATE|DURATION] [--max-commits N] [--max-changeset N] …",
		Short: "Analyse git history (incremental after the first run)",
		Example: `  lore cochange analyze
  lore cochange analyze --since 2y --min-coupling 0.5
  lore cochange analyze --full-history --renames=false --json
  lore cochange analyze --merges        # a merged pull request counts once`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if since != "" {
				t, err := cochange.ParseSince(since, time.Now())
				if err != nil {
					return usageError(c, "--since: %v", err)
				}
				opts.Since = t
			}
			opts.NoRenames = !renames
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if symbols {
				parse, done := lore.NewSymbolParser()
				defer done()
				opts.Symbols = parse
			}
			bar := a.progress("history")
			opts.Progress = func(p cochange.Progress) { bar(p.Commits, p.Total) }
			res, err := ws.AnalyzeCochangeWith(c.Context(), opts, cochangeSwitches(c))
			bar(-1, 0)
			if err != nil {
				return err
			}
			for _, n := range res.Notes {
				fmt.Fprintln(a.stderr, "lore: note:", n)
			}
			if asJSON {
				return a.json(map[string]any{
					"head": res.Head, "mode": res.Mode, "commits": res.Commits, "skipped": res.Skipped, "walked": res.Walked,
					"full": res.Full, "reason": res.Reason, "since": res.Since, "pairs": len(res.Pairs), "notes": res.Notes,
					"symbol_pairs": len(res.SymbolPairs), "symbol_commits": res.SymbolCommits,
				})
			}
			update := "incremental"
			if res.Full {
				update = "full: " + res.Reason
			}
			counted := "non-merge commits reachable from HEAD"
			if res.Mode == cochange.ModeFirstParent {
				counted = "commits on HEAD's first-parent chain, each merge as one change-set"
			}
			head := res.Head
			if len(head) > 12 {
				head = head[:12]
			}
			fmt.Fprintf(a.stdout, "mode %s: %d %s in window (HEAD %s; %d walked, %s), %d change-sets skipped as too large, %d coupled pairs\n",
				res.Mode, res.Commits, counted, head, res.Walked, update, res.Skipped, len(res.Pairs))
			if opts.Symbols != nil {
				fmt.Fprintf(a.stdout, "symbols: %d coupled pairs of symbols, from %d commits that changed symbols of the coupled files\n",
					len(res.SymbolPairs), res.SymbolCommits)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&since, "since", "", "window start: a date (2024-01-31) or an age (90d, 12w, 6m, 2y)")
	f.IntVar(&opts.MaxCommits, "max-commits", 0, "most recent counted commits to analyse (0: no limit)")
	f.BoolVar(&opts.FullHistory, "full-history", false, "analyse all of history")
	f.IntVar(&opts.MaxChangeset, "max-changeset", 0, "skip commits touching more files (default 30)")
	f.IntVar(&opts.MinRevs, "min-revs", 0, "minimum revisions of each file (default 5)")
	f.IntVar(&opts.MinShared, "min-shared", 0, "minimum shared revisions (default 5)")
	f.Float64Var(&opts.MinCoupling, "min-coupling", 0, "minimum degree of coupling (default 0.30)")
	f.BoolVar(&renames, "renames", true, "count a renamed file's history under its current name")
	f.BoolVar(&opts.ByDay, "by-day", false, "one author's commits of one day form one change-set")
	f.BoolVar(&opts.Merges, "merges", false, "walk HEAD's first-parent chain and count each merge as one change-set (config: cochange.merges)")
	f.BoolVar(&symbols, "symbols", false, "also find symbols that change together, in the files of the coupled pairs (config: cochange.symbols)")
	f.BoolVar(&asJSON, "json", false, "print a JSON summary")
	return c
}

func newCochangeShowCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "show FILE|FILE::SYMBOL [--json]",
		Short: "Files (or symbols) that change together with FILE (or SYMBOL), strongest first",
		Long: `show lists the co-change partners of a file, or with path::Symbol those of a
symbol (after lore cochange analyze --symbols).`,
		Example: "  lore cochange show src/auth.ts\n  lore cochange show src/auth.go::Service::Validate",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			file, fq, isSymbol := cochange.SplitSymbol(args[0])
			ps, err := a.absPaths([]string{file})
			if err != nil {
				return err
			}
			var partners []cochange.Partner
			if isSymbol {
				rel, rerr := ws.RelPath(ps[0])
				if rerr != nil {
					return rerr
				}
				partners, err = ws.CochangeSymbolPartners(c.Context(), rel+cochange.SymbolSep+fq)
			} else {
				partners, err = ws.CochangePartners(c.Context(), ps[0])
			}
			if err != nil {
				return err
			}
			if asJSON {
				if partners == nil {
					partners = []cochange.Partner{}
				}
				return a.json(partners)
			}
			if len(partners) == 0 {
				hint := ""
				if isSymbol {
					hint = " (symbol pairs come from lore cochange analyze --symbols)"
				}
				fmt.Fprintf(a.stdout, "no co-change partners of %s in the last analysis%s\n", args[0], hint)
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "score\tshared\tpartner")
			for _, p := range partners {
				fmt.Fprintf(tw, "%.2f\t%d\t%s\n", p.Score, p.Shared, p.Path)
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func newCochangePairsCmd(a *app) *cobra.Command {
	var asJSON, symbols bool
	c := &cobra.Command{
		Use:   "pairs [--symbols] [--json]",
		Short: "All coupled pairs (JSON Lines with --json)",
		Long: `pairs prints every coupled pair of the last analysis. With --json: JSON Lines
{"a", "b", "shared", "revs_a", "revs_b", "score"} with a < b.`,
		Example: "  lore cochange pairs --json | jq -s 'sort_by(-.score) | .[:10]'",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			ps, err := ws.CochangePairs(c.Context(), symbols)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, p := range ps {
				if asJSON {
					if err := a.jsonLine(p); err != nil {
						return err
					}
					continue
				}
				fmt.Fprintf(tw, "%.2f\t%d\t%s\t%s\n", p.Score, p.Shared, p.A, p.B)
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines")
	c.Flags().BoolVar(&symbols, "symbols", false, "pairs of symbols (path::fqname) from an analysis with --symbols")
	return c
}

// cochangeSwitches are the on/off flags given on the command line, which
// win over config.yaml's values either way.
func cochangeSwitches(c *cobra.Command) lore.CochangeSwitches {
	given := func(name string) *bool {
		if !c.Flags().Changed(name) {
			return nil
		}
		v, _ := c.Flags().GetBool(name)
		return &v
	}
	return lore.CochangeSwitches{Merges: given("merges"), ByDay: given("by-day"), Renames: given("renames"), Symbols: given("symbols")}
}
