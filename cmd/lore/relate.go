package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/cochange"
)

func newRelateCmd(a *app) *cobra.Command {
	var (
		opts   lore.RelateOptions
		list   bool
		lo     lore.RelationsOptions
		since  string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "relate FROM TO --type T [--weight W] [--note N] [--bidirectional] | --list [LEARNING]",
		Short: "Link two learnings (written into the learning files)",
		Long: `relate records that one learning relates to another — caused_by, implements,
supersedes or any tag of 1..64 characters [a-z0-9_.-] — with a weight in
0..1 and an optional note. The link is authored data: it is written into
FROM's learning file (and TO's with --bidirectional). Relating the same pair
and type again updates weight and note. --list prints links as graph JSON.`,
		Example: `  lore relate k3v9 p8d2 --type caused_by --weight 0.8 --note "the expiry race came from this"
  lore relate --list k3v9 --json
  lore relate --list --since 2026-11-01 --limit 20 --offset 20 --json`,
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if list {
				if len(args) > 1 {
					return usageError(c, "--list takes at most one learning")
				}
				if len(args) == 1 {
					lo.Learning = args[0]
				}
				if since != "" {
					t, err := cochange.ParseSince(since, time.Now())
					if err != nil {
						return usageError(c, "--since: %v", err)
					}
					lo.Since = t
				}
				sub, err := ws.Relations(c.Context(), lo)
				if err != nil {
					return err
				}
				if asJSON {
					return a.jsonObject(arrayMember("nodes", sub.Nodes), arrayMember("edges", sub.Edges))
				}
				return printEdges(a.stdout, sub.Edges)
			}
			if len(args) != 2 {
				return usageError(c, "relate takes FROM and TO")
			}
			opts.From, opts.To = args[0], args[1]
			opts.WeightSet = c.Flags().Changed("weight")
			es, err := ws.Relate(c.Context(), opts)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(map[string]any{"edges": es})
			}
			for _, e := range es {
				fmt.Fprintf(a.stdout, "%s -[%s %.2f]-> %s (version %d)\n", e.From, e.Relation, e.Weight, e.To, e.Version)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&opts.Type, "type", "", "relation tag, e.g. caused_by, implements, supersedes")
	f.Float64Var(&opts.Weight, "weight", 1, "weight 0..1")
	f.StringVar(&opts.Note, "note", "", "why the two are related")
	f.BoolVar(&opts.Bidirectional, "bidirectional", false, "also link TO → FROM")
	f.BoolVar(&list, "list", false, "list links instead of adding one")
	f.StringVar(&since, "since", "", "with --list: only links updated since DATE (2026-11-01) or DURATION (7d)")
	f.IntVar(&lo.Limit, "limit", 0, "with --list: most links")
	f.IntVar(&lo.Offset, "offset", 0, "with --list: skip this many")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func newUnrelateCmd(a *app) *cobra.Command {
	var opts lore.UnrelateOptions
	c := &cobra.Command{
		Use:     "unrelate FROM TO [--type T] [--bidirectional]",
		Short:   "Remove links between two learnings",
		Example: "  lore unrelate k3v9 p8d2 --type caused_by",
		Args:    cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			opts.From, opts.To = args[0], args[1]
			n, err := ws.Unrelate(c.Context(), opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "removed %d link(s)\n", n)
			return nil
		},
	}
	c.Flags().StringVar(&opts.Type, "type", "", "only links of this relation (default: all)")
	c.Flags().BoolVar(&opts.Bidirectional, "bidirectional", false, "also remove TO → FROM")
	return c
}

func newBuildContextCmd(a *app) *cobra.Command {
	var depth int
	c := &cobra.Command{
		Use:     "build-context LEARNING [--depth N]",
		Short:   "Render a learning's relation tree as Markdown",
		Example: "  lore build-context k3v9 --depth 3",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			return ws.BuildContext(c.Context(), a.stdout, args[0], depth)
		},
	}
	c.Flags().IntVar(&depth, "depth", 2, "most hops")
	return c
}
