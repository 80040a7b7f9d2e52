package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
)

func newAnchorCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "anchor",
		Short: "Add, remove and accept anchors of a learning",
	}
	c.AddCommand(&cobra.Command{
		Use:   "add LEARNING SPEC...",
		Short: "Anchor a learning to more code (baselines are recorded now)",
		Example: `  lore anchor add k3v9 src/auth.ts::AuthService::validateToken
  lore anchor add k3v9 'src/jwt.ts#L10-L24' 'glob:src/auth/**/*.ts'`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			for _, spec := range args[1:] {
				l, err := ws.AddAnchor(c.Context(), args[0], spec)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s/%d  %s\n", l.ID, len(l.Anchors), spec)
			}
			return nil
		},
	}, &cobra.Command{
		Use:     "rm LEARNING N|SPEC",
		Short:   "Remove an anchor (by 1-based position or spec)",
		Example: "  lore anchor rm k3v9 2",
		Args:    cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			l, err := ws.RemoveAnchor(c.Context(), args[0], args[1])
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s now has %d anchors\n", l.ID, len(l.Anchors))
			return nil
		},
	}, &cobra.Command{
		Use:   "accept LEARNING[/N]",
		Short: "Re-baseline anchors after reviewing a drift",
		Long: `accept records the current code as the anchor's new baseline. Use it after
reading the learning and the changed code and deciding the learning still
holds (edit the learning first if it does not). Without /N every anchor of
the learning that is not valid and unchanged is accepted.`,
		Example: "  lore anchor accept k3v9/2\n  lore anchor accept k3v9",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts := lore.AcceptOptions{Learning: args[0]}
			if id, n, ok := strings.Cut(args[0], "/"); ok {
				v, err := strconv.Atoi(n)
				if err != nil || v < 1 {
					return usageError(c, "%q: write LEARNING/N with N the 1-based anchor position", args[0])
				}
				opts.Learning, opts.Anchor = id, v
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			rs, err := ws.Accept(c.Context(), opts)
			if err != nil {
				return err
			}
			if len(rs) == 0 {
				fmt.Fprintln(a.stdout, "nothing to accept: every anchor is valid and unchanged")
			}
			for _, r := range rs {
				fmt.Fprintf(a.stdout, "accepted %s/%d  %s (%s: %s)\n", r.Learning, r.Anchor, r.Spec, r.Change, r.Reason)
			}
			return nil
		},
	})
	return c
}
