package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/anchors"
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
	}, newAcceptCmd(a))
	return c
}

func newAcceptCmd(a *app) *cobra.Command {
	var (
		all     bool
		changes []string
		to      string
	)
	c := &cobra.Command{
		Use:   "accept LEARNING[/N] | accept LEARNING/N --to CANDIDATE | accept --all [--change KIND]... [LEARNING...]",
		Short: "Re-baseline anchors after reviewing a drift",
		Long: `accept records the current code as the anchor's new baseline and bumps the
learning's updated time. Use it after reading the learning and the changed
code and deciding the learning still holds (edit the learning first if it
does not). Without /N every anchor of the learning that is not valid and
unchanged is accepted.

--all accepts in bulk, after a person reviewed a large mechanical change
(a rename across the code base, a reformatting): every anchor that is not
valid and unchanged, of the learnings given or of all of them, limited to
the change kinds given with --change. Anchors whose code was not found are
listed as skipped.

--to moves one anchor to a new target, keeping its position and so its
history: the number of one of the candidates lore verify suggests (1 for
the first), or any anchor spec.`,
		Example: `  lore anchor accept k3v9/2
  lore anchor accept k3v9
  lore anchor accept --all --change renamed --change moved
  lore anchor accept --all k3v9 p8d2
  lore anchor accept k3v9/1 --to 1
  lore anchor accept k3v9/1 --to 'src/Cache.java::Cache::put(String,int)'`,
		RunE: func(c *cobra.Command, args []string) error {
			var opts lore.AcceptOptions
			for _, ch := range changes {
				if !anchors.Change(ch).Known() {
					return usageError(c, "--change %q: not a change kind (body-changed, signature-changed, renamed, moved, moved+renamed, lines-shifted, reformatted, file-changed, ...)", ch)
				}
				opts.Changes = append(opts.Changes, anchors.Change(ch))
			}
			switch {
			case to != "" && (all || len(changes) > 0):
				return usageError(c, "--to moves one anchor: give LEARNING/N, without --all or --change")
			case all:
				opts.All, opts.Learnings = true, args
			case len(changes) > 0:
				return usageError(c, "--change needs --all")
			case len(args) != 1:
				return usageError(c, "give one LEARNING[/N], or --all [LEARNING...]")
			default:
				opts.Learning = args[0]
				if id, n, ok := strings.Cut(args[0], "/"); ok {
					v, err := strconv.Atoi(n)
					if err != nil || v < 1 {
						return usageError(c, "%q: write LEARNING/N with N the 1-based anchor position", args[0])
					}
					opts.Learning, opts.Anchor = id, v
				}
				if to != "" && opts.Anchor == 0 {
					return usageError(c, "--to moves one anchor: write LEARNING/N with N the 1-based anchor position")
				}
				opts.To = to
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			rep, err := ws.Accept(c.Context(), opts)
			if err != nil {
				return err
			}
			if len(rep.Accepted) == 0 && len(rep.Skipped) == 0 {
				fmt.Fprintln(a.stdout, "nothing to accept: every anchor is valid and unchanged")
			}
			for _, r := range rep.Accepted {
				spec := r.Spec
				if r.To != nil {
					if to := anchors.LocationSpec(*r.To); to != r.Spec && !strings.Contains(r.Reason, to) {
						spec += " → " + to // followed: say where
					}
				}
				fmt.Fprintf(a.stdout, "accepted %s/%d  %s (%s: %s)\n", r.Learning, r.Anchor, spec, r.Change, r.Reason)
			}
			for _, r := range rep.Skipped {
				fmt.Fprintf(a.stdout, "skipped %s/%d  %s (%s: %s): %s\n", r.Learning, r.Anchor, r.Spec, r.Change, r.Reason, anchors.NextStep(r))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "accept every anchor that is not valid and unchanged (of the learnings given, else of all)")
	c.Flags().StringVar(&to, "to", "", "move the anchor to `CANDIDATE`: a candidate's number from lore verify, or a spec")
	c.Flags().StringArrayVar(&changes, "change", nil, "with --all: only anchors with this change `KIND` (body-changed, renamed, moved, ...; repeatable)")
	return c
}
