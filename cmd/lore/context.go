package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/rank"
)

func newContextCmd(a *app) *cobra.Command {
	var (
		opts   lore.ContextOptions
		format string
	)
	c := &cobra.Command{
		Use:   "context TARGET... [--depth N] [--limit K] [--format md|json]",
		Short: "Show what we know that matters for a file, line, symbol or learning",
		Long: `context ranks the learnings that matter for what you are working on. A
TARGET is a file, file:line (the symbol around the line), path::Symbol or a
learning id. Learnings anchored to the target symbol come first, then those
anchored to its file, then those reached through imports (both ways), the
other files of a Go package, files that change together with it, and links
or similarity between learnings. Each result says why it was reached. The
learnings found are verified against the working tree for the answer: their
anchors give where the code is now, drifted ones are marked, invalid ones
are listed apart as stale.

--format md (the default) is ready to paste into a prompt; --format json is
for tools: {"targets": [...], "learnings": [{"id", "title", "tags",
"status", "checked", "score", "reason", "hops", "anchors": [{"spec",
"path", "lines", "status"}], "body", "path"}], "stale": [...]}.`,
		Example: `  lore context src/auth.ts
  lore context src/auth.ts:42 --format json
  lore context 'src/auth.ts::AuthService::validateToken' --depth 3 --limit 5
  lore context k3v9`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkRanking(c, opts.Depth, opts.Limit, format); err != nil {
				return err
			}
			opts.Targets = args
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			res, err := ws.Context(c.Context(), opts)
			if err != nil {
				return err
			}
			if format == "json" {
				return a.json(res)
			}
			return res.WriteMarkdown(a.stdout)
		},
	}
	f := c.Flags()
	f.IntVar(&opts.Depth, "depth", rank.DefaultDepth, fmt.Sprintf("most hops through imports, co-change and links (1..%d)", graph.MaxDepth))
	f.IntVar(&opts.Limit, "limit", rank.DefaultLimit, "most learnings listed")
	f.StringVar(&format, "format", "md", "md (for a prompt) or json")
	return c
}

func newLearnSimilarCmd(a *app) *cobra.Command {
	var (
		limit  int
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "similar ID [--limit N] [--json]",
		Short: "List the learnings most similar to one (by their words and anchors)",
		Long: `similar lists the SIMILAR_TO neighbours of a learning: learnings whose
titles, tags, bodies and anchor locations share distinctive words (TF-IDF
cosine), computed when learnings are added or changed. --json prints an
array of {"id", "title", "tags", "score"}.`,
		Example: "  lore learn similar k3v9\n  lore learn similar k3v9 --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if limit < 0 {
				return usageError(c, "--limit must not be negative")
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			sims, err := ws.Similar(c.Context(), args[0], limit)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(sims)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, s := range sims {
				fmt.Fprintf(tw, "%s\t%.3f\t%s\n", s.ID, s.Score, s.Title)
			}
			return tw.Flush()
		},
	}
	c.Flags().IntVar(&limit, "limit", 10, "most learnings listed (0: all)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func newImpactCmd(a *app) *cobra.Command {
	var (
		opts   lore.ImpactOptions
		format string
	)
	c := &cobra.Command{
		Use:   "impact [TARGET...] [--staged | --rev REV] [--depth N] [--limit K] [--format md|json]",
		Short: "What do we know that this change touches?",
		Long: `impact lists the learnings that a change may affect, ranked as lore context
ranks them, each with the reason: anchored to the changed code, reached
through its importers, files that change together with it, or links.

The change is the TARGETs given (files, file:line, path::Symbol), or a git
diff: --staged (the index against HEAD), --rev REV (the working tree against
REV, e.g. main for a branch's change), or by default every uncommitted
change (the working tree against HEAD). Changed lines are mapped to the
indexed symbols they touch: run lore index first for a current answer.

--format json: {"changes": [{"path", "lines", "symbols", "deleted"}],
"targets", "learnings", "stale", "notes"} as in lore context.`,
		Example: `  lore impact
  lore impact --staged --format json
  lore impact --rev main
  lore impact src/auth.ts::AuthService::validateToken`,
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkRanking(c, opts.Depth, opts.Limit, format); err != nil {
				return err
			}
			opts.Targets = args
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			rep, err := ws.Impact(c.Context(), opts)
			if err != nil {
				return err
			}
			if format == "json" {
				return a.json(rep)
			}
			return rep.WriteMarkdown(a.stdout)
		},
	}
	f := c.Flags()
	f.BoolVar(&opts.Staged, "staged", false, "the staged change (git's index against HEAD)")
	f.StringVar(&opts.Rev, "rev", "", "the change from `REV` to the working tree")
	f.IntVar(&opts.Depth, "depth", rank.DefaultDepth, fmt.Sprintf("most hops through importers, co-change and links (1..%d)", graph.MaxDepth))
	f.IntVar(&opts.Limit, "limit", rank.DefaultLimit, "most learnings listed")
	f.StringVar(&format, "format", "md", "md (for a prompt) or json")
	return c
}

// checkRanking checks the flags that context and impact share, as every
// driver checks them.
func checkRanking(c *cobra.Command, depth, limit int, format string) error {
	if err := graph.CheckDepth(depth); err != nil {
		return usageError(c, "%v", err)
	}
	if err := rank.CheckLimit(limit); err != nil {
		return usageError(c, "%v", err)
	}
	if format != "md" && format != "json" {
		return usageError(c, "--format %q: want md or json", format)
	}
	return nil
}
